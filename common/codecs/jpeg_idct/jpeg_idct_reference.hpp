// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/imageio/image.hpp"
#include "common/imageio/jpeg.hpp"

#include <cstddef>
#include <cstdint>

namespace sdk {

// The contract of jpeg_idct.cl: libjpeg-turbo's default inverse DCT (JDCT_ISLOW) as its SIMD
// code computes it on x86 (SSE2 and AVX2 alike), the code the host's libjpeg decodes with, so that
// the luminance made from a JPEG's coefficients is bit for bit what libjpeg's own decoding gives.
// It is the Loeffler-Ligtenberg-Moschytz factorisation of the 8-point IDCT (12 multiplications)
// in fixed point: the multipliers scaled by 2^13 (CONST_BITS), the first pass (columns) keeping 2
// more bits than it was given (PASS1_BITS), each pass rounding to nearest at its end. The SIMD
// code keeps its values in 16 bits between steps: the dequantised coefficients and the sums of
// two inputs wrap there, each pass's results saturate, and the result offset by 128 saturates to
// 0..255 (libjpeg's C code wraps it beyond +-512 instead, through its range-limit table).

// One 8x8 block: `coefficients` quantised, row by row, multiplied by `quantisation` (the same
// order); its 8 rows of 8 samples written `pitch` bytes apart from `out`.
void idct_islow_block(const std::int16_t* coefficients, const std::uint16_t* quantisation,
                      std::uint8_t* out, std::size_t pitch);

// The luminance (width x height, tight rows) of a whole plane, block by block.
Image luminance_from_coefficients(const JpegLuminanceCoefficients& plane);

// The blocks a crafted file may hold, far beyond what an encoder writes, are decoded on the host
// anyway: idct_exact_for tells whether every block of a plane is within kIdctExactBlockSum, the
// most that the dequantised coefficients of an encoder of 8-bit samples with 8-bit quantisers add
// up to, in magnitude: they are an orthonormal transform of 64 samples of at most 128 (sum <= 8 x
// their root sum of squares <= 8 x 1024), each rounded by at most half its quantiser (64 x 127.5).
// Within it no dequantised coefficient wraps, and the 32-bit sums stay far from overflowing.
constexpr std::int64_t kIdctExactBlockSum = 16384;
bool idct_exact_for(const JpegLuminanceCoefficients& plane);

}  // namespace sdk
