// SPDX-License-Identifier: Apache-2.0
// --shape with --size WxH: the structuring element a command line names, and the sizes refused
// as usage errors.
#include "samples/morphology_packed/element_option.hpp"

#include "common/runtime/errors.hpp"

#include <gtest/gtest.h>

namespace sdk {
namespace {

TEST(ElementOption, SizedShapesTakeOddSizesFrom1To63)
{
    const StructuringElement rectangle = element_from_options(MorphologyShape::rectangle, "31x31");
    EXPECT_EQ(rectangle.shape, MorphologyShape::rectangle);
    EXPECT_EQ(rectangle.width, 31);
    EXPECT_EQ(rectangle.height, 31);
    const StructuringElement line = element_from_options(MorphologyShape::ellipse, "1x63");
    EXPECT_EQ(line.width, 1);
    EXPECT_EQ(line.height, 63);
    const StructuringElement unsized = element_from_options(MorphologyShape::cross, "");
    EXPECT_EQ(unsized.width, 3);
    EXPECT_EQ(unsized.height, 3);
}

TEST(ElementOption, EvenZeroTooLargeAndMalformedSizesAreUsageErrors)
{
    for (const char* size :
         {"4x3",   "3x4",  "0x3",  "3x0",  "65x3", "3x65", "64x64", "x3",  "3x",     "3",
          "3x3x3", " 3x3", "3x3 ", "+3x3", "-3x3", "3X3",  "3*3",   "abc", "1001x3", "0003x3"}) {
        try {
            element_from_options(MorphologyShape::ellipse, size);
            ADD_FAILURE() << "'" << size << "' accepted";
        } catch (const UsageError& error) {
            EXPECT_NE(std::string(error.what()).find("--size takes WxH"), std::string::npos)
                << error.what();
        }
    }
}

TEST(ElementOption, TheSquareAndDiamondRefuseASize)
{
    EXPECT_EQ(element_from_options(MorphologyShape::square, "").width, 3);
    EXPECT_EQ(element_from_options(MorphologyShape::diamond, "").width, 5);
    for (const MorphologyShape shape : {MorphologyShape::square, MorphologyShape::diamond})
        for (const char* size : {"3x3", "5x5", "31x31"})
            EXPECT_THROW(element_from_options(shape, size), UsageError) << size;
}

}  // namespace
}  // namespace sdk
