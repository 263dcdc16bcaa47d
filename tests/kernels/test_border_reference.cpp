// SPDX-License-Identifier: Apache-2.0
// The border modes in C++ (kernels/border.hpp), the reference the kernels' edges are checked
// against, and the names options print (kernels/names.hpp). Host only.
#include "kernels/border.hpp"
#include "kernels/names.hpp"
#include "common/imageio/image.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sdk {
namespace {

TEST(BorderCoordinate, InsideIsUnchanged)
{
    for (const auto& [name, border] : border_names())
        for (std::ptrdiff_t i = 0; i < 5; ++i)
            EXPECT_EQ(border_coordinate(i, 5, border), i) << name;
}

TEST(BorderCoordinate, OneStepOutside)
{
    EXPECT_EQ(border_coordinate(-1, 5, Border::replicate), 0);
    EXPECT_EQ(border_coordinate(5, 5, Border::replicate), 4);
    EXPECT_EQ(border_coordinate(-1, 5, Border::reflect101), 1);
    EXPECT_EQ(border_coordinate(5, 5, Border::reflect101), 3);
    EXPECT_EQ(border_coordinate(-1, 5, Border::constant), -1);
    EXPECT_EQ(border_coordinate(5, 5, Border::none), -1);
}

TEST(BorderCoordinate, TinyAxes)
{
    EXPECT_EQ(border_coordinate(-1, 1, Border::reflect101), 0);
    EXPECT_EQ(border_coordinate(1, 1, Border::reflect101), 0);
    EXPECT_EQ(border_coordinate(-1, 2, Border::reflect101), 1);
    EXPECT_EQ(border_coordinate(2, 2, Border::reflect101), 0);
    EXPECT_EQ(border_coordinate(1, 1, Border::replicate), 0);
}

// Reads at i = -2, -1, n and n+1, the reach of a 5x5 window, on every mode and on axes down to
// one pixel; the expected values are worked out by hand (OpenCV's borderInterpolate agrees).
TEST(BorderCoordinate, ReachOneAndTwo)
{
    struct Case {
        std::ptrdiff_t n;
        Border border;
        std::array<std::ptrdiff_t, 4> expected;  // at -2, -1, n, n+1
    };
    const Case cases[] = {
        {1, Border::replicate, {0, 0, 0, 0}},    {1, Border::reflect101, {0, 0, 0, 0}},
        {2, Border::replicate, {0, 0, 1, 1}},    {2, Border::reflect101, {0, 1, 0, 1}},
        {3, Border::replicate, {0, 0, 2, 2}},    {3, Border::reflect101, {2, 1, 1, 0}},
        {5, Border::replicate, {0, 0, 4, 4}},    {5, Border::reflect101, {2, 1, 3, 2}},
        {1, Border::constant, {-1, -1, -1, -1}}, {1, Border::none, {-1, -1, -1, -1}},
        {2, Border::constant, {-1, -1, -1, -1}}, {2, Border::none, {-1, -1, -1, -1}},
        {3, Border::constant, {-1, -1, -1, -1}}, {3, Border::none, {-1, -1, -1, -1}},
        {5, Border::constant, {-1, -1, -1, -1}}, {5, Border::none, {-1, -1, -1, -1}},
    };
    for (const auto& c : cases) {
        const std::ptrdiff_t at[] = {-2, -1, c.n, c.n + 1};
        for (std::size_t k = 0; k < 4; ++k)
            EXPECT_EQ(border_coordinate(at[k], c.n, c.border), c.expected[k])
                << border_name(c.border) << " n=" << c.n << " i=" << at[k];
    }
}

// Reflect101 keeps mirroring however far out: on 3 pixels the reads run ... 2 1 0 1 2 1 0 ...
TEST(BorderCoordinate, ReflectionRepeats)
{
    const std::ptrdiff_t expected[] = {2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2};  // i = -6 .. 6
    for (std::ptrdiff_t i = -6; i <= 6; ++i)
        EXPECT_EQ(border_coordinate(i, 3, Border::reflect101), expected[i + 6]) << "i=" << i;
}

TEST(BorderNames, RoundTripAndBuildOption)
{
    for (const auto& [name, border] : border_names()) EXPECT_EQ(border_name(border), name);
    EXPECT_EQ(border_build_option(Border::replicate), "-DBORDER_REPLICATE");
    EXPECT_EQ(border_build_option(Border::reflect101), "-DBORDER_REFLECT101");
    EXPECT_EQ(border_build_option(Border::constant), "-DBORDER_CONSTANT");
    EXPECT_EQ(border_build_option(Border::none), "-DBORDER_NONE");
}

// Unknown values must not throw: names are only ever printed.
TEST(NameOf, FindsTheNameOrSaysUnknown)
{
    const std::map<std::string, int> names{{"one", 1}, {"two", 2}};
    EXPECT_EQ(name_of(names, 2), "two");
    EXPECT_EQ(name_of(names, 3), "unknown");
}

// The 3x2 image  1 2 3 / 4 5 6  read inside and one step outside in each mode.
TEST(PixelWithBorder, ReadsThroughTheBorder)
{
    const Image image{3, 2, 1, {1, 2, 3, 4, 5, 6}};
    for (const auto& [name, border] : border_names())
        EXPECT_EQ(pixel_with_border(image, 2, 1, border), 6) << name;
    EXPECT_EQ(pixel_with_border(image, -1, 0, Border::replicate), 1);
    EXPECT_EQ(pixel_with_border(image, 3, 2, Border::replicate), 6);
    EXPECT_EQ(pixel_with_border(image, -1, -1, Border::reflect101), 5);  // read at (1, 1)
    EXPECT_EQ(pixel_with_border(image, 3, 0, Border::reflect101), 2);    // read at (1, 0)
    EXPECT_EQ(pixel_with_border(image, -1, 0, Border::constant), 0);
    EXPECT_EQ(pixel_with_border(image, 0, 2, Border::none), 0);
}

TEST(ComputedWithBorder, OnlyNoneSkipsPixels)
{
    const Image image{4, 3, 1, std::vector<std::uint8_t>(12)};
    for (std::ptrdiff_t y = 0; y < 3; ++y) {
        for (std::ptrdiff_t x = 0; x < 4; ++x) {
            for (const auto& [name, border] : border_names()) {
                // Under none, a 3x3 window fits around (1, 1) and (2, 1) only, a 5x5 nowhere.
                const bool inside = y == 1 && (x == 1 || x == 2);
                EXPECT_EQ(computed_with_border(image, x, y, 1, border),
                          border != Border::none || inside)
                    << name << " at (" << x << ", " << y << ")";
                EXPECT_EQ(computed_with_border(image, x, y, 2, border), border != Border::none)
                    << name << " at (" << x << ", " << y << ")";
            }
        }
    }
}

}  // namespace
}  // namespace sdk
