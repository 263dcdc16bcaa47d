// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/opencl.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

namespace sdk {

// What a tuner measured, remembered between runs: a small text file of lines `key<TAB>value`.
// It is only a cache, so anything odd about it (missing, unreadable, not a regular file, larger
// than kMaxTuningCacheBytes, a line that does not parse) means "not cached", never an error:
// the worst a damaged cache may cost is one more measurement.

// A real cache holds a few dozen lines; a larger file is not ours, and is not read.
constexpr std::uintmax_t kMaxTuningCacheBytes = 64 * 1024;

// $SDK_TUNING_CACHE if set, else tuning.txt in the SDK's cache folder (sdk_cache_folder(), beside
// the program binaries); empty when none can be named.
std::filesystem::path tuning_cache_path();

// The device part of a key: platform, device and driver version, so that a driver update
// measures again.
std::string device_key(const cl::Device& device);

// The value stored under `key`, if the cache has one.
std::optional<std::string> read_tuning_entry(const std::filesystem::path& cache,
                                             const std::string& key);
// Replaces (or adds) the line for `key` through a temporary file renamed into place (a symbolic
// link is followed, and stays), and returns whether that really happened: false when the cache
// cannot be named or written, when its path holds something that is not a cache (a FIFO, a
// folder, a file over kMaxTuningCacheBytes or with a line that is not an entry, such as a photo
// the variable names by mistake: all left as they were), or when the key holds a tab or either
// holds a line break (the value may hold tabs). The oldest lines go first if the file
// would outgrow kMaxTuningCacheBytes.
bool write_tuning_entry(const std::filesystem::path& cache, const std::string& key,
                        const std::string& value);

// Which of the candidates is fastest depends on the image's size, not only on the device: an
// image whose input and outputs stay in the CPU's caches favours other kernels than one that
// streams from memory, and on a GPU a small image cannot fill the device. So tuning is per size
// class: images whose pixel count lies between the same two powers of two, 2^k <= pixels <
// 2^(k+1). Classes are by pixel count rather than by whether the image fits the device's cache
// (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE) because drivers report that size inconsistently (PoCL on the
// development VM says 32 MiB, which a 3264x2448 image's 24 MB of input and outputs "fit", yet
// that image ranked the kernels unlike a 2048x1024 one), and because a GPU's ranking changes
// with how many work-items fill it, which the pixel count also tells.
struct SizeClass {
    unsigned log2_pixels = 0;  // k: the class holds images of 2^k to 2^(k+1) - 1 pixels
};
// Below this, everything is one class: the kernels take microseconds and the launch decides.
constexpr unsigned kSmallestSizeClass = 16;  // 2^16 pixels, e.g. 256x256
// From this up, everything is one class, measured on this class's image, so that tuning stays
// short however large the image (see representative_size).
constexpr unsigned kLargestSizeClass = 24;  // 2^24 pixels, e.g. 4096x4096

SizeClass size_class_of(std::uint64_t width, std::uint64_t height);

struct ImageSize {
    std::size_t width = 0;
    std::size_t height = 0;
};
// The image a class is measured on: 4:3, with the pixel count half-way through the class
// (1.5 x 2^k), its width a multiple of 16 (whole vector tiles, like most photographs).
// kSmallestSizeClass gives 368x267, 2^22 (3264x2448 is in it) 2896x2172, kLargestSizeClass
// 5792x4345.
ImageSize representative_size(SizeClass size_class);

// The image a class is measured on when it is first seen: the image that will run, whose width
// and height decide how the work-groups tile it (PoCL, 512x512: fir_float's 128x1 groups were
// the fastest there and the slowest on the class's 720x546 representative, 0.16 against 0.58
// ms). Only the two catch-all classes, the smallest (where a launch decides) and the largest
// (where the image may be of any size: tuning stays short), are measured on their
// representative image. The choice is cached for the class: later images of it reuse it.
ImageSize tuning_size(std::size_t width, std::size_t height);

// "2^22-2^23 pixels" (the smallest class: "under 2^17 pixels", the largest: "2^24 pixels and
// more"), and the key part "pixels 2^22".
std::string describe(SizeClass size_class);
std::string key_part(SizeClass size_class);

// "32x8" -> {32, 8}: both at least 1 and the product at most `max_items`, checked without
// overflow (65536x65536 does not wrap to 0). Nothing for anything else.
std::optional<std::pair<std::size_t, std::size_t>> parse_work_group_shape(const std::string& text,
                                                                          std::uint64_t max_items);

}  // namespace sdk
