// SPDX-License-Identifier: Apache-2.0
// End to end: the image a user sees is the one the samples read, and the installed folder
// (`cmake --install`, docs/board.md) stands on its own. In the build tree bin/assets is the source
// tree's assets/; an installed folder has its own assets/input.bmp. The tests swap images and
// remove files in an installed copy in a temporary folder, never in the source tree.
#include "bmp_builder.hpp"
#include "child_process.hpp"
#include "common/imageio/bmp.hpp"
#include "common/imageio/file_io.hpp"
#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

// Options that pick a kernel and work-group shape, so that no run measures candidates first:
// these tests are about files, not speed.
const std::map<std::string, std::vector<std::string>> kNoTuning = {
    {"sobel", {"--variant", "16x4"}},
    {"fir_float", {"--variant", "buffer"}},
    {"morphology_packed", {"--work-group", "8x4"}},
};

std::vector<std::string> arguments_for(const std::string& sample, std::vector<std::string> more)
{
    const auto options = kNoTuning.find(sample);
    if (options != kNoTuning.end())
        more.insert(more.end(), options->second.begin(), options->second.end());
    return more;
}

// A grey BMP whose size differs from the bundled 512x512 photograph in both directions.
constexpr int kSwappedWidth = 72;
constexpr int kSwappedHeight = 40;

std::vector<std::uint8_t> swapped_image()
{
    bmptest::BmpSpec spec;
    spec.width = kSwappedWidth;
    spec.height = kSwappedHeight;
    for (int i = 0; i < kSwappedWidth * kSwappedHeight; ++i) {
        const auto grey = static_cast<std::uint32_t>((i * 37) % 251);
        spec.values.push_back(grey << 16 | grey << 8 | grey);
    }
    return bmptest::build_bmp(spec);
}

TEST(BuildTree, BundledImageIsTheSourceTreesAssetsFolder)
{
    // Not a copy: editing assets/input.bmp changes what the next run reads, with no rebuild.
    const fs::path seen = sdk::executable_directory() / "assets" / "input.bmp";
    const fs::path source = fs::path(SDK_SOURCE_DIR) / "assets" / "input.bmp";
    std::error_code error;
    EXPECT_TRUE(fs::equivalent(seen, source, error))
        << seen << " is not " << source << (error ? ": " + error.message() : "");
}

// A folder installed with `cmake --install BUILD --prefix root/bundle`, and another working folder.
class Bundle : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "sdk-bundle-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr) << std::strerror(errno);
        root_ = pattern;
        bundle_ = root_ / "bundle";
        elsewhere_ = root_ / "elsewhere";
        logs_ = root_ / "logs";
        fs::create_directories(elsewhere_);
        fs::create_directories(logs_);
        const Outcome installed =
            run_program(SDK_CMAKE_COMMAND,
                        {"--install", SDK_BINARY_DIR, "--prefix", bundle_.string()}, root_, logs_);
        ASSERT_EQ(installed.status, 0) << installed.how << "\n" << installed.out << installed.err;
    }
    void TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(root_, ignored);
    }

    Outcome run(const std::string& sample, const std::vector<std::string>& arguments)
    {
        return run_program(bundle_ / sample, arguments_for(sample, arguments), elsewhere_, logs_);
    }

    fs::path root_, bundle_, elsewhere_, logs_;
};

TEST_F(Bundle, HoldsTheSamplesAndTheImageButNoTests)
{
    for (const std::string& sample : sample_names())
        EXPECT_EQ(::access((bundle_ / sample).c_str(), X_OK), 0) << sample << " is not installed";
    EXPECT_TRUE(fs::is_regular_file(bundle_ / "assets" / "input.bmp"));
    for (const char* left_out :
         {"e2e_tests", "host_tests", "sobel_tests", "bench", "opencl_start_stop"})
        EXPECT_FALSE(fs::exists(bundle_ / left_out)) << left_out << " is installed";
}

TEST_F(Bundle, ReadsTheImageSwappedIntoItsAssetsFolderFromAnyWorkingFolder)
{
    const std::vector<std::uint8_t> image = swapped_image();
    sdk::write_file_atomically(bundle_ / "assets" / "input.bmp", image.data(), image.size());
    for (const std::string& sample : sample_names()) {
        SCOPED_TRACE(sample);
        const fs::path output = elsewhere_ / (sample + ".bmp");
        const Outcome outcome = run(sample, {"--verify", "-q", "-o", output.string()});
        ASSERT_EQ(outcome.status, 0) << outcome.how << "\n" << outcome.err;
        const sdk::Image written = sdk::read_bmp(output);
        EXPECT_EQ(written.width, std::size_t{kSwappedWidth});
        EXPECT_EQ(written.height, std::size_t{kSwappedHeight});
    }
}

TEST_F(Bundle, MissingImageIsNamedWithWhereItWasLookedForAndTheFix)
{
    fs::remove(bundle_ / "assets" / "input.bmp");
    for (const std::string& sample : sample_names()) {
        SCOPED_TRACE(sample);
        const Outcome outcome = run(sample, {"-q"});
        EXPECT_EQ(outcome.status, kFailure) << outcome.how;
        EXPECT_EQ(count_lines(outcome.err), 1u) << outcome.err;
        const std::string looked_for = (bundle_ / "assets" / "input.bmp").string();
        EXPECT_NE(outcome.err.find("looked for " + looked_for), std::string::npos) << outcome.err;
        EXPECT_NE(outcome.err.find("cmake --install"), std::string::npos) << outcome.err;
        EXPECT_NE(outcome.err.find("-i FILE"), std::string::npos) << outcome.err;
        EXPECT_FALSE(fs::exists(elsewhere_ / "output.bmp"));
    }
}

TEST_F(Bundle, MissingKernelIsNamedWithWhereItWasLookedForAndTheFix)
{
    for (const auto& entry : fs::directory_iterator(bundle_))
        if (entry.path().extension() == ".cl") fs::remove(entry.path());
    for (const std::string& sample : sample_names()) {
        SCOPED_TRACE(sample);
        const Outcome outcome = run(sample, {"-q"});
        EXPECT_EQ(outcome.status, kFailure) << outcome.how;
        EXPECT_EQ(count_lines(outcome.err), 1u) << outcome.err;
        EXPECT_NE(outcome.err.find("cannot open kernel file '" + bundle_.string() + "/"),
                  std::string::npos)
            << outcome.err;
        EXPECT_NE(outcome.err.find("cmake --install"), std::string::npos) << outcome.err;
        EXPECT_FALSE(fs::exists(elsewhere_ / "output.bmp"));
    }
}

TEST_F(Bundle, MissingIncludedKernelFileIsNamedWithTheFix)
{
    // border.cl is no sample's own file: every family's kernels #include it.
    fs::remove(bundle_ / "border.cl");
    const Outcome outcome = run("sobel", {"-q"});
    EXPECT_EQ(outcome.status, kFailure) << outcome.how;
    EXPECT_EQ(count_lines(outcome.err), 1u) << outcome.err;
    EXPECT_NE(outcome.err.find("cannot open kernel file '" + (bundle_ / "border.cl").string() +
                               "' (#include'd by "),
              std::string::npos)
        << outcome.err;
    EXPECT_NE(outcome.err.find("cmake --install"), std::string::npos) << outcome.err;
    EXPECT_FALSE(fs::exists(elsewhere_ / "output.bmp"));
}

}  // namespace
