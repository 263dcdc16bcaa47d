// SPDX-License-Identifier: Apache-2.0
// The structuring elements as masks: OpenCV's ellipses from the fixture OpenCV wrote
// (opencv_ellipses.txt), its rectangles and crosses by their definition, the sizes refused, and
// the reference's dilation and erosion by a mask of any shape.
#include "kernels/morphology/morphology_reference.hpp"
#include "kernels/morphology/structuring_element.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace sdk {
namespace {

// Each row of `mask` as the width of its run of ones, which must be centred.
std::vector<int> run_widths(const Image& mask)
{
    std::vector<int> widths;
    for (const int reach : row_reaches(mask)) widths.push_back(2 * reach + 1);
    return widths;
}

TEST(OpenCvElements, EllipsesEqualTheOnesOpenCvWrote)
{
    std::ifstream fixture(SDK_OPENCV_ELLIPSES);
    ASSERT_TRUE(fixture) << SDK_OPENCV_ELLIPSES;
    int sizes = 0;
    for (std::string line; std::getline(fixture, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream fields(line);
        int width = 0, height = 0;
        fields >> width >> height;
        std::vector<int> expected;
        for (int run = 0; fields >> run;) expected.push_back(run);
        const Image mask = element_mask({MorphologyShape::ellipse, width, height});
        ASSERT_EQ(mask.width, static_cast<std::size_t>(width));
        ASSERT_EQ(mask.height, static_cast<std::size_t>(height));
        EXPECT_EQ(run_widths(mask), expected) << "ellipse " << width << "x" << height;
        ++sizes;
    }
    EXPECT_EQ(sizes, 81);  // every pair of 1, 3, 5, 7, 9, 15, 31, 33, 63
}

TEST(OpenCvElements, RectanglesAreFullAndCrossesTheCentreRowAndColumn)
{
    for (const int width : {1, 3, 9, 63})
        for (const int height : {1, 5, 63}) {
            const Image rectangle = element_mask({MorphologyShape::rectangle, width, height});
            EXPECT_EQ(rectangle.pixels,
                      std::vector<std::uint8_t>(static_cast<std::size_t>(width * height), 1));
            const Image cross = element_mask({MorphologyShape::cross, width, height});
            for (int y = 0; y < height; ++y)
                for (int x = 0; x < width; ++x)
                    EXPECT_EQ(cross.pixels[static_cast<std::size_t>(y * width + x)],
                              x == width / 2 || y == height / 2 ? 1 : 0)
                        << width << "x" << height << " at " << x << "," << y;
        }
}

TEST(OpenCvElements, AOneRowEllipseIsItsCentrePixel)
{
    // OpenCV's rule: the half-widths scale with sqrt(r^2 - dy^2) / r, which it takes as 0 when
    // the height's half r is 0. A 1x1 element of any shape is the rectangle, one pixel.
    const Image line = element_mask({MorphologyShape::ellipse, 63, 1});
    std::vector<std::uint8_t> centre(63, 0);
    centre[31] = 1;
    EXPECT_EQ(line.pixels, centre);
    for (const MorphologyShape shape :
         {MorphologyShape::rectangle, MorphologyShape::cross, MorphologyShape::ellipse})
        EXPECT_EQ(element_mask({shape, 1, 1}).pixels, std::vector<std::uint8_t>{1});
}

TEST(StructuringElements, SizesAreOddFrom1To63AndTheSquareAndDiamondKeepTheirs)
{
    for (const auto& [width, height] :
         {std::pair{2, 3}, {3, 2}, {0, 3}, {3, 0}, {65, 3}, {3, 65}, {-1, 3}, {64, 63}})
        EXPECT_THROW(StructuringElement(MorphologyShape::ellipse, width, height),
                     std::invalid_argument)
            << width << "x" << height;
    EXPECT_THROW(StructuringElement(MorphologyShape::square, 5, 5), std::invalid_argument);
    EXPECT_THROW(StructuringElement(MorphologyShape::diamond, 3, 3), std::invalid_argument);
    const StructuringElement square(MorphologyShape::square);
    EXPECT_EQ(square.width * square.height, 9);
    const StructuringElement diamond(MorphologyShape::diamond);
    EXPECT_EQ(diamond.width * diamond.height, 25);
    const StructuringElement rectangle(MorphologyShape::rectangle);
    EXPECT_EQ(rectangle.width * rectangle.height, 9);
    EXPECT_EQ(element_name(square), "square");
    EXPECT_EQ(element_name(diamond), "diamond");
    EXPECT_EQ(element_name({MorphologyShape::cross, 63, 1}), "cross 63x1");
}

TEST(StructuringElements, RowReachesRefuseRowsThatAreNotCentredRuns)
{
    EXPECT_EQ(row_reaches(element_mask(MorphologyShape::diamond)),
              (std::vector<int>{0, 1, 2, 1, 0}));
    const Image off_centre{3, 1, 1, {1, 1, 0}};
    EXPECT_THROW(row_reaches(off_centre), std::logic_error);
    const Image gap{5, 1, 1, {1, 0, 1, 0, 1}};
    EXPECT_THROW(row_reaches(gap), std::logic_error);
    const Image empty_row{3, 3, 1, {0, 1, 0, 0, 0, 0, 0, 1, 0}};
    EXPECT_THROW(row_reaches(empty_row), std::logic_error);
}

// The reference's convention, OpenCV's: the dilation at (x, y) is the OR of the pixels at
// (x + dx, y + dy) for the element's cells (dx, dy), the erosion their AND. A one-cell element
// off the centre shows which way round: the image moves against the offset.
TEST(MorphologyReferenceByMask, AnOffCentreCellShiftsTheImage)
{
    const Image right_neighbour{3, 1, 1, {0, 0, 1}};  // the cell (dx, dy) = (1, 0)
    const Image mask{4, 1, 1, {0, 1, 0, 0}};
    EXPECT_EQ(dilate_by_mask(mask, right_neighbour, whole_image(4, 1)).pixels,
              (std::vector<std::uint8_t>{1, 0, 0, 0}));
    // Outside the image counts as foreground for the erosion: the last pixel stays.
    const Image full_but_one{4, 1, 1, {1, 1, 0, 1}};
    EXPECT_EQ(erode_by_mask(full_but_one, right_neighbour, whole_image(4, 1)).pixels,
              (std::vector<std::uint8_t>{1, 0, 1, 1}));
    EXPECT_THROW(dilate_by_mask(mask, Image{2, 1, 1, {1, 1}}, whole_image(4, 1)),
                 std::invalid_argument);
}

}  // namespace
}  // namespace sdk
