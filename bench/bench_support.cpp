// SPDX-License-Identifier: Apache-2.0
#include "bench_support.hpp"

#include "common/imageio/bmp.hpp"
#include "samples/app/common_options.hpp"
#include "common/imageio/luminance.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/profiling.hpp"

#include <algorithm>
#include <cstring>

namespace sdk::bench {

std::string size_name(Size size)
{
    return std::to_string(size.width) + "x" + std::to_string(size.height);
}

std::vector<Size> parse_sizes(const std::string& text)
{
    std::vector<Size> sizes;
    std::size_t at = 0;
    while (at <= text.size()) {
        const std::size_t end = std::min(text.find(',', at), text.size());
        const std::string item = text.substr(at, end - at);
        const std::size_t x = item.find('x');
        const auto number = [&](const std::string& digits) {
            // At most 6 digits: 999999 x 999999 still fits the arithmetic below in 64 bits.
            if (digits.empty() || digits.size() > 6 ||
                digits.find_first_not_of("0123456789") != std::string::npos)
                throw UsageError("--sizes takes WIDTHxHEIGHT items separated by commas, not '" +
                                 item + "'");
            return static_cast<std::size_t>(std::stoul(digits));
        };
        if (x == std::string::npos)
            throw UsageError("--sizes takes WIDTHxHEIGHT items separated by commas, not '" + item +
                             "'");
        const Size size{number(item.substr(0, x)), number(item.substr(x + 1))};
        if (size.width == 0 || size.height == 0)
            throw UsageError("--sizes: '" + item + "' has no pixels");
        sizes.push_back(size);
        at = end + 1;
    }
    return sizes;
}

const Image& bench_image(Size size)
{
    static Image photograph;
    static Image image;
    if (image.width == size.width && image.height == size.height) return image;
    if (photograph.pixels.empty()) photograph = to_luminance(read_bmp(default_input_image()));
    image = Image{size.width, size.height, 1, std::vector<std::uint8_t>(size.pixels())};
    for (std::size_t y = 0; y < size.height; ++y) {
        const std::uint8_t* source = &photograph.pixels[(y % photograph.height) * photograph.width];
        std::uint8_t* row = &image.pixels[y * size.width];
        for (std::size_t x = 0; x < size.width; x += photograph.width)
            std::memcpy(row + x, source, std::min(photograph.width, size.width - x));
    }
    return image;
}

namespace {
struct KeptSetup {
    std::string key;
    std::shared_ptr<void> setup;
};
KeptSetup& kept()
{
    static KeptSetup slot;
    return slot;
}
int& failures()
{
    static int count = 0;
    return count;
}
}  // namespace

void reset_setup()
{
    kept() = KeptSetup{};
}

void keep_setup(const std::string& key, std::shared_ptr<void> setup)
{
    kept() = KeptSetup{key, std::move(setup)};
}

std::shared_ptr<void> kept_setup(const std::string& key)
{
    return kept().key == key ? kept().setup : nullptr;
}

void guarded(benchmark::State& state, const std::function<void()>& body)
{
    try {
        body();
    } catch (const std::exception& error) {
        // Whatever the setup held may be half made: build it again next time.
        reset_setup();
        ++failures();
        state.SkipWithError(error.what());
    }
}

int failure_count()
{
    return failures();
}

std::optional<std::string> skip_reason(const DeviceNeeds& needs, const DeviceLimits& limits)
{
    const auto mib = [](std::uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; };
    if (needs.largest_buffer > limits.max_allocation)
        return "skipped: needs a buffer of " + mib(needs.largest_buffer) +
               ", more than the device's CL_DEVICE_MAX_MEM_ALLOC_SIZE of " +
               mib(limits.max_allocation);
    if (needs.total > limits.global_memory)
        return "skipped: needs " + mib(needs.total) + " of buffers, more than the device's " +
               mib(limits.global_memory) + " of global memory";
    return std::nullopt;
}

double Samples::median() const
{
    return summarize(seconds_).median;
}

void set_counters(benchmark::State& state, const Samples& samples, std::uint64_t pixels,
                  std::optional<std::uint64_t> bytes, std::optional<double> copy_gbps)
{
    const double seconds = samples.median();
    if (seconds <= 0) return;
    state.counters["median_ms"] = seconds * 1e3;
    if (pixels > 0) state.counters["Mpix/s"] = static_cast<double>(pixels) / seconds / 1e6;
    if (!bytes) return;
    const double gbps = static_cast<double>(*bytes) / seconds / 1e9;
    state.counters["GB/s"] = gbps;
    if (copy_gbps && *copy_gbps > 0) state.counters["copy_fraction"] = gbps / *copy_gbps;
}

}  // namespace sdk::bench
