#pragma once
#include "runtime/device.hpp"
#include "filters/border.hpp"
#include "filters/sobel/sobel_filter.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sdk {

// Which Sobel kernel and work-group shape are fastest differs per device (the Adreno post's
// question, "how many outputs per work-item?", has a different answer on every GPU). --variant
// auto measures the candidates briefly and remembers the winner per device and driver.
struct SobelChoice {
    SobelVariant variant = SobelVariant::vector_16x1;
    std::size_t group_x = 32;
    std::size_t group_y = 8;
};

std::string describe(const SobelChoice& choice);  // "16x4-packed, work-group 32x8"

// The cache file: $SDK_TUNING_CACHE if set, else $XDG_CACHE_HOME/opencl-image-filters/tuning.txt,
// else ~/.cache/opencl-image-filters/tuning.txt; empty when none of these can be named.
std::filesystem::path tuning_cache_path();

// The key a device's choice is stored under: platform, device and driver version, so a driver
// update measures again.
std::string tuning_key(const cl::Device& device);

// Reading ignores an unreadable or malformed cache (it is only a cache); writing replaces the
// device's line atomically and reports failure by returning false, never by throwing.
std::optional<SobelChoice> read_cached_choice(const std::filesystem::path& cache,
                                              const std::string& key);
bool write_cached_choice(const std::filesystem::path& cache, const std::string& key,
                         const SobelChoice& choice);

struct TuningResult {
    SobelChoice choice;
    bool from_cache = false;
    double median_ms = 0;  // of the winner, when measured now
};

// The cached choice for this device, or a short measurement of every candidate on a synthetic
// 2048x1024 image (median of 5 runs each), whose winner is then cached.
TuningResult choose_sobel_kernel(const OpenClContext& cl, Border border);

}  // namespace sdk
