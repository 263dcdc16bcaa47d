// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/kernel_tuning.hpp"
#include "kernels/morphology/morphology_reference.hpp"
#include "common/runtime/device.hpp"

#include <string>

namespace sdk {

// morphology_packed's tuned choice is the work-group shape of its dilate and erode passes, the
// pipeline's costly steps (binarise-and-pack and unpack are a read and a write each, and keep
// 32x8). The rows per work-item stay what the structuring element builds in (ROWS_PER_ITEM,
// kernels/morphology/morphology_filter.cpp). The sample measures the shapes briefly with a
// dilation on a random image of the size class that will run, and remembers the winner per
// device, driver, structuring element and size class (kernels/kernel_tuning.hpp has the contest).
using MorphologyTuningResult = Tuned<WorkGroupShape>;

// The default 16x8 first, because a tie goes to the earliest.
std::vector<WorkGroupShape> morphology_candidates();

// The cache line's key: the filter, structuring element (it sets the rows per work-item and
// the reach; a rectangle, cross or ellipse with its size), size class and device. There is no
// border mode to tell apart.
std::string morphology_tuning_key(const std::string& device, const StructuringElement& element,
                                  SizeClass size_class);

MorphologyTuningResult choose_morphology_work_group(const OpenClContext& cl,
                                                    const StructuringElement& element,
                                                    std::size_t width, std::size_t height,
                                                    Tuning tuning = Tuning::use_cache,
                                                    const TuningAnnouncer& announce = {});

}  // namespace sdk
