// SPDX-License-Identifier: Apache-2.0
// --roi X,Y,W,H: parsed strictly, and checked against the image before any work.
#include "samples/morphology_packed/roi_option.hpp"

#include "common/runtime/errors.hpp"

#include <gtest/gtest.h>

namespace sdk {
namespace {

TEST(RegionOption, ParsesFourNumbers)
{
    const Roi roi = parse_roi("3,0,10,2");
    EXPECT_EQ(roi.x, 3u);
    EXPECT_EQ(roi.y, 0u);
    EXPECT_EQ(roi.width, 10u);
    EXPECT_EQ(roi.height, 2u);
    EXPECT_EQ(roi_text(roi), "3,0,10,2");
    for (const char* text : {"", "1,2,3", "1,2,3,4,5", "1,2,,4", "a,1,1,1", "-1,0,1,1", "1,1,0,1",
                             "1,1,1,0", " 1,1,1,1", "1,1,1,1 ", "1,1,9999999999,1"})
        EXPECT_THROW(parse_roi(text), UsageError) << "'" << text << "'";
}

TEST(RegionOption, MustLieInsideTheImage)
{
    const Image image{8, 4, 1, std::vector<std::uint8_t>(32, 0)};
    EXPECT_NO_THROW(check_roi_inside({0, 0, 8, 4}, image));
    EXPECT_NO_THROW(check_roi_inside({7, 3, 1, 1}, image));
    EXPECT_THROW(check_roi_inside({7, 3, 2, 1}, image), UsageError);
    EXPECT_THROW(check_roi_inside({0, 4, 1, 1}, image), UsageError);
    EXPECT_THROW(check_roi_inside({8, 0, 1, 1}, image), UsageError);
}

TEST(RegionOption, NoneGivenIsTheWholeImage)
{
    EXPECT_EQ(roi_text(region_to_process("", 8, 4)), "0,0,8,4");
    EXPECT_EQ(roi_text(region_to_process("1,2,3,2", 8, 4)), "1,2,3,2");
    EXPECT_THROW(region_to_process("1,2,3,3", 8, 4), UsageError);
    EXPECT_THROW(region_to_process("1,2", 8, 4), UsageError);
}

}  // namespace
}  // namespace sdk
