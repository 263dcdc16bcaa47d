// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/imageio/image.hpp"
#include "common/imageio/jpeg.hpp"

#include <cstddef>
#include <cstdint>

namespace sdk {

// The contract of jpeg_idct.cl: libjpeg-turbo's default inverse DCT (JDCT_ISLOW), so that the
// luminance made from a JPEG's coefficients is bit for bit what libjpeg's own decoding gives.
// It is the Loeffler-Ligtenberg-Moschytz factorisation of the 8-point IDCT (12 multiplications)
// in fixed point: the multipliers scaled by 2^13 (CONST_BITS), the first pass (columns) keeping 2
// more bits than it was given (PASS1_BITS), each pass rounding to nearest at its end, and the
// result offset by 128 and clamped to 0..255 the way libjpeg's range-limit table does.

// One 8x8 block: `coefficients` quantised, row by row, multiplied by `quantisation` (the same
// order); its 8 rows of 8 samples written `pitch` bytes apart from `out`.
void idct_islow_block(const std::int16_t* coefficients, const std::uint16_t* quantisation,
                      std::uint8_t* out, std::size_t pitch);

// The luminance (width x height, tight rows) of a whole plane, block by block.
Image luminance_from_coefficients(const JpegLuminanceCoefficients& plane);

// Both compute in 32-bit integers, as libjpeg-turbo's SIMD code does (its C code in 64 bits).
// No sum overflows while a block's dequantised coefficients add up, in magnitude, to at most
// 18434: 2^31 over the largest weight (116487) any of the second pass's sums gives one of them,
// less its rounding's share (the first pass's weights are smaller). Then the results equal
// libjpeg's. An encoder of 8-bit samples with 8-bit quantisers stays
// within kIdctExactBlockSum: the block's coefficients are an orthonormal transform of 64 samples
// of at most 128 (sum <= 8 x their root sum of squares <= 8 x 1024), each rounded by at most half
// its quantiser (64 x 127.5). A crafted file can hold larger ones: idct_exact_for tells whether
// every block of a plane is within, and the samples decode on the host any file where one is not.
constexpr std::int64_t kIdctExactBlockSum = 16384;
bool idct_exact_for(const JpegLuminanceCoefficients& plane);

}  // namespace sdk
