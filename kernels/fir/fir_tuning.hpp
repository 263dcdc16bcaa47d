#pragma once
#include "kernels/border.hpp"
#include "kernels/kernel_tuning.hpp"
#include "common/runtime/device.hpp"

#include <string>

namespace sdk {

// fir_float's one real choice is its work-group shape (each work-item's four outputs along a
// row are the kernel's design, fixed in fir_float.cl). Which shape is fastest differs per device
// and image size: PoCL runs a group's items in one loop and likes wide one-row groups; a GPU
// wants enough groups to fill it. The sample measures the shapes briefly on an image of the
// size class that will run, and remembers the winner per device, driver, border mode and size
// class (kernels/kernel_tuning.hpp has the contest).
using FirTuningResult = Tuned<WorkGroupShape>;

// The default 32x8 first, because a tie goes to the earliest.
std::vector<WorkGroupShape> fir_candidates();

// The cache line's key: the filter, window size K (a 15x15 window reads 25 times the pixels a
// 3x3 does per output), border mode (edge groups take the border's path), size class and device.
std::string fir_tuning_key(const std::string& device, Border border, int size,
                           SizeClass size_class);

// The shape for a KxK window (`size`) on an image of `width` x `height`: from the cache, or
// measured on a random image of that size (tuning_size; any weights: they do not change the
// work) and cached for its class.
FirTuningResult choose_fir_work_group(const OpenClContext& cl, Border border, int size,
                                      std::size_t width, std::size_t height,
                                      Tuning tuning = Tuning::use_cache);

}  // namespace sdk
