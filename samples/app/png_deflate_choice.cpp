// SPDX-License-Identifier: Apache-2.0
#include "samples/app/png_deflate_choice.hpp"

#include "common/imageio/deflate_parallel.hpp"
#include "common/imageio/png_writer.hpp"
#include "common/runtime/errors.hpp"
#include "kernels/png_deflate/png_deflate_encoder.hpp"
#include "kernels/tuning_cache.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <random>
#include <vector>

namespace sdk {
namespace {

constexpr const char* kVariable = "SDK_PNG_DEFLATE";

std::string cache_key(const OpenClContext& cl)
{
    return "png_deflate " + device_key(cl.device);
}

// The device's encoder, built once per context (a batch's photos share one) and never destroyed:
// releasing OpenCL objects from static destructors at exit races the runtime's own teardown.
PngDeflateEncoder& encoder_for(const OpenClContext& cl)
{
    static std::mutex mutex;
    static cl_context context = nullptr;
    static PngDeflateEncoder* encoder = nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    if (!encoder || context != cl.context()) {
        encoder = new PngDeflateEncoder(cl);  // an older context's encoder stays, unused
        context = cl.context();
    }
    return *encoder;
}

PngRowsEncoder device_encoder(PngDeflateEncoder& encoder)
{
    return [&encoder](const Image& image, std::size_t first_row, std::size_t count, bool last,
                      std::vector<std::uint8_t>& out) {
        return encoder.compress_rows(image, first_row, count, last, out);
    };
}

// An edge image: mostly zero, thin lines of varied bytes. 2048x2048: several of the writer's
// chunks on any machine.
Image edge_image()
{
    constexpr std::size_t kSide = 2048;
    Image image{kSide, kSide, 1, std::vector<std::uint8_t>(kSide * kSide, 0)};
    std::mt19937 generator(1);
    for (std::size_t y = 0; y < kSide; ++y)
        for (std::size_t x = 0; x < kSide; ++x)
            if ((x * 7 + y * 3) % 61 < 3 || generator() % 50 == 0)
                image.pixels[y * kSide + x] = static_cast<std::uint8_t>(generator());
    return image;
}

// The image's rows as the PNG writer hands them to deflate_rows: filtered on the host and
// compressed by zlib, or both by `encoder`.
DeflateRows png_rows(const Image& image, const PngRowsEncoder& encoder)
{
    DeflateRows rows;
    rows.row_count = image.height;
    rows.row_bytes = 1 + image.width * static_cast<std::size_t>(image.channels);
    rows.make_rows = [&image](std::size_t first_row, std::size_t count, std::uint8_t* out) {
        filter_png_rows_up(image, first_row, count, out);
    };
    if (encoder)
        rows.compress_rows = [&image, &encoder](std::size_t first_row, std::size_t count,
                                                bool last, std::vector<std::uint8_t>& out) {
            return encoder(image, first_row, count, last, out);
        };
    return rows;
}

// The median of three timed compressions of the same rows.
double median_seconds(const DeflateRows& rows, const DeflateChunking& chunking = {})
{
    std::vector<double> seconds;
    for (int run = 0; run < 3; ++run) {
        const auto start = std::chrono::steady_clock::now();
        deflate_rows(rows, [](const std::uint8_t*, std::size_t) {}, chunking);
        seconds.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(seconds.begin(), seconds.end());
    return seconds[1];
}

PngDeflatePlace measure(const OpenClContext& cl)
{
    const Image image = edge_image();
    PngDeflateEncoder& encoder = encoder_for(cl);
    const PngRowsEncoder device = device_encoder(encoder);
    const DeflateRows device_rows = png_rows(image, device);
    // The first run compiles and allocates; each side is cut as it will be in the runs.
    deflate_rows(device_rows, [](const std::uint8_t*, std::size_t) {}, encoder.chunking());
    const double device_seconds = median_seconds(device_rows, encoder.chunking());
    const double host_seconds = median_seconds(png_rows(image, {}));
    return device_seconds < host_seconds ? PngDeflatePlace::device : PngDeflatePlace::host;
}

}  // namespace

std::string place_name(PngDeflatePlace place)
{
    return place == PngDeflatePlace::device ? "device" : "host";
}

PngDeflatePlace choose_png_deflate(const OpenClContext& cl)
{
    const char* setting = std::getenv(kVariable);
    const std::string wanted = setting ? setting : "";
    if (wanted == "host") return PngDeflatePlace::host;
    const bool can_run = PngDeflateEncoder::unavailable(cl.device).empty();
    if (wanted == "device") return can_run ? PngDeflatePlace::device : PngDeflatePlace::host;
    if (wanted != "" && wanted != "measure")
        throw UsageError(std::string(kVariable) + "='" + wanted +
                         "': expected host, device or measure");
    if (!can_run) return PngDeflatePlace::host;
    const std::filesystem::path cache = tuning_cache_path();
    if (const auto cached = read_tuning_entry(cache, cache_key(cl)))
        return *cached == "device" ? PngDeflatePlace::device : PngDeflatePlace::host;
    if (wanted.empty()) return PngDeflatePlace::host;
    const PngDeflatePlace place = measure(cl);
    write_tuning_entry(cache, cache_key(cl), place_name(place));
    return place;
}

void use_chosen_png_deflate(const OpenClContext& cl)
{
    // Once per context: a batch's photos each start a run on the same one, side by side.
    static std::mutex mutex;
    static cl_context chosen_for = nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    if (chosen_for == cl.context()) return;
    if (choose_png_deflate(cl) == PngDeflatePlace::device) {
        PngDeflateEncoder& encoder = encoder_for(cl);
        use_png_rows_encoder(device_encoder(encoder), encoder.chunking());
    } else {
        use_png_rows_encoder({});
    }
    chosen_for = cl.context();
}

}  // namespace sdk
