// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/luminance.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace {

using sdk::Image;
using sdk::luminance;

// The fixed-point formula evaluated in 64-bit, with the rounding made explicit.
std::int64_t formula(std::int64_t r, std::int64_t g, std::int64_t b)
{
    return (9798 * r + 19235 * g + 3735 * b + 16384) >> 15;
}

// A second reference written differently: exact weighted sum in double (every value is an
// integer below 2^53, so nothing is lost), then OpenCV's round-half-up of the 2^15 scale.
int reference(int r, int g, int b)
{
    const double weighted = 9798.0 * r + 19235.0 * g + 3735.0 * b;
    return static_cast<int>(std::floor(weighted / 32768.0 + 0.5));
}

TEST(Luminance, BlackAndWhite)
{
    EXPECT_EQ(luminance(0, 0, 0), 0);
    EXPECT_EQ(luminance(255, 255, 255), 255);
}

TEST(Luminance, PrimaryColours)
{
    for (int level : {1, 2, 100, 128, 200, 254, 255}) {
        SCOPED_TRACE(level);
        const auto v = static_cast<std::uint8_t>(level);
        EXPECT_EQ(luminance(v, 0, 0), formula(level, 0, 0));
        EXPECT_EQ(luminance(0, v, 0), formula(0, level, 0));
        EXPECT_EQ(luminance(0, 0, v), formula(0, 0, level));
    }
    // Hand-computed: 255 * 9798 = 2498490, + 16384 = 2514874, >> 15 = 76 (and so on).
    EXPECT_EQ(luminance(255, 0, 0), 76);
    EXPECT_EQ(luminance(0, 255, 0), 150);
    EXPECT_EQ(luminance(0, 0, 255), 29);
}

TEST(Luminance, GreysStayTheSame)
{
    for (int level = 0; level < 256; ++level) {
        const auto v = static_cast<std::uint8_t>(level);
        EXPECT_EQ(luminance(v, v, v), level);
    }
}

TEST(Luminance, AllColoursMatchReference)
{
    const auto start = std::chrono::steady_clock::now();
    std::uint64_t mismatches = 0;
    for (int r = 0; r < 256; ++r) {
        for (int g = 0; g < 256; ++g) {
            for (int b = 0; b < 256; ++b) {
                const int actual =
                    luminance(static_cast<std::uint8_t>(r), static_cast<std::uint8_t>(g),
                              static_cast<std::uint8_t>(b));
                mismatches += actual != reference(r, g, b);
            }
        }
    }
    EXPECT_EQ(mismatches, 0u);
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    RecordProperty("seconds", std::to_string(seconds));
}

TEST(ToLuminance, ConvertsRgbPerPixel)
{
    const Image rgb{3,
                    2,
                    3,
                    {0, 0, 0, 255, 255, 255, 255, 0, 0,  //
                     0, 255, 0, 0, 0, 255, 12, 200, 77}};
    const Image grey = sdk::to_luminance(rgb);
    EXPECT_EQ(grey.width, 3u);
    EXPECT_EQ(grey.height, 2u);
    EXPECT_EQ(grey.channels, 1);
    EXPECT_EQ(grey.pixels,
              (std::vector<std::uint8_t>{0, 255, 76, 150, 29,
                                         static_cast<std::uint8_t>(formula(12, 200, 77))}));
}

TEST(ToLuminance, GreyPassesThroughUnchanged)
{
    const Image grey{2, 2, 1, {1, 2, 3, 250}};
    const Image result = sdk::to_luminance(grey);
    EXPECT_EQ(result.width, 2u);
    EXPECT_EQ(result.height, 2u);
    EXPECT_EQ(result.channels, 1);
    EXPECT_EQ(result.pixels, grey.pixels);
}

TEST(ToLuminance, EmptyImage)
{
    const Image result = sdk::to_luminance(Image{0, 0, 3, {}});
    EXPECT_EQ(result.channels, 1);
    EXPECT_TRUE(result.pixels.empty());
}

TEST(ToLuminance, RejectsInconsistentImages)
{
    EXPECT_THROW(sdk::to_luminance(Image{1, 1, 4, {1, 2, 3, 4}}), std::invalid_argument);
    EXPECT_THROW(sdk::to_luminance(Image{1, 1, 2, {1, 2}}), std::invalid_argument);
    EXPECT_THROW(sdk::to_luminance(Image{2, 1, 3, {1, 2, 3}}), std::invalid_argument);
    EXPECT_THROW(sdk::to_luminance(Image{1, 1, 3, {1, 2, 3, 4}}), std::invalid_argument);
    EXPECT_THROW(sdk::to_luminance(Image{1, 1, 1, {}}), std::invalid_argument);
}

}  // namespace
