// SPDX-License-Identifier: Apache-2.0
// --compare's table (samples/app/compare.hpp): the speed-up over the first row, GB/s, and the
// share of the device copy's GB/s, from the medians and bytes it is given.
#include "samples/app/compare.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <stdexcept>

namespace sdk {
namespace {

TEST(Comparison, SpeedUpOverTheFirstRowAndShareOfTheCopy)
{
    std::ostringstream out;
    print_comparison(
        out, "device A", 64, 32, 7,
        {{"scalar", 3'000'000, 1.0}, {"vector", 3'000'000, 0.25}, {"device copy", 3'000'000, 0.1}});
    const std::string text = out.str();
    EXPECT_NE(text.find("Compared on device A, 64x32, 7 runs each, taking turns:"),
              std::string::npos)
        << text;
    // 3 MB in 1 ms is 3 GB/s, a tenth of the copy's 30; in 0.25 ms 12 GB/s, 40%, 4x the scalar's.
    EXPECT_NE(text.find("  scalar              1.000       1.0x      3.0             10%"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("  vector              0.250       4.0x     12.0             40%"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("  device copy         0.100          -     30.0            100%"),
              std::string::npos)
        << text;
}

TEST(Comparison, NeedsAKernelAndTheYardstick)
{
    std::ostringstream out;
    EXPECT_THROW(print_comparison(out, "d", 1, 1, 1, {{"device copy", 2, 1.0}}),
                 std::invalid_argument);
    EXPECT_EQ(compare_rounds(0), kDefaultCompareRounds);
    EXPECT_EQ(compare_rounds(5), 5u);
}

}  // namespace
}  // namespace sdk
