// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/morphology/morphology_reference.hpp"
#include "common/imageio/image.hpp"

#include <string>

namespace sdk {

// --roi "X,Y,W,H" in pixels; throws UsageError for anything else, or a zero width or height.
Roi parse_roi(const std::string& text);
// Throws UsageError when the region does not lie inside the image.
void check_roi_inside(const Roi& roi, const Image& image);

}  // namespace sdk
