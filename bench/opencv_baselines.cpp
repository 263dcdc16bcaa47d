// SPDX-License-Identifier: Apache-2.0
#include "opencv_baselines.hpp"

#include "kernels/fir/fir_coefficients.hpp"

#include <opencv2/core.hpp>
#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>
#ifdef SDK_BENCH_OPENCV_FILES
#include <opencv2/imgcodecs.hpp>
#endif

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

namespace sdk::bench {

namespace {

// The photograph as OpenCV sees it, and the outputs, allocated once: cv::Sobel and friends
// reuse an output Mat of the right size and type, so the loop times the filter alone.
struct OpenCvImages {
    cv::Mat luminance;  // CV_8U, over a copy of bench_image()
    cv::Mat luminance_float;
    cv::Mat mask;  // 0 or 255, the morphology sample's binarisation (luminance >= 128)
    cv::Mat first;
    cv::Mat second;
    std::vector<std::uint8_t> pixels;
};

std::shared_ptr<OpenCvImages> make_images(Size size)
{
    auto images = std::make_shared<OpenCvImages>();
    images->pixels = bench_image(size).pixels;
    images->luminance = cv::Mat(static_cast<int>(size.height), static_cast<int>(size.width),
                                CV_8UC1, images->pixels.data());
    images->luminance.convertTo(images->luminance_float, CV_32F);
    cv::threshold(images->luminance, images->mask, 127, 255, cv::THRESH_BINARY);
    return images;
}

std::uint64_t host_memory_bytes()
{
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page_size <= 0) return UINT64_MAX;  // unknown: try
    return static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size);
}

using FilterOnce = std::function<void(OpenCvImages&)>;

void time_baseline(benchmark::State& state, const std::string& name, Size size,
                   std::uint64_t bytes_per_pixel, const FilterOnce& filter_once)
{
    guarded(state, [&] {
        // The image, its float copy and mask, and two outputs of up to 4 bytes a pixel.
        const std::uint64_t needed = 14 * size.pixels();
        if (needed > host_memory_bytes() / 2) {
            const std::string why = "skipped: needs " + std::to_string(needed >> 20) +
                                    " MiB of host memory, more than half the host's";
            return state.SkipWithError(why.c_str());
        }
        auto& images = reuse_setup<OpenCvImages>(name, [&] {
            auto made = make_images(size);
            filter_once(*made);  // warm-up: allocates the outputs, starts the thread pool
            return made;
        });
        const Samples samples = time_real(state, [&] { filter_once(images); });
        set_counters(state, samples, size.pixels(), bytes_per_pixel * size.pixels());
    });
}

// One OpenCV call per iteration, with what it must move (each input read once, each output
// written once) for GB/s; no copy_fraction: the host's memory is not the device's.
void register_baseline(const std::string& filter, const std::string& variant, Size size,
                       std::uint64_t bytes_per_pixel, FilterOnce filter_once)
{
    const std::string name = "opencv/" + filter + "/" + variant + "/" + size_name(size);
    benchmark::RegisterBenchmark(name.c_str(), time_baseline, name, size, bytes_per_pixel,
                                 std::move(filter_once))
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
}

}  // namespace

void register_opencv_baselines(Size size)
{
    // Replicated borders, the samples' default; cv::dilate's default border already counts
    // outside as background, as the morphology kernels do.
    // Sobel: 1 byte in, dX and dY out as CV_16S (OpenCV has no saturating 8-bit Sobel output).
    register_baseline("sobel", "cv_sobel_dx_dy", size, 1 + 2 + 2, [](OpenCvImages& images) {
        cv::Sobel(images.luminance, images.first, CV_16S, 1, 0, 3, 1, 0, cv::BORDER_REPLICATE);
        cv::Sobel(images.luminance, images.second, CV_16S, 0, 1, 3, 1, 0, cv::BORDER_REPLICATE);
    });
    // FIR: float in, float out, the Mali tutorial's weights (filter2D correlates, as fir_float).
    const std::array<float, 9> weights = FirCoefficients{}.float_weights();
    cv::Mat kernel(3, 3, CV_32F);
    std::copy(weights.begin(), weights.end(), kernel.ptr<float>());
    register_baseline("fir", "cv_filter2d", size, 4 + 4, [kernel](OpenCvImages& images) {
        cv::filter2D(images.luminance_float, images.first, CV_32F, kernel, cv::Point(-1, -1), 0,
                     cv::BORDER_REPLICATE);
    });
    // Dilation with the 3x3 square, on an 8-bit mask: OpenCV has no bit-packed morphology.
    const cv::Mat square = cv::getStructuringElement(cv::MORPH_RECT, cv::Size(3, 3));
    register_baseline("morphology", "cv_dilate_3x3", size, 1 + 1, [square](OpenCvImages& images) {
        cv::dilate(images.mask, images.first, square);
    });
}

std::string opencv_description()
{
    return std::string(CV_VERSION) + ", " + std::to_string(cv::getNumThreads()) + " threads";
}

#ifdef SDK_BENCH_OPENCV_FILES
void opencv_sobel_job(const std::filesystem::path& input, const std::filesystem::path& output)
{
    const cv::Mat colour = cv::imread(input.string(), cv::IMREAD_COLOR);
    if (colour.empty()) throw std::runtime_error("OpenCV cannot read " + input.string());
    cv::Mat grey, dx, dy, dx_float, dy_float, magnitude, magnitude_8bit;
    cv::cvtColor(colour, grey, cv::COLOR_BGR2GRAY);
    cv::Sobel(grey, dx, CV_16S, 1, 0, 3, 1, 0, cv::BORDER_REPLICATE);
    cv::Sobel(grey, dy, CV_16S, 0, 1, 3, 1, 0, cv::BORDER_REPLICATE);
    dx.convertTo(dx_float, CV_32F);
    dy.convertTo(dy_float, CV_32F);
    cv::magnitude(dx_float, dy_float, magnitude);
    magnitude.convertTo(magnitude_8bit, CV_8U);  // saturates at 255, as the sample's does
    if (!cv::imwrite(output.string(), magnitude_8bit))
        throw std::runtime_error("OpenCV cannot write " + output.string());
}
#endif

}  // namespace sdk::bench
