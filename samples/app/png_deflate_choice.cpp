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

ChunkCompressor device_compressor(PngDeflateEncoder& encoder)
{
    return [&encoder](const std::uint8_t* input, std::size_t size, bool last,
                      std::vector<std::uint8_t>& out) { encoder.compress(input, size, last, out); };
}

// An edge image's filtered rows, as the writer hands them over: mostly zero, thin lines of
// varied bytes. 2048 rows of 2049 bytes: several of the writer's chunks on any machine.
DeflateRows edge_rows(std::vector<std::uint8_t>& pixels)
{
    constexpr std::size_t kWidth = 2048, kHeight = 2048;
    pixels.assign(kWidth * kHeight, 0);
    std::mt19937 generator(1);
    for (std::size_t y = 0; y < kHeight; ++y)
        for (std::size_t x = 0; x < kWidth; ++x)
            if ((x * 7 + y * 3) % 61 < 3 || generator() % 50 == 0)
                pixels[y * kWidth + x] = static_cast<std::uint8_t>(generator());
    DeflateRows rows;
    rows.row_count = kHeight;
    rows.row_bytes = kWidth + 1;
    rows.make_rows = [&pixels](std::size_t first, std::size_t count, std::uint8_t* out) {
        for (std::size_t y = first; y < first + count; ++y) {
            *out++ = 0;  // no filter: the bytes are already what a filter leaves
            out =
                std::copy_n(pixels.begin() + static_cast<std::ptrdiff_t>(y * kWidth), kWidth, out);
        }
    };
    return rows;
}

// The median of three timed compressions of the same rows.
double median_seconds(const DeflateRows& rows, const DeflateChunking& chunking)
{
    std::vector<double> seconds;
    for (int run = 0; run < 3; ++run) {
        const auto start = std::chrono::steady_clock::now();
        deflate_rows(
            rows, [](const std::uint8_t*, std::size_t) {}, chunking);
        seconds.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(seconds.begin(), seconds.end());
    return seconds[1];
}

PngDeflatePlace measure(const OpenClContext& cl)
{
    std::vector<std::uint8_t> pixels;
    const DeflateRows rows = edge_rows(pixels);
    DeflateChunking device;
    device.compress_chunk = device_compressor(encoder_for(cl));
    deflate_rows(
        rows, [](const std::uint8_t*, std::size_t) {}, device);  // compiles, allocates
    const double device_seconds = median_seconds(rows, device);
    const double host_seconds = median_seconds(rows, DeflateChunking{});
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
    if (choose_png_deflate(cl) == PngDeflatePlace::device)
        use_png_chunk_compressor(device_compressor(encoder_for(cl)));
    else
        use_png_chunk_compressor({});
    chosen_for = cl.context();
}

}  // namespace sdk
