// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/imageio/image.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/transfers.hpp"

#include <cstddef>

namespace sdk {

// The 8-bit luminance a filter read (Sobel's, morphology_packed's), brought back from its device
// buffer `luminance` of `width` x `height` pixels, rows `row_pitch` bytes apart, as a host image
// with tight rows: what --verify checks the output against and --save-raw writes. Returns when
// the pixels are in host memory. (fir_float's luminance is float: FirFilter converts its own.)
Image download_luminance(const OpenClContext& cl, MemoryMode memory, const cl::Buffer& luminance,
                         std::size_t width, std::size_t height, std::size_t row_pitch);

}  // namespace sdk
