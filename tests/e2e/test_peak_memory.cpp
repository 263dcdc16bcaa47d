// End to end: each pipeline sample's peak memory grows with the image only by what its buffers
// need. The rule, per pixel of a 24-bit input: the device buffers of the run (on PoCL they are
// host memory too: the file's rows, the filter's images, the output's rows) plus at most 2 bytes
// of host memory; a host copy of a whole float image (4 bytes a pixel) breaks it. Measured as
// the peak (ru_maxrss) on a 2048x2048 image minus the peak on a 64x64 one, so the driver's own
// memory (PoCL's LLVM: about 75 MB) cancels out; programs come from the cache of a first run,
// and work-groups are given, so neither the compiler nor the tuner is measured.
#include "bmp_builder.hpp"
#include "child_process.hpp"
#include "imageio/file_io.hpp"
#include "runtime/program.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

struct Budget {
    std::vector<std::string> command;  // the sample and the options that fix its kernels
    double device_bytes_per_pixel;     // its buffers, the file's 3 bytes of rows included
};

// sobel: rows 3, luminance 1, dX and dY 2 each, magnitude 1, output rows 1.
// sobel_no_vectors: decoded on the host (luminance 1), on the device luminance 1, dX and dY
// 2 each, downloaded again (4) and the magnitude made on the host (1).
// fir_float: rows 3, luminance 1 and as floats 4, output floats 4, 8-bit 1, output rows 1.
// morphology_packed: rows 3, luminance 1, three packed images of 1/8, output 1, output rows 1.
const Budget kBudgets[] = {
    {{"sobel", "--variant", "16x4", "--work-group", "32x8"}, 10},
    {{"sobel_no_vectors"}, 11},
    {{"fir_float", "--work-group", "32x8"}, 14},
    {{"morphology_packed", "--work-group", "16x8"}, 6.5},
};
constexpr double kHostBytesPerPixel = 2;

class PeakMemory : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "peak-memory-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        root_ = pattern;
        fs::create_directory(root_ / "logs");
        options_.environment["XDG_CACHE_HOME"] = (root_ / "cache").string();
    }
    void TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(root_, ignored);
    }

    fs::path random_bmp(int width, int height)
    {
        bmptest::BmpSpec spec;
        spec.width = width;
        spec.height = height;
        std::mt19937 random(5);
        for (int i = 0; i < width * height; ++i) spec.values.push_back(random() & 0xFFFFFF);
        const fs::path path = root_ / (std::to_string(width) + "x" + std::to_string(height) + ".bmp");
        const std::vector<std::uint8_t> bytes = bmptest::build_bmp(spec);
        sdk::write_file_atomically(path, bytes.data(), bytes.size());
        return path;
    }

    long peak_kb(const std::vector<std::string>& command, const fs::path& input)
    {
        std::vector<std::string> arguments(command.begin() + 1, command.end());
        for (const char* word : {"-q", "-i"}) arguments.push_back(word);
        arguments.push_back(input.string());
        arguments.push_back("-o");
        arguments.push_back((root_ / "out.bmp").string());
        const Outcome outcome = run_program(sdk::executable_directory() / command.front(),
                                            arguments, root_, root_ / "logs", options_);
        EXPECT_TRUE(outcome.exited && outcome.status == 0) << outcome.how << ": " << outcome.err;
        return outcome.peak_memory_kb;
    }

    fs::path root_;
    RunOptions options_;
};

TEST_F(PeakMemory, GrowsWithTheImageOnlyByTheRunsBuffers)
{
    const int width = 2048, height = 2048;
    const fs::path small = random_bmp(64, 64);
    const fs::path large = random_bmp(width, height);
    const double pixels = double(width) * height;
    for (const Budget& budget : kBudgets) {
        peak_kb(budget.command, small);  // builds and caches the programs
        const long base_kb = peak_kb(budget.command, small);
        const long large_kb = peak_kb(budget.command, large);
        const double bytes_per_pixel = static_cast<double>(large_kb - base_kb) * 1024.0 / pixels;
        EXPECT_LE(bytes_per_pixel, budget.device_bytes_per_pixel + kHostBytesPerPixel)
            << budget.command.front() << ": peak " << large_kb / 1024 << " MB at " << width << "x"
            << height << " against " << base_kb / 1024 << " MB at 64x64";
        std::cout << budget.command.front() << ": " << bytes_per_pixel << " bytes a pixel\n";
    }
}

}  // namespace
