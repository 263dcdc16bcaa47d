// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/border.hpp"
#include "common/imageio/image.hpp"

#include <cstdint>
#include <vector>

namespace sdk {

// [Sobel contract]
// The Sobel contract, written as plainly as possible; every Sobel kernel is tested against it.
// On the luminance L (rows top-down):
//   gx = (L[y-1][x+1] + 2 L[y][x+1] + L[y+1][x+1]) - (L[y-1][x-1] + 2 L[y][x-1] + L[y+1][x-1])
//   gy = (L[y-1][x-1] + 2 L[y-1][x] + L[y-1][x+1]) - (L[y+1][x-1] + 2 L[y+1][x] + L[y+1][x+1])
//   dX = gx >> 3, dY = gy >> 3 (arithmetic shift), which always fit in a signed byte.
// Border::none computes only pixels whose 3x3 window lies inside; the others are 0.
// [Sobel contract]
struct SobelGradients {
    std::vector<std::int8_t> dx;
    std::vector<std::int8_t> dy;
};

SobelGradients sobel_reference(const Image& luminance, Border border);

// floor(sqrt(dX^2 + dY^2)), computed exactly in integers (at most 181).
std::uint8_t gradient_magnitude(std::int8_t dx, std::int8_t dy);
std::vector<std::uint8_t> gradient_magnitude(const SobelGradients& gradients);

// |dX| or |dY| as an 8-bit image (|-128| = 128 fits).
std::vector<std::uint8_t> absolute_values(const std::vector<std::int8_t>& gradient);

}  // namespace sdk
