// SPDX-License-Identifier: Apache-2.0
// End to end: what a sample holds grows with the image only by its device buffers. Each sample
// on the device pipeline is run as a child process on an 8-bit grey BMP of 3072x2048 and on one
// of 1536x1024, and the difference of their peak resident sets (getrusage's ru_maxrss) is
// bounded per pixel. The smaller image is large enough that a runtime starts all of its worker
// threads for it too (Intel's CPU runtime, given 64x64, sometimes started fewer: 4 MB less, and
// the difference passed the budget), and each size is run twice: the larger of the smaller
// image's peaks against the smaller of the larger's, so that only what grows with the image in
// every run counts. A whole host copy grows in every run. On PoCL the device's buffers are host
// memory and count; a GPU's do not, so what this bounds there is less. The kernels and work-groups
// are given: nothing is tuned (the tuners' own host memory is tuning_memory_tests').
#include "child_process.hpp"
#include "common/imageio/image_file.hpp"
#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

struct Budget {
    std::string sample;
    std::vector<std::string> options;
    // The bytes a pixel of its device buffers for a grey file, counted from the code, with
    // half a byte to spare: a whole host copy of the 8-bit image (1 byte a pixel) fails it. On
    // PoCL the measured figures lie within a quarter of a byte of the counts
    // (docs/performance.md, "Peak host memory").
    double bytes_per_pixel;
};

const Budget kBudgets[] = {
    // luminance, dX, dY, magnitude, file rows, BMP rows: 6 bytes
    {"sobel", {"--variant", "16x4"}, 6 + 0.5},
    // the same buffers: sobel's steps with the naive kernel
    {"sobel_no_vectors", {}, 6 + 0.5},
    // file rows, 8-bit luminance, its floats, the float result, its 8 bits, BMP rows: 12. The
    // buffer variant named: with auto, a size class not yet in the tuning cache (which other
    // tests share) is measured first, each variant holding its own floats (16 bytes a pixel).
    {"fir_float", {"--variant", "buffer"}, 12 + 0.5},
    // file rows, luminance, three packed images (1/8 each), the output, BMP rows: 4.4
    {"morphology_packed", {"--work-group", "8x4"}, 4.4 + 0.5},
};

class PeakMemory : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "peak-memory-test-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        root_ = pattern;
        fs::create_directory(root_ / "logs");
    }
    void TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(root_, ignored);
    }

    fs::path grey_file(std::size_t width, std::size_t height)
    {
        sdk::Image image{width, height, 1, std::vector<std::uint8_t>(width * height)};
        std::mt19937 random(7);
        for (auto& pixel : image.pixels) pixel = static_cast<std::uint8_t>(random());
        const fs::path path = root_ / ("grey-" + std::to_string(width) + ".bmp");
        sdk::write_image(path, image);
        return path;
    }

    long peak_kb(const Budget& budget, const fs::path& input)
    {
        std::vector<std::string> arguments{"-i", input.string(), "-o", "output.bmp", "-q"};
        arguments.insert(arguments.end(), budget.options.begin(), budget.options.end());
        const Outcome outcome = run_program(sdk::executable_directory() / budget.sample, arguments,
                                            root_, root_ / "logs");
        EXPECT_TRUE(outcome.exited && outcome.status == 0)
            << budget.sample << ": " << outcome.how << "\n"
            << outcome.err;
        return outcome.peak_memory_kb;
    }

    fs::path root_;
};

TEST_F(PeakMemory, GrowsWithTheImageOnlyByTheDeviceBuffers)
{
    // AddressSanitizer's shadow memory and quarantine grow with every allocation.
    if (kSanitized) GTEST_SKIP() << "a sanitized build's peak memory is the sanitizer's";
    constexpr std::size_t width = 3072, height = 2048;
    const fs::path half = grey_file(width / 2, height / 2);
    const fs::path large = grey_file(width, height);
    for (const Budget& budget : kBudgets) {
        peak_kb(budget, half);  // the kernels built and cached: the compiler's memory not counted
        const long base = std::max(peak_kb(budget, half), peak_kb(budget, half));
        const long peak = std::min(peak_kb(budget, large), peak_kb(budget, large));
        const double pixels = static_cast<double>(width * height - (width / 2) * (height / 2));
        const double per_pixel = 1024.0 * static_cast<double>(peak - base) / pixels;
        EXPECT_LE(per_pixel, budget.bytes_per_pixel)
            << budget.sample << ": " << base << " KB at " << width / 2 << "x" << height / 2 << ", "
            << peak << " KB at " << width << "x" << height;
    }
}

}  // namespace
