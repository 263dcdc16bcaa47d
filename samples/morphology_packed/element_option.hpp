// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/morphology/morphology_reference.hpp"

#include <string>

namespace sdk {

// --shape and --size WxH: the structuring element a command line names. The rectangle, cross
// and ellipse take any odd W and H from 1 to 63, 3x3 when --size is not given. The square and
// the diamond have their own sizes (3x3, 5x5): a --size with them is refused, not ignored, so
// that "--shape square --size 31x31" cannot quietly run a 3x3. `size` is empty when not given.
// Throws UsageError naming the option.
StructuringElement element_from_options(MorphologyShape shape, const std::string& size);

}  // namespace sdk
