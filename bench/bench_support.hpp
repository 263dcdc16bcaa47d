// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the benchmarks share: image sizes and the images themselves, the one setup kept between
// the runner's calls, per-iteration times and the counters computed from their median.
#include "common/imageio/image.hpp"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sdk::bench {

struct Size {
    std::size_t width = 0;
    std::size_t height = 0;
    std::uint64_t pixels() const { return std::uint64_t{width} * height; }
};

std::string size_name(Size size);  // "3264x2448"

// "--sizes 512x512,3264x2448": throws UsageError naming the item that is not WIDTHxHEIGHT.
std::vector<Size> parse_sizes(const std::string& text);

// The bundled photograph's luminance tiled to the size, so every size shows real edges and a
// real mask (the kernels' speed hardly depends on content, OpenCV's dilate a little does).
// Only the last size asked for is kept: the largest image is 256 MiB.
const Image& bench_image(Size size);

// The runner calls a benchmark's function several times (growing the iteration count until
// --benchmark_min_time, then once per repetition); building programs and uploading a
// 16384x16384 image each time would take longer than the measurement. So the last benchmark's
// setup is kept, and only that one: the largest sizes fill a GPU's memory on their own.
void reset_setup();  // frees the kept setup first, so that a new one has the memory
void keep_setup(const std::string& key, std::shared_ptr<void> setup);
std::shared_ptr<void> kept_setup(const std::string& key);

template <typename Setup, typename Make>
Setup& reuse_setup(const std::string& key, Make&& make)
{
    if (auto kept = kept_setup(key)) return *static_cast<Setup*>(kept.get());
    reset_setup();
    std::shared_ptr<Setup> setup = make();
    keep_setup(key, setup);
    return *setup;
}

// Runs a benchmark's body; an exception becomes SkipWithError with its message and counts as a
// failure (bench then exits 1), so CI sees a kernel that stopped working.
void guarded(benchmark::State& state, const std::function<void()>& body);
int failure_count();

// Buffers a benchmark needs on the device; skip_reason() says why they do not fit, if they don't.
struct DeviceNeeds {
    std::uint64_t largest_buffer = 0;
    std::uint64_t total = 0;
};
struct DeviceLimits {
    std::uint64_t max_allocation = 0;  // CL_DEVICE_MAX_MEM_ALLOC_SIZE
    std::uint64_t global_memory = 0;   // CL_DEVICE_GLOBAL_MEM_SIZE
};
std::optional<std::string> skip_reason(const DeviceNeeds& needs, const DeviceLimits& limits);

// Seconds of each iteration of one call of a benchmark function.
class Samples {
public:
    void add(double seconds) { seconds_.push_back(seconds); }
    double median() const;  // 0 when empty

private:
    std::vector<double> seconds_;
};

// The counters every timed benchmark reports, from the median iteration (not the mean, which
// one descheduled iteration can move): median_ms, Mpix/s, and with `bytes` GB/s (10^9) of the
// bytes the work must move, and with `copy_gbps` that as a fraction of the device's copy
// bandwidth (copy_fraction).
void set_counters(benchmark::State& state, const Samples& samples, std::uint64_t pixels,
                  std::optional<std::uint64_t> bytes = std::nullopt,
                  std::optional<double> copy_gbps = std::nullopt);

// Times `iteration` with the steady clock: for host work and whole pipelines (real time).
template <typename Iteration>
Samples time_real(benchmark::State& state, Iteration&& iteration)
{
    Samples samples;
    for (auto _ : state) {
        const auto start = std::chrono::steady_clock::now();
        iteration();
        samples.add(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    return samples;
}

}  // namespace sdk::bench
