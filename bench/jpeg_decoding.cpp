// SPDX-License-Identifier: Apache-2.0
#include "jpeg_decoding.hpp"

#include "codec_builders.hpp"  // tests/common/imageio: the libjpeg writer the tests use
#include "png_encoding.hpp"
#include "common/imageio/jpeg.hpp"
#include "common/imageio/luminance.hpp"
#include "common/runtime/transfers.hpp"
#include "common/codecs/jpeg_idct/jpeg_idct_filter.hpp"
#include "common/codecs/jpeg_idct/jpeg_idct_reference.hpp"

#include <chrono>

#include <ctime>
#include <string>

namespace sdk::bench {
namespace {

// CPU time of the whole process, all threads: the work a decode costs whatever the load, where
// wall time on a shared machine also shows how much of the other cores it got.
double process_cpu_seconds()
{
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

}  // namespace

std::vector<std::uint8_t> photo_like_jpeg(Size size, Restarts restarts, int quality)
{
    Image image = photo_like_image(size, 3);
    codectest::JpegSpec spec;
    spec.width = static_cast<int>(size.width);
    spec.height = static_cast<int>(size.height);
    spec.components = 3;
    spec.quality = quality;
    spec.subsampled = true;
    spec.restart_rows = restarts == Restarts::every_row ? 1 : 0;
    spec.restart_mcus = restarts == Restarts::every_64_mcus ? 64 : 0;
    spec.pixels = std::move(image.pixels);
    return codectest::build_jpeg(spec);
}

namespace {

// The benchmarks' name for each kind of file.
const char* restarts_name(Restarts restarts)
{
    switch (restarts) {
        case Restarts::every_row:
            return "restarts";
        case Restarts::every_64_mcus:
            return "restarts_64_mcus";
        case Restarts::none:
            break;
    }
    return "no_restarts";
}

void time_jpeg_decoding(benchmark::State& state, Size size, Restarts restarts, unsigned threads)
{
    guarded(state, [&] {
        const std::string key =
            "photo-like JPEG " + size_name(size) + " " + restarts_name(restarts);
        const auto& file = reuse_setup<std::vector<std::uint8_t>>(key, [&] {
            return std::make_shared<std::vector<std::uint8_t>>(photo_like_jpeg(size, restarts));
        });
        JpegDecoding decoding;
        decoding.threads = threads;
        decoding.add_restarts_from_pixels = 0;  // every size, to show what it does
        JpegPath path = JpegPath::sequential;
        decoding.path_taken = &path;
        Samples cpu;
        const Samples samples = time_real(state, [&] {
            const double start = process_cpu_seconds();
            benchmark::DoNotOptimize(decode_jpeg(file.data(), file.size(), "bench", decoding));
            cpu.add(process_cpu_seconds() - start);
        });
        set_counters(state, samples, size.pixels(), size.pixels() * 3);
        state.counters["cpu_ms"] = cpu.median() * 1e3;
        state.counters["file_MB"] = static_cast<double>(file.size()) / 1e6;
        state.counters["parallel"] = path == JpegPath::sequential ? 0 : 1;
    });
}

// What a filter wants of a colour JPEG, its luminance: decoded as RGB then luminance() of each
// pixel, or its Y channel alone (JpegDecoding::luminance_only). One thread, no restart markers:
// what a camera's file costs.
void time_jpeg_luminance(benchmark::State& state, Size size, bool y_channel)
{
    guarded(state, [&] {
        const std::string key =
            "photo-like JPEG " + size_name(size) + " " + restarts_name(Restarts::none);
        const auto& file = reuse_setup<std::vector<std::uint8_t>>(key, [&] {
            return std::make_shared<std::vector<std::uint8_t>>(
                photo_like_jpeg(size, Restarts::none));
        });
        JpegDecoding decoding;
        decoding.threads = 1;
        decoding.luminance_only = y_channel;
        const Samples samples = time_real(state, [&] {
            const Image image = decode_jpeg(file.data(), file.size(), "bench", decoding);
            benchmark::DoNotOptimize(y_channel ? image : to_luminance(image));
        });
        set_counters(state, samples, size.pixels(), size.pixels());
    });
}

// A camera's JPEG to its luminance in a device buffer, the two ways --jpeg-idct chooses between.
void time_luminance_on_device(benchmark::State& state, const OpenClContext* cl, Size size,
                              bool device_idct)
{
    guarded(state, [&] {
        const std::string key = "photo-like JPEG q92 " + size_name(size);
        const auto& file = reuse_setup<std::vector<std::uint8_t>>(key, [&] {
            return std::make_shared<std::vector<std::uint8_t>>(
                photo_like_jpeg(size, Restarts::none, 92));
        });
        const std::size_t row_pitch = pitch_for(size.width);
        const cl::Buffer luminance(cl->context, CL_MEM_READ_WRITE, row_pitch * size.height);
        JpegIdctFilter idct(*cl, MemoryMode::copy);
        JpegDecoding decoding;
        decoding.threads = 1;
        decoding.luminance_only = true;
        Samples entropy, check, upload, kernel;
        const auto since = [](std::chrono::steady_clock::time_point start) {
            return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        };
        const Samples samples = time_real(state, [&] {
            if (!device_idct) {
                const Image image = decode_jpeg(file.data(), file.size(), "bench", decoding);
                upload_rows(*cl, MemoryMode::copy, luminance, image.pixels.data(), size.width,
                            size.height, row_pitch, "the luminance");
                return;
            }
            auto start = std::chrono::steady_clock::now();
            const auto plane =
                decode_jpeg_luminance_coefficients(file.data(), file.size(), "bench");
            entropy.add(since(start));
            start = std::chrono::steady_clock::now();
            if (!plane || !idct_exact_for(*plane))
                throw std::runtime_error("no exact coefficients");
            check.add(since(start));
            start = std::chrono::steady_clock::now();
            idct.upload(*plane, 0, size.height);
            upload.add(since(start));
            start = std::chrono::steady_clock::now();
            idct.run(row_pitch, luminance).wait();
            kernel.add(since(start));
        });
        set_counters(state, samples, size.pixels(), size.pixels());
        if (device_idct) {
            state.counters["entropy_ms"] = entropy.median() * 1e3;
            state.counters["check_ms"] = check.median() * 1e3;
            state.counters["upload_ms"] = upload.median() * 1e3;
            state.counters["kernel_ms"] = kernel.median() * 1e3;
        }
    });
}

}  // namespace

void register_jpeg_decoding(const OpenClContext& cl, Size size)
{
    for (const bool device_idct : {false, true}) {
        const std::string name = std::string("decode/jpeg/luminance_on_device/") +
                                 (device_idct ? "device_idct/" : "host_decode/") + size_name(size);
        benchmark::RegisterBenchmark(name.c_str(), time_luminance_on_device, &cl, size, device_idct)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
    for (const bool y_channel : {false, true}) {
        const std::string name = std::string("decode/jpeg/luminance/") +
                                 (y_channel ? "y_channel/" : "rgb_then_luminance/") +
                                 size_name(size);
        benchmark::RegisterBenchmark(name.c_str(), time_jpeg_luminance, size, y_channel)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
    for (const Restarts restarts : {Restarts::every_row, Restarts::every_64_mcus, Restarts::none})
        for (const unsigned threads : {1u, 0u}) {
            const std::string name = std::string("decode/jpeg/") + restarts_name(restarts) + "/" +
                                     (threads == 1 ? "one_thread/" : "all_cores/") +
                                     size_name(size);
            benchmark::RegisterBenchmark(name.c_str(), time_jpeg_decoding, size, restarts, threads)
                ->UseRealTime()
                ->Unit(benchmark::kMillisecond);
        }
}

}  // namespace sdk::bench
