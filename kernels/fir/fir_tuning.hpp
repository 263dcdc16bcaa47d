// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/border.hpp"
#include "kernels/fir/fir_filter.hpp"
#include "kernels/kernel_tuning.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/profiling.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sdk {

// fir_float's choices for the K*K pass: where the pixels are read from (FirVariant) and the
// work-group shape (each work-item's four outputs along a row are the kernels' design). Which is
// fastest differs per device, image size and window: PoCL runs a group's items in one loop and
// likes wide one-row groups; a GPU wants enough groups to fill it; a 15x15 window reuses each
// pixel 25 times as often as a 3x3 one, which is what local memory and image caches are for.
// --variant auto measures the candidates briefly on an image of the size class that will run,
// and remembers the winner per device, driver, window size, border mode and size class
// (kernels/kernel_tuning.hpp has the contest). A shape of 0 x 0 is the variant's default
// (FirFilter's, which for the local variant fits the device's local memory).
using FirChoice = KernelChoice<FirVariant, FirVariant::buffer>;
std::string describe(const FirChoice& choice);  // "local, work-group 32x8"

// Every variant with every candidate shape, buffer < local < image and the default 32x8 first
// within each, because a tie goes to the earliest; the image kernel with 2-D shapes only (its
// cache likes 2-D blocks; on PoCL each of its runs is slow), and only where `images`.
std::vector<FirChoice> fir_candidates(bool images);

// What the weights make the filter run: the K*K kernel, or the separable path (two 1-D passes
// with the buffer variant, one kernel with the row sums in local memory with the local one).
enum class FirWeights { full_window, separable };

// The cache line's key: the filter, window size K and whether separable, the variants that
// competed, border mode (edge groups take the border's path), size class and device.
std::string fir_tuning_key(const std::string& device, Border border, int size, SizeClass size_class,
                           const std::vector<FirVariant>& variants,
                           FirWeights weights = FirWeights::full_window);

// What auto runs until its tuning has finished on this device: the buffer variant (two passes
// for separable weights), in one-row groups of 32 on a CPU and 32x8 on a GPU.
FirChoice default_fir_choice(const cl::Device& device);

using FirTuningResult = Tuned<FirChoice>;

// The choice for a KxK window (`size`) on an image of `width` x `height`: from the cache, or
// measured on a random image of that size (tuning_size; any weights that are not separable:
// their values do not change the work) and cached for its class. The image variant competes
// only where it reads the luminance buffer itself (kernels/sobel/sobel_tuning.cpp says why).
// With FirWeights::separable, the separable paths compete instead (buffer: two passes; local:
// one kernel), timed with a box blur's weights.
FirTuningResult choose_fir_kernel(const OpenClContext& cl, Border border, int size,
                                  std::size_t width, std::size_t height,
                                  Tuning tuning = Tuning::use_cache,
                                  FirWeights weights = FirWeights::full_window,
                                  const TuningAnnouncer& announce = {});

// Weights of `size` that no two 1-D passes can compute (numerators 1 .. K*K, rank 2): what the
// tuner, the verdict and the bench time the K*K kernels with.
FirCoefficients full_window_coefficients(int size);
// A KxK box blur (every weight 1 / K^2): the plainest separable weights, what the tuner times
// the separable paths with.
FirCoefficients separable_window_coefficients(int size);

// For fir_float -n's verdict: every K*K variant that runs here, each on a copy of the luminance
// `source` holds, in every candidate work-group shape it runs (or only in `shape`, given with
// --work-group), timed over `iterations` rounds after a warm-up, all taking turns; for each
// variant the median of its fastest shape, so that a variant is not judged in a shape that suits
// another (the local tile's time can differ by half between two shapes). The image variant's
// copy into its image is included where it needs one.
struct FirVariantMedian {
    FirVariant variant;
    double median_ms;
    WorkGroupShape shape;     // the shape of that median
    bool host_clock = false;  // the device reported no times (time_run)
};
// Empty where no variant runs the one `shape` asked for.
std::vector<FirVariantMedian> time_fir_variants(const OpenClContext& cl, Border border,
                                                const FirCoefficients& coefficients,
                                                const FirFilter& source, unsigned iterations,
                                                std::optional<WorkGroupShape> shape);

// fir_float --compare: the K*K pass from a buffer, local memory and (where the device has
// images) an image, each in its default shape on a copy of the luminance `source` holds, and
// last the device copying as many bytes (the yardstick), all timed `rounds` times taking turns.
std::vector<RunMedian> compare_fir_variants(const OpenClContext& cl, Border border,
                                            const FirCoefficients& coefficients,
                                            const FirFilter& source, unsigned rounds);

// How a verdict names a variant, by where its pixels come from: "buffer", "local memory", "image".
std::string memory_name(FirVariant variant);

}  // namespace sdk
