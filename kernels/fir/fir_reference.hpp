// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/border.hpp"
#include "kernels/fir/fir_coefficients.hpp"
#include "common/imageio/image.hpp"

#include <cstdint>
#include <vector>

namespace sdk {

// [FIR contract]
// The FIR contract, written as plainly as possible; the fir_float kernel is tested against it.
// On the luminance L as numbers 0..255 (rows top-down), a KxK correlation centred on the pixel,
// r = K / 2 its radius:
//   out[y][x] = sum over j, i in {-r .. r} of weight(j + r, i + r) * L[y + j][x + i]
// so weight row 0 meets the row r above and column 0 the pixel r to the left. Computed in
// double; the kernels, in float, must come within fir_tolerance of it.
// Border::none computes only pixels whose KxK window lies inside; the others (those within r of
// an edge) are 0.
// [FIR contract]
std::vector<double> fir_reference(const Image& luminance, const FirCoefficients& coefficients,
                                  Border border);

// How far the device's float result may be from the reference, per pixel. The K*K float
// products round once each (together at most 2^-24 of the largest value a sum can reach,
// largest_output), the K*K - 1 sums once each (each at most that much), and each weight was
// rounded to float once: K*K + 1 roundings of that bound, plus a floor of kFirTolerance. For the
// default 3x3 weights that is 1.0944e-3; for nine weights of 1234.567 (outputs up to 2.8
// million, and separable: see below) it is 4.4: float keeps 7 digits, not 3 decimals. Separable
// weights (separate) may also run as two 1-D passes: each pass's K products, K - 1 sums and weight
// rounding (the row pass's errors scaled by the column weights, so both measured against
// largest_output), and the factors' 4 ulps each, add 2K + 10 roundings.
constexpr double kFirTolerance = 1e-3;
double fir_tolerance(const FirCoefficients& coefficients);

// The largest |actual - expected|; infinity when the sizes differ or any value is NaN, so a
// pixel the kernel never wrote (tests poison outputs with NaN) cannot pass.
double max_abs_difference(const std::vector<float>& actual, const std::vector<double>& expected);

// output.bmp's pixel: clamp(floor(value + 0.5), 0, 255), rounding halves up; NaN gives 0.
std::uint8_t to_8bit(double value);
std::vector<std::uint8_t> to_8bit(const std::vector<float>& values);

}  // namespace sdk
