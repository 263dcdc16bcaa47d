// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/morphology/morphology_reference.hpp"
#include "common/imageio/image.hpp"

#include <cstddef>
#include <string>

namespace sdk {

// --roi "X,Y,W,H" in pixels; throws UsageError for anything else, or a zero width or height.
Roi parse_roi(const std::string& text);
// Throws UsageError when the region does not lie inside the image.
void check_roi_inside(const Roi& roi, const Image& image);
// The region a run processes in a `width` x `height` image: the whole image for an empty --roi,
// else parse_roi's, checked to lie inside.
Roi region_to_process(const std::string& text, std::size_t width, std::size_t height);

}  // namespace sdk
