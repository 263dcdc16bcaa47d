// SPDX-License-Identifier: Apache-2.0
// End to end: the program binary cache (common/runtime/program_cache.hpp) is never trusted blindly.
// The entry of `sobel --border constant` replaced by the valid entry of `--border replicate` (a
// restore that mixed files up) must not make the constant run write the replicate result: it is
// rebuilt, and the output is the clean run's, byte for byte, with exit 0 and nothing on stderr.
#include "bmp_builder.hpp"
#include "child_process.hpp"
#include "common/imageio/file_io.hpp"
#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

class CachedPrograms : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "cached-programs-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        root_ = pattern;
        fs::create_directory(root_ / "logs");
        // Random pixels, so the border modes differ at every edge.
        bmptest::BmpSpec spec;
        spec.width = 37;
        spec.height = 23;
        for (std::uint32_t i = 0; i < 37 * 23; ++i)
            spec.values.push_back((i * 2654435761u) & 0xFFFFFF);
        const std::vector<std::uint8_t> bytes = bmptest::build_bmp(spec);
        sdk::write_file_atomically(root_ / "input.bmp", bytes.data(), bytes.size());
    }
    void TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(root_, ignored);
    }

    // sobel with `border`, its programs cached in `cache`; expects a clean success and returns
    // the output file's bytes.
    std::vector<std::uint8_t> sobel(const std::string& border, const std::string& cache)
    {
        const fs::path output = root_ / ("output-" + border + ".bmp");
        RunOptions options;
        options.environment["SDK_CACHE_DIR"] = (root_ / cache).string();
        options.environment["SDK_PROGRAM_CACHE"] = "1";
        const Outcome outcome =
            run_program(sdk::executable_directory() / "sobel",
                        {"-i", (root_ / "input.bmp").string(), "-o", output.string(), "--variant",
                         "16x1", "--border", border, "-q"},
                        root_, root_ / "logs", options);
        EXPECT_TRUE(outcome.exited && outcome.status == 0) << outcome.how << "\n" << outcome.err;
        EXPECT_EQ(outcome.err, "");
        return sdk::read_file(output);
    }

    std::set<fs::path> entry_names(const std::string& cache) const
    {
        std::set<fs::path> names;
        for (const auto& entry : fs::directory_iterator(root_ / cache / "programs"))
            names.insert(entry.path().filename());
        return names;
    }

    fs::path root_;
};

TEST_F(CachedPrograms, AnotherBordersEntryIsRebuiltNotRun)
{
    const auto constant = sobel("constant", "constant-cache");
    const auto replicate = sobel("replicate", "replicate-cache");
    ASSERT_NE(constant, replicate) << "the image cannot tell the border modes apart";

    // The programs both runs share (the row conversions) have the same entries; the Sobel
    // program is the one entry of each cache that the other lacks.
    const auto constant_names = entry_names("constant-cache");
    const auto replicate_names = entry_names("replicate-cache");
    std::vector<fs::path> constant_only, replicate_only;
    for (const auto& name : constant_names)
        if (!replicate_names.count(name)) constant_only.push_back(name);
    for (const auto& name : replicate_names)
        if (!constant_names.count(name)) replicate_only.push_back(name);
    ASSERT_EQ(constant_only.size(), 1u);
    ASSERT_EQ(replicate_only.size(), 1u);
    fs::copy_file(root_ / "replicate-cache" / "programs" / replicate_only.front(),
                  root_ / "constant-cache" / "programs" / constant_only.front(),
                  fs::copy_options::overwrite_existing);

    EXPECT_EQ(sobel("constant", "constant-cache"), constant)
        << "the constant run used the replicate program";
}

}  // namespace
