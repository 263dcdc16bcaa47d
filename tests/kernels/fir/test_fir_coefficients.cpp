// SPDX-License-Identifier: Apache-2.0
// The parsing of --coefficients, --divisor and --size: the tutorial's defaults, what is
// accepted and every usage error, and which weights may saturate.
#include "kernels/fir/fir_coefficients.hpp"
#include "common/runtime/errors.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

namespace sdk {
namespace {

TEST(FirCoefficients, SizeMustBeOddFromThreeToFifteen)
{
    for (const int size : {-3, 0, 1, 2, 4, 14, 16, 17})
        EXPECT_THROW(parse_fir_coefficients("1", 1, size), UsageError) << size;
    std::string numerators = "1";
    for (int i = 1; i < 15 * 15; ++i) numerators += ",1";
    const FirCoefficients largest = parse_fir_coefficients(numerators, 225, 15);
    EXPECT_EQ(largest.size, 15);
    EXPECT_EQ(largest.radius(), 7);
    EXPECT_EQ(largest.float_weights().size(), 225u);
    EXPECT_EQ(largest.to_string().substr(0, 10), "[1 1 1 1 1");
    EXPECT_NE(largest.to_string().find("; ...] / 225"), std::string::npos) << largest.to_string();
}

TEST(FirCoefficients, CountMustBeTheSizeSquaredAndTheErrorSaysSo)
{
    try {
        parse_fir_coefficients(kDefaultFirNumerators, 256, 5);
        FAIL() << "9 numbers accepted for 5x5";
    } catch (const UsageError& error) {
        EXPECT_STREQ(error.what(),
                     "--coefficients takes 25 numbers separated by commas "
                     "(row-major 5x5, --size 5), got 9");
    }
}

// --coefficients and --divisor.

TEST(FirCoefficients, DefaultsAreTheTutorials)
{
    const FirCoefficients parsed = parse_fir_coefficients(kDefaultFirNumerators, 256);
    EXPECT_EQ(parsed.numerators, FirCoefficients{}.numerators);
    EXPECT_EQ(parsed.divisor, 256);
    EXPECT_EQ(parsed.to_string(), "[30 5 6; 19 30 9; 15 5 40] / 256");
    EXPECT_DOUBLE_EQ(parsed.weight(0, 0), 30.0 / 256);  // row above, left
    EXPECT_DOUBLE_EQ(parsed.weight(2, 2), 40.0 / 256);  // row below, right
    EXPECT_FLOAT_EQ(parsed.float_weights()[5], 9.0f / 256);
    EXPECT_DOUBLE_EQ(parsed.weight_sum(), 159.0 / 256);
    EXPECT_FALSE(may_saturate(parsed));
}

TEST(FirCoefficients, AcceptsDecimalsNegativesAndSpaces)
{
    const FirCoefficients parsed = parse_fir_coefficients("-1.5, 0.25,3,-4,5,.5,-0,7e-1,8", -2);
    EXPECT_EQ(parsed.numerators, (std::vector<double>{-1.5, 0.25, 3, -4, 5, 0.5, 0, 0.7, 8}));
    EXPECT_EQ(parsed.divisor, -2);
    EXPECT_DOUBLE_EQ(parsed.weight(1, 0), 2.0);
    EXPECT_DOUBLE_EQ(parsed.weight(0, 1), -0.125);
}

TEST(FirCoefficients, WrongCountIsAUsageError)
{
    for (const char* text : {"", "1,2,3", "1,2,3,4,5,6,7,8", "1,2,3,4,5,6,7,8,9,10",
                             "1,2,3,4,5,6,7,8,9,", "1;2;3;4;5;6;7;8;9"})
        EXPECT_THROW(parse_fir_coefficients(text, 256), UsageError) << "'" << text << "'";
}

TEST(FirCoefficients, NonNumberIsAUsageError)
{
    for (const char* text : {"a,2,3,4,5,6,7,8,9", "1,2,3,4,5x,6,7,8,9", "1,,3,4,5,6,7,8,9",
                             "1,2,3,4,5,6,7,8, ", "1,2,3,4,5 6,7,8,9", "nan,2,3,4,5,6,7,8,9",
                             "1,2,3,4,inf,6,7,8,9", "0x10,2,3,4,5,6,7,8,9", "1,2,3,4,5,6,7,8,--9"})
        EXPECT_THROW(parse_fir_coefficients(text, 256), UsageError) << "'" << text << "'";
}

TEST(FirCoefficients, DivisorZeroIsAUsageError)
{
    EXPECT_THROW(parse_fir_coefficients(kDefaultFirNumerators, 0), UsageError);
    EXPECT_THROW(parse_fir_coefficients(kDefaultFirNumerators, -0.0), UsageError);
    EXPECT_THROW(
        parse_fir_coefficients(kDefaultFirNumerators, std::numeric_limits<double>::quiet_NaN()),
        UsageError);
    EXPECT_THROW(
        parse_fir_coefficients(kDefaultFirNumerators, std::numeric_limits<double>::infinity()),
        UsageError);
}

TEST(FirCoefficients, WeightTooLargeForFloatIsAUsageError)
{
    EXPECT_THROW(parse_fir_coefficients("1e300,0,0,0,0,0,0,0,0", 1), UsageError);
    EXPECT_THROW(parse_fir_coefficients("1,0,0,0,0,0,0,0,0", 1e-300), UsageError);
}

TEST(FirCoefficients, WeightsWhoseSumCanOverflowAFloatAreAUsageError)
{
    // Each weight fits a float (3.4e38); 255 x their sum over a white window does not.
    EXPECT_THROW(parse_fir_coefficients("1e36,1e36,1e36,1e36,1e36,1e36,1e36,1e36,1e36", 1),
                 UsageError);
    EXPECT_THROW(parse_fir_coefficients("-1e36,1e36,-1e36,1e36,-1e36,1e36,-1e36,1e36,-1e36", 1),
                 UsageError);  // signs do not help: the window may be white where they are positive
    EXPECT_NO_THROW(parse_fir_coefficients("1e35,0,0,0,0,0,0,0,0", 1));
    EXPECT_DOUBLE_EQ(largest_output(parse_fir_coefficients("1,-2,0,0,0,0,0,0,0", 1)), 255 * 3);
}

TEST(FirCoefficients, MaySaturateWhenTheWeightsSumAboveOne)
{
    EXPECT_TRUE(may_saturate(parse_fir_coefficients("0,0,0,0,1.1,0,0,0,0", 1)));
    EXPECT_TRUE(may_saturate(parse_fir_coefficients("1,1,1,1,1,1,1,1,1", 8)));
    EXPECT_FALSE(may_saturate(parse_fir_coefficients("1,1,1,1,1,1,1,1,1", 9)));
    EXPECT_FALSE(may_saturate(parse_fir_coefficients("1,1,1,0,0,0,0,0,0", 3)));
    // Sharpening sums to exactly 1: allowed without a warning.
    EXPECT_FALSE(may_saturate(parse_fir_coefficients("-1,-1,-1,-1,9,-1,-1,-1,-1", 1)));
}

}  // namespace
}  // namespace sdk
