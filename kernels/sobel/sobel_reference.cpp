// SPDX-License-Identifier: Apache-2.0
#include "kernels/sobel/sobel_reference.hpp"

#include <cmath>
#include <cstdlib>

namespace sdk {

SobelGradients sobel_reference(const Image& luminance, Border border)
{
    const auto width = static_cast<std::ptrdiff_t>(luminance.width);
    const auto height = static_cast<std::ptrdiff_t>(luminance.height);
    SobelGradients result{std::vector<std::int8_t>(luminance.pixels.size(), 0),
                          std::vector<std::int8_t>(luminance.pixels.size(), 0)};

    // L(x, y) with the border's substitute outside the image.
    auto L = [&](std::ptrdiff_t x, std::ptrdiff_t y) {
        return pixel_with_border(luminance, x, y, border);
    };

    for (std::ptrdiff_t y = 0; y < height; ++y) {
        for (std::ptrdiff_t x = 0; x < width; ++x) {
            if (!computed_with_border(luminance, x, y, 1, border)) continue;
            const int gx = (L(x + 1, y - 1) + 2 * L(x + 1, y) + L(x + 1, y + 1)) -
                           (L(x - 1, y - 1) + 2 * L(x - 1, y) + L(x - 1, y + 1));
            const int gy = (L(x - 1, y - 1) + 2 * L(x, y - 1) + L(x + 1, y - 1)) -
                           (L(x - 1, y + 1) + 2 * L(x, y + 1) + L(x + 1, y + 1));
            // >> on a negative int is an arithmetic shift in C++20 and on every compiler we use;
            // floor division says the same thing without relying on it.
            const auto index = static_cast<std::size_t>(y * width + x);
            result.dx[index] = static_cast<std::int8_t>(gx >= 0 ? gx / 8 : -((-gx + 7) / 8));
            result.dy[index] = static_cast<std::int8_t>(gy >= 0 ? gy / 8 : -((-gy + 7) / 8));
        }
    }
    return result;
}

std::uint8_t gradient_magnitude(std::int8_t dx, std::int8_t dy)
{
    const int squared = dx * dx + dy * dy;
    int root = static_cast<int>(std::sqrt(static_cast<double>(squared)));
    while (root * root > squared) --root;
    while ((root + 1) * (root + 1) <= squared) ++root;
    return static_cast<std::uint8_t>(root);
}

std::vector<std::uint8_t> gradient_magnitude(const SobelGradients& gradients)
{
    std::vector<std::uint8_t> magnitude(gradients.dx.size());
    for (std::size_t i = 0; i < magnitude.size(); ++i)
        magnitude[i] = gradient_magnitude(gradients.dx[i], gradients.dy[i]);
    return magnitude;
}

std::vector<std::uint8_t> absolute_values(const std::vector<std::int8_t>& gradient)
{
    std::vector<std::uint8_t> result(gradient.size());
    for (std::size_t i = 0; i < gradient.size(); ++i)
        result[i] = static_cast<std::uint8_t>(std::abs(static_cast<int>(gradient[i])));
    return result;
}

}  // namespace sdk
