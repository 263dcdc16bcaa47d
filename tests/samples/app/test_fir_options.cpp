// SPDX-License-Identifier: Apache-2.0
// fir_float's weights from its options: parsed for --size, and a warning on the standard error
// (not a refusal) when they sum above 1, naming the output that may saturate.
#include "samples/app/fir_options.hpp"

#include "common/runtime/errors.hpp"

#include <gtest/gtest.h>

#include <string>

namespace sdk {
namespace {

TEST(FirOptions, CheckedCoefficientsWarnOnlyWhenTheWeightsSumAboveOne)
{
    FirOptions options;  // the tutorial's 3x3 weights over 256: they sum to 159/256
    testing::internal::CaptureStderr();
    const FirCoefficients tutorial = checked_coefficients(options, "out.bmp");
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(tutorial.radius(), 1);

    options.numerators = "1,1,1,1,1,1,1,1,1";
    options.divisor = 8;
    testing::internal::CaptureStderr();
    const FirCoefficients bright = checked_coefficients(options, "bright.png");
    const std::string warning = testing::internal::GetCapturedStderr();
    EXPECT_NE(warning.find("fir_float: warning: the weights sum to 1.125"), std::string::npos)
        << warning;
    EXPECT_NE(warning.find("saturate in bright.png"), std::string::npos) << warning;
    EXPECT_EQ(bright.radius(), 1);
}

TEST(FirOptions, CheckedCoefficientsRefuseAWrongCount)
{
    FirOptions options;
    options.size = 5;  // 25 numerators wanted, the default has 9
    EXPECT_THROW(checked_coefficients(options, "out.bmp"), UsageError);
}

}  // namespace
}  // namespace sdk
