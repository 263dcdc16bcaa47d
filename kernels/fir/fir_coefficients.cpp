// SPDX-License-Identifier: Apache-2.0
#include "kernels/fir/fir_coefficients.hpp"

#include "common/runtime/errors.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <limits>
#include <sstream>
#include <vector>

namespace sdk {

double FirCoefficients::weight(int row, int column) const
{
    return numerators[static_cast<std::size_t>(row * size + column)] / divisor;
}

std::vector<float> FirCoefficients::float_weights() const
{
    std::vector<float> weights;
    for (int row = 0; row < size; ++row)
        for (int column = 0; column < size; ++column)
            weights.push_back(static_cast<float>(weight(row, column)));
    return weights;
}

double FirCoefficients::weight_sum() const
{
    double sum = 0;
    for (const double numerator : numerators) sum += numerator;
    return sum / divisor;
}

std::string FirCoefficients::to_string() const
{
    std::ostringstream text;
    const auto k = static_cast<std::size_t>(size);
    const std::size_t shown = std::min<std::size_t>(k, 3) * k;
    text << "[";
    for (std::size_t i = 0; i < shown; ++i)
        text << numerators[i] << (i + 1 == shown ? "" : i % k == k - 1 ? "; " : " ");
    text << (shown < numerators.size() ? "; ...] / " : "] / ") << divisor;
    return text.str();
}

namespace {

// The items between commas, empty ones included, so "1,,2" is caught as a missing number.
std::vector<std::string> split_at_commas(const std::string& text)
{
    std::vector<std::string> items;
    std::string::size_type start = 0;
    while (true) {
        const auto comma = text.find(',', start);
        items.push_back(text.substr(start, comma - start));
        if (comma == std::string::npos) return items;
        start = comma + 1;
    }
}

// A whole item as a finite number. from_chars, unlike strtod, ignores the locale (a German
// locale would otherwise read "0,5") and reports trailing junk such as "3x".
double parse_number(const std::string& item)
{
    const auto first = item.find_first_not_of(' ');
    const auto last = item.find_last_not_of(' ');
    double value = 0;
    if (first != std::string::npos) {
        const char* begin = item.data() + first;
        const char* end = item.data() + last + 1;
        const auto [stop, error] = std::from_chars(begin, end, value);
        if (error == std::errc() && stop == end && std::isfinite(value)) return value;
    }
    throw UsageError("--coefficients: '" + item + "' is not a number");
}

std::string short_number(double value)
{
    std::ostringstream text;
    text << std::setprecision(3) << value;
    return text.str();
}

}  // namespace

void check_fir_size(int size)
{
    if (size < kSmallestFirSize || size > kLargestFirSize || size % 2 == 0)
        throw UsageError("--size must be an odd number from " + std::to_string(kSmallestFirSize) +
                         " to " + std::to_string(kLargestFirSize) + ", got " +
                         std::to_string(size));
}

FirCoefficients parse_fir_coefficients(const std::string& numerators, double divisor, int size)
{
    check_fir_size(size);
    const std::vector<std::string> items = split_at_commas(numerators);
    const auto count = static_cast<std::size_t>(size * size);
    const std::string k = std::to_string(size);
    if (items.size() != count)
        throw UsageError("--coefficients takes " + std::to_string(count) +
                         " numbers separated by commas (row-major " + k + "x" + k + ", --size " +
                         k + "), got " + std::to_string(items.size()));
    if (divisor == 0 || !std::isfinite(divisor))
        throw UsageError("--divisor must be a non-zero number");

    FirCoefficients coefficients;
    coefficients.size = size;
    coefficients.numerators.clear();
    for (const auto& item : items) coefficients.numerators.push_back(parse_number(item));
    coefficients.divisor = divisor;
    // The kernel multiplies in float: a weight such as 1e300 / 1 would reach it as infinity.
    for (const float weight : coefficients.float_weights())
        if (!std::isfinite(weight))
            throw UsageError("--coefficients / --divisor: a weight of " + coefficients.to_string() +
                             " is too large for the kernel's float arithmetic");
    // Each weight may fit and their sum over a bright window still overflow to infinity.
    if (!(largest_output(coefficients) <= std::numeric_limits<float>::max()))
        throw UsageError("--coefficients / --divisor: " + coefficients.to_string() +
                         " can reach 255 x the sum of |weights| = " +
                         short_number(largest_output(coefficients)) +
                         ", beyond the largest float the kernel can hold");
    return coefficients;
}

double largest_output(const FirCoefficients& coefficients)
{
    double sum = 0;
    for (const float weight : coefficients.float_weights())
        sum += std::fabs(static_cast<double>(weight));
    return 255 * sum;
}

bool may_saturate(const FirCoefficients& coefficients)
{
    // Weights such as 1/3 + 1/3 + 1/3 sum to 1 only up to rounding: that is not a warning.
    return coefficients.weight_sum() > 1 + 1e-9;
}

}  // namespace sdk
