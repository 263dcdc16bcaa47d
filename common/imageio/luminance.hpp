// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "common/imageio/image.hpp"

#include <cstddef>
#include <cstdint>

namespace sdk {

// BT.601 luma in 15-bit fixed point, bit-exact with OpenCV's cvtColor(BGR2GRAY) so results can
// be checked against OpenCV. The weights sum to 2^15, so white stays 255 and nothing overflows.
inline std::uint8_t luminance(std::uint8_t r, std::uint8_t g, std::uint8_t b)
{
    constexpr std::uint32_t kRed = 9798;
    constexpr std::uint32_t kGreen = 19235;
    constexpr std::uint32_t kBlue = 3735;
    constexpr std::uint32_t kHalf = 1u << 14;  // rounds to nearest instead of truncating
    return static_cast<std::uint8_t>((kRed * r + kGreen * g + kBlue * b + kHalf) >> 15);
}

// luminance() of `width` RGB pixels into `width` grey ones.
void luminance_row(const std::uint8_t* rgb, std::uint8_t* grey, std::size_t width);

// Converts an RGB image to grey with luminance(); a grey image is returned as an unchanged copy.
// Throws std::invalid_argument for a channel count other than 1 or 3 or a pixel buffer whose
// size does not match the dimensions.
Image to_luminance(const Image& image);

}  // namespace sdk
