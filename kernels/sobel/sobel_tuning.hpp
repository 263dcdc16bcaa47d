// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/device.hpp"
#include "common/runtime/profiling.hpp"
#include "kernels/border.hpp"
#include "kernels/kernel_tuning.hpp"
#include "kernels/sobel/sobel_filter.hpp"
#include "common/runtime/tuning_cache.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sdk {

// Which Sobel kernel and work-group shape are fastest differs per device (the Adreno post's
// question, "how many outputs per work-item?", has a different answer on every GPU) and per image
// size (cache-resident or streaming from memory; enough work-items to fill a GPU or not).
// --variant auto measures the candidates briefly on an image of the size class that will run,
// and remembers the winner per device, driver, border mode and size class.
using SobelChoice = KernelChoice<SobelVariant, SobelVariant::vector_16x1>;

std::string describe(const SobelChoice& choice);  // "16x4-packed, work-group 32x8"

// Every variant with every candidate work-group shape (the image kernel with 32x8 and 16x16
// only), simplest first (16x1 < 16x4 < 16x4-packed < local < image, and the default 32x8 before
// the other shapes of each), because a tie goes to the earliest. The packed kernel is left out
// on a big-endian device, which it does not support, and the image kernel where `images` is
// false: no images here (or none this large), or, for choose_sobel_kernel, none that can be a
// view of the buffer, so that each run would copy.
std::vector<SobelChoice> sobel_candidates(bool little_endian, bool images);

// What auto measures, in two stages: every variant of sobel_candidates in the default 32x8
// groups, then the fastest of them (`best`; before any measurement, the first) in its other
// shapes. A variant's speed depends on its shape far less than on the variant itself, so the
// best of every pair is found in 9 candidates rather than 24.
std::vector<std::vector<SobelChoice>> sobel_stages(bool little_endian, bool images,
                                                   const std::optional<SobelChoice>& best);

// What auto runs until its tuning has finished on this device: the 16x4-packed kernel (16x4 on a
// big-endian device), in one-row groups of 32 on a CPU and 32x4 on a GPU, the shapes that ran it
// fastest there (docs/performance.md#sobel-choices).
SobelChoice default_sobel_choice(const cl::Device& device);

// The cache line's key: the filter, the variants that competed, border mode (edge tiles take a
// slower path, whose cost depends on the mode), size class and device.
std::string sobel_tuning_key(const std::string& device, Border border, SizeClass size_class,
                             const std::vector<SobelVariant>& variants);

// The cached choice under `key`; nothing when the value does not parse (an unknown variant, a
// work-group shape that is zero or over 4096 items).
std::optional<SobelChoice> read_cached_choice(const std::filesystem::path& cache,
                                              const std::string& key);
bool write_cached_choice(const std::filesystem::path& cache, const std::string& key,
                         const SobelChoice& choice);

using TuningResult = Tuned<SobelChoice>;

// The choice for an image of `width` x `height`: from the cache, or measured (sobel_stages'
// candidates round-robin on a random image of that size (tuning_size), median of 5 rounds, a tie
// within 5% to the simpler, within the time budget `tuning` allows: kernels/kernel_tuning.hpp)
// and then cached. `announce` hears what is about to be measured.
TuningResult choose_sobel_kernel(const OpenClContext& cl, Border border, std::size_t width,
                                 std::size_t height, Tuning tuning = Tuning::use_cache,
                                 const TuningAnnouncer& announce = {});

// For sobel -n's verdict (samples/app/verdict.hpp): every variant the sample offers that runs
// here, timed over `iterations` rounds after a warm-up, the variants taking turns, each on a
// copy of the luminance `source` holds on the device, in work-groups of `shape` (--work-group's)
// where the variant takes it, else in the variant's default (32x8 within the kernel's limits).
// The image variant's time includes its copy into the image where each of its runs needs one.
struct VariantMedian {
    SobelVariant variant;
    double median_ms;
    bool host_clock = false;  // the device reported no times (time_run)
};
std::vector<VariantMedian> time_sobel_variants(const OpenClContext& cl, Border border,
                                               const SobelFilter& source, unsigned iterations,
                                               std::optional<WorkGroupShape> shape);

// sobel --compare, the Arm Mali SDK tutorials' table: the scalar kernel (sobel_no_vectors's), then
// every variant the sample offers that runs here, each in its default shape (32x8 within the
// kernel's limits) on a copy of the luminance `source` holds, and last the device copying as many
// bytes (the yardstick), all timed `rounds` times taking turns.
std::vector<RunMedian> compare_sobel_variants(const OpenClContext& cl, Border border,
                                              const SobelFilter& source, unsigned rounds);

// How a verdict names a variant, by where its pixels come from: "buffer 16x4", "local memory",
// "image".
std::string memory_name(SobelVariant variant);

}  // namespace sdk
