// SPDX-License-Identifier: Apache-2.0
// End to end: --compare, the Mali tutorials' table in one command. Each sample with variants prints
// one row per variant that runs here, in order (Sobel's scalar kernel first, the speed-up
// baseline), and the device copy last, then writes its output as any run does; a banded run, where
// no one filter holds the image, refuses it.
#include "child_process.hpp"
#include "imageio_test_support.hpp"
#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

class Compare : public decodetest::FolderTest {
protected:
    Outcome run(const std::string& sample, const std::vector<std::string>& arguments) const
    {
        return run_program(sdk::executable_directory() / sample, arguments, folder_, folder_);
    }
};

// The table's rows: the first word of each indented line after its column headings.
std::vector<std::string> table_rows(const std::string& out)
{
    std::vector<std::string> rows;
    const std::size_t header = out.find("median ms   speed-up");
    if (header == std::string::npos) return rows;
    std::stringstream lines(out.substr(out.find('\n', header) + 1));
    for (std::string line; std::getline(lines, line) && line.rfind("  ", 0) == 0;) {
        std::stringstream words(line);
        std::string name, more;
        words >> name;
        if (name == "device") name += " copy";
        rows.push_back(name);
    }
    return rows;
}

TEST_F(Compare, SobelTimesTheScalarKernelAndEveryVariantAgainstACopy)
{
    const Outcome outcome =
        run("sobel", {"--compare", "-n", "3", "--variant", "16x4", "-o", "out.bmp"});
    ASSERT_EQ(outcome.status, 0) << outcome.how << "\n" << outcome.err;
    EXPECT_NE(outcome.out.find("3 runs each, taking turns"), std::string::npos) << outcome.out;
    const auto rows = table_rows(outcome.out);
    ASSERT_GE(rows.size(), 6u) << outcome.out;
    const std::vector<std::string> first{"no_vectors", "16x1", "16x4", "16x4-packed", "local"};
    for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(rows[i], first[i]) << outcome.out;
    EXPECT_EQ(rows.back(), "device copy");
    // The scalar kernel is the baseline: 1.0x.
    const std::size_t scalar = outcome.out.find("  no_vectors");
    ASSERT_NE(scalar, std::string::npos);
    EXPECT_NE(outcome.out.substr(scalar, outcome.out.find('\n', scalar) - scalar).find(" 1.0x "),
              std::string::npos)
        << outcome.out;
    EXPECT_TRUE(fs::exists(folder_ / "out.bmp"));
}

TEST_F(Compare, FirComparesBufferLocalAndImage)
{
    const Outcome outcome = run("fir_float", {"--compare", "-n", "3", "-o", "out.bmp"});
    ASSERT_EQ(outcome.status, 0) << outcome.how << "\n" << outcome.err;
    const auto rows = table_rows(outcome.out);
    ASSERT_GE(rows.size(), 3u) << outcome.out;
    EXPECT_EQ(rows[0], "buffer");
    EXPECT_EQ(rows[1], "local");
    EXPECT_EQ(rows.back(), "device copy");
    EXPECT_TRUE(fs::exists(folder_ / "out.bmp"));
}

TEST_F(Compare, ABandedRunRefusesIt)
{
    for (const std::string sample : {"sobel", "fir_float"}) {
        const Outcome outcome = run(sample, {"--compare", "--band-rows", "64", "-o", "out.bmp"});
        EXPECT_EQ(outcome.status, kUsageError) << sample << ": " << outcome.how << "\n"
                                               << outcome.err;
        EXPECT_NE(outcome.err.find("--compare"), std::string::npos) << outcome.err;
        EXPECT_FALSE(fs::exists(folder_ / "out.bmp"));
    }
}

}  // namespace
