// SPDX-License-Identifier: Apache-2.0
#include "kernels/fir/fir_reference.hpp"

#include "kernels/fir/fir_separable.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace sdk {

std::vector<double> fir_reference(const Image& luminance, const FirCoefficients& coefficients,
                                  Border border)
{
    const auto width = static_cast<std::ptrdiff_t>(luminance.width);
    const auto height = static_cast<std::ptrdiff_t>(luminance.height);
    const int r = coefficients.radius();
    std::vector<double> result(luminance.pixels.size(), 0.0);

    // L(x, y) with the border's substitute outside the image.
    auto L = [&](std::ptrdiff_t x, std::ptrdiff_t y) {
        return pixel_with_border(luminance, x, y, border);
    };

    for (std::ptrdiff_t y = 0; y < height; ++y) {
        for (std::ptrdiff_t x = 0; x < width; ++x) {
            if (!computed_with_border(luminance, x, y, r, border)) continue;
            double sum = 0.0;
            for (int j = -r; j <= r; ++j)
                for (int i = -r; i <= r; ++i)
                    sum += coefficients.weight(j + r, i + r) * L(x + i, y + j);
            result[static_cast<std::size_t>(y * width + x)] = sum;
        }
    }
    return result;
}

double max_abs_difference(const std::vector<float>& actual, const std::vector<double>& expected)
{
    constexpr double infinity = std::numeric_limits<double>::infinity();
    if (actual.size() != expected.size()) return infinity;
    double largest = 0.0;
    for (std::size_t i = 0; i < actual.size(); ++i) {
        const double difference = std::abs(static_cast<double>(actual[i]) - expected[i]);
        // NaN compares false with everything: test for it, or a NaN pixel would look perfect.
        if (std::isnan(difference)) return infinity;
        largest = std::max(largest, difference);
    }
    return largest;
}

std::uint8_t to_8bit(double value)
{
    if (std::isnan(value)) return 0;
    return static_cast<std::uint8_t>(std::clamp(std::floor(value + 0.5), 0.0, 255.0));
}

std::vector<std::uint8_t> to_8bit(const std::vector<float>& values)
{
    std::vector<std::uint8_t> pixels(values.size());
    for (std::size_t i = 0; i < values.size(); ++i)
        pixels[i] = to_8bit(static_cast<double>(values[i]));
    return pixels;
}

double fir_tolerance(const FirCoefficients& coefficients)
{
    constexpr double kFloatRounding = 1.0 / (1 << 24);  // 2^-24, half a float's last digit
    const int k = coefficients.size;
    const int separable_roundings = separate(coefficients) ? 2 * k + 10 : 0;
    return kFirTolerance +
           (k * k + 1 + separable_roundings) * kFloatRounding * largest_output(coefficients);
}

}  // namespace sdk
