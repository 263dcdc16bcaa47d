// SPDX-License-Identifier: Apache-2.0
// The verdict line: names and medians in, one sentence out, fastest first.
#include "samples/app/verdict.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <stdexcept>

namespace sdk {
namespace {

TEST(Verdict, NamesTheFastestWithItsTimeAndTheOthersAsRatios)
{
    EXPECT_EQ(
        verdict_line("GPU A", {{"buffer 16x4", 0.451}, {"image", 0.533}, {"local memory", 0.41}}),
        "verdict on GPU A: local memory fastest (0.41 ms), buffer 16x4 1.1x, image 1.3x"
        " (medians, the variants launched in turns, device clock)");
}

TEST(Verdict, OneVariantIsStillAVerdict)
{
    EXPECT_EQ(verdict_line("CPU", {{"image", 12.5}}),
              "verdict on CPU: image fastest (12.50 ms)"
              " (medians, the variants launched in turns, device clock)");
}

TEST(Verdict, ShortTimesKeepTwoSignificantDigits)
{
    EXPECT_EQ(verdict_line("H100", {{"local memory", 0.0412}, {"image", 0.0824}}),
              "verdict on H100: local memory fastest (0.041 ms), image 2.0x"
              " (medians, the variants launched in turns, device clock)");
}

TEST(Verdict, ATieKeepsTheOrderGiven)
{
    EXPECT_EQ(verdict_line("d", {{"buffer 16x1", 1.0}, {"image", 1.0}, {"local memory", 0.5}}),
              "verdict on d: local memory fastest (0.50 ms), buffer 16x1 2.0x, image 2.0x"
              " (medians, the variants launched in turns, device clock)");
}

TEST(Verdict, RefusesWhatNoTimingGives)
{
    EXPECT_THROW(verdict_line("d", {}), std::invalid_argument);
    EXPECT_THROW(verdict_line("d", {{"image", 0.0}}), std::invalid_argument);
    EXPECT_THROW(verdict_line("d", {{"image", -1.0}, {"local memory", 1.0}}),
                 std::invalid_argument);
    EXPECT_THROW(verdict_line("d", {{"image", std::numeric_limits<double>::quiet_NaN()}}),
                 std::invalid_argument);
    EXPECT_THROW(verdict_line("d", {{"image", std::numeric_limits<double>::infinity()}}),
                 std::invalid_argument);
}

}  // namespace
}  // namespace sdk
