// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <string>
#include <vector>

namespace sdk {

// The window sizes the kernels take: odd (the output sits at the window's centre), 3x3 up to
// 15x15, where the K*K loads per output already make the separable path (fir_separable.hpp)
// or a tile in local memory the only sensible way.
inline constexpr int kSmallestFirSize = 3;
inline constexpr int kLargestFirSize = 15;

// The weights of a KxK FIR filter, written as the user gives them: K*K numerators, row-major
// (row 0 applies to the top row of the window, column 0 to its left column), over one common
// divisor. The default is the Mali SDK tutorial's 3x3 [30 5 6; 19 30 9; 15 5 40] / 256.
struct FirCoefficients {
    int size = 3;  // K
    std::vector<double> numerators{30, 5, 6, 19, 30, 9, 15, 5, 40};
    double divisor = 256;

    // How far the window reaches from its centre: K / 2 (1 for 3x3).
    int radius() const { return size / 2; }
    // numerators[row * K + column] / divisor, in double: what the C++ reference multiplies by.
    double weight(int row, int column) const;
    // The same in float, row-major, what the kernels multiply by: one rounding per weight, so
    // at most 2^-24 relative, far inside the 1e-3 the kernels are tested to.
    std::vector<float> float_weights() const;
    // The sum of the K*K weights: above 1, a bright flat area comes out brighter than 255.
    double weight_sum() const;
    // "[30 5 6; 19 30 9; 15 5 40] / 256", for the sample's log (rows after the third elided
    // as "..." for K > 3, so the line stays a line).
    std::string to_string() const;
};

// The default numerators as --coefficients spells them; parsed over 256 they give
// FirCoefficients{}.
inline constexpr const char* kDefaultFirNumerators = "30,5,6,19,30,9,15,5,40";

// Throws UsageError unless `size` is an odd number from kSmallestFirSize to kLargestFirSize.
void check_fir_size(int size);

// Builds the coefficients from the command line's --size K, --coefficients "a,b,c,..." (K*K
// integers or decimals, negative allowed, spaces around each ignored) and --divisor. Throws
// UsageError naming the problem for a size check_fir_size refuses, a count other than K*K, an
// item that is not a finite number, a divisor that is zero or not finite, or weights whose output
// could overflow a float (largest_output).
FirCoefficients parse_fir_coefficients(const std::string& numerators, double divisor, int size = 3);

// The largest |output| the weights can give on 8-bit input: 255 x the sum of |weight| (as floats).
double largest_output(const FirCoefficients& coefficients);

// True when the weights sum to more than 1 (beyond float rounding): outputs may pass 255 and
// saturate in output.bmp. The sample warns but runs; a sharpening or edge filter may mean it.
bool may_saturate(const FirCoefficients& coefficients);

}  // namespace sdk
