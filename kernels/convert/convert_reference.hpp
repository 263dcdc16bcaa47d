// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/imageio/bmp.hpp"
#include "common/imageio/image.hpp"

#include <cstdint>
#include <vector>

namespace sdk {

// The contracts of convert.cl, pixel by pixel.

// The luminance image (top-down, tight rows) of a BMP's pixel rows as stored, `layout` saying
// how (BmpStorage::bgr24 or grey8; std::invalid_argument otherwise). `rows` holds
// layout.stride * layout.height bytes. Equal to to_luminance(decode_bmp(file)).
Image luminance_from_bmp_rows(const std::uint8_t* rows, const BmpLayout& layout);

// An 8-bit image as the pixel rows of an 8-bit BMP: bottom row first, each padded with zeros to
// bmp_grey_stride(width) bytes. bmp_grey_header(w, h) followed by these is encode_bmp(image).
std::vector<std::uint8_t> bmp_rows_from_grey(const Image& grey);

}  // namespace sdk
