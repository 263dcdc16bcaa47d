#pragma once

#include <array>
#include <string>

namespace sdk {

// The weights of a 3x3 FIR filter, written as the user gives them: nine numerators, row-major
// (row 0 applies to the row above the output pixel, column 0 to the pixel on its left), over one
// common divisor. The default is the Mali SDK tutorial's [30 5 6; 19 30 9; 15 5 40] / 256.
struct FirCoefficients {
    std::array<double, 9> numerators{30, 5, 6, 19, 30, 9, 15, 5, 40};
    double divisor = 256;

    // numerators[row * 3 + column] / divisor, in double: what the C++ reference multiplies by.
    double weight(int row, int column) const;
    // The same in float, what the kernel multiplies by: one rounding per weight, so at most
    // 2^-24 relative, far inside the 1e-3 the kernel is tested to.
    std::array<float, 9> float_weights() const;
    // The sum of the nine weights: above 1, a bright flat area comes out brighter than 255.
    double weight_sum() const;
    // "[30 5 6; 19 30 9; 15 5 40] / 256", for the sample's log.
    std::string to_string() const;
};

// The default numerators as --coefficients spells them; parsed over 256 they give FirCoefficients{}.
inline constexpr const char* kDefaultFirNumerators = "30,5,6,19,30,9,15,5,40";

// Builds the coefficients from the command line's --coefficients "a,b,c,d,e,f,g,h,i" (integers or
// decimals, negative allowed, spaces around each ignored) and --divisor. Throws UsageError naming
// the problem for a count other than nine, an item that is not a finite number, a divisor that
// is zero or not finite, or weights whose output could overflow a float (largest_output).
FirCoefficients parse_fir_coefficients(const std::string& numerators, double divisor);

// The largest |output| the weights can give on 8-bit input: 255 x the sum of |weight| (as floats).
double largest_output(const FirCoefficients& coefficients);

// True when the weights sum to more than 1 (beyond float rounding): outputs may pass 255 and
// saturate in output.bmp. The sample warns but runs; a sharpening or edge filter may mean it.
bool may_saturate(const FirCoefficients& coefficients);

}  // namespace sdk
