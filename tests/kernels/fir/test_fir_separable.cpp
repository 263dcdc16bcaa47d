// SPDX-License-Identifier: Apache-2.0
// Separable weights (a column times a row): found and refused, run as two passes or one kernel
// with the row sums in local memory, against the K*K reference on every size and border.
#include "fir_test_support.hpp"

#include "kernels/fir/fir_filter.hpp"
#include "kernels/fir/fir_reference.hpp"
#include "kernels/fir/fir_separable.hpp"
#include "kernels/fir/fir_tuning.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace sdk {
namespace {

using test::filter_for;
using test::outer_product;
using test::poisons;
using test::run_on_device;
using test::test_context;

// The separable paths (fir_rows then fir_columns; fir_separable_local) against the K*K
// reference: every size and border, awkward sizes, both poisons.
class FirSeparableTest : public ::testing::TestWithParam<std::tuple<int, Border>> {};

TEST_P(FirSeparableTest, MatchesTheFullWindowReference)
{
    const auto [size, border] = GetParam();
    std::vector<test::Size> sizes = test::awkward_sizes();
    if (test::small_sizes_only()) {
        if (size != 5) GTEST_SKIP() << "under oclgrind only 5x5 runs";
        sizes = {{17, 5}, {2, 3}};
    }
    // Two passes through global memory (buffer), and one kernel with the row sums in local
    // memory (local).
    for (const FirVariant variant : {FirVariant::buffer, FirVariant::local}) {
        FirFilter& filter = filter_for(border, MemoryMode::copy, size, variant);
        std::uint32_t seed = 9000 + 100 * static_cast<std::uint32_t>(size);
        for (const auto& image_size : sizes) {
            for (const float poison : poisons) {
                const Image image =
                    test::random_grey_image(image_size.width, image_size.height, seed);
                const FirCoefficients coefficients = outer_product(seed, size, seed % 2 == 0);
                ++seed;
                const std::vector<float> actual =
                    run_on_device(filter, coefficients, image, poison);
                ASSERT_TRUE(filter.separable()) << coefficients.to_string();
                ASSERT_LE(max_abs_difference(actual, fir_reference(image, coefficients, border)),
                          fir_tolerance(coefficients))
                    << fir_variant_name(variant) << " " << size << "x" << size << " at "
                    << test::size_name(image_size) << ", poison " << poison;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(EverySize, FirSeparableTest,
                         ::testing::Combine(::testing::Values(3, 5, 7, 15),
                                            ::testing::Values(Border::replicate, Border::reflect101,
                                                              Border::constant, Border::none)),
                         [](const auto& test_info) {
                             return std::to_string(std::get<0>(test_info.param)) + "x" +
                                    std::to_string(std::get<0>(test_info.param)) + "_" +
                                    border_name(std::get<1>(test_info.param));
                         });

// Separable weights take the two passes whichever variant the filter was made for: each
// variant's launch covers a different block of outputs per work-item, the passes' their own.
TEST(FirSeparable, RunsWhicheverVariantTheFilterWasMadeFor)
{
    for (const FirVariant variant : {FirVariant::buffer, FirVariant::local, FirVariant::image}) {
        if (!fir_variant_unavailable(test_context(), variant, 61, 17).empty()) continue;
        for (const int size : {7, 15}) {
            FirFilter& filter = filter_for(Border::reflect101, MemoryMode::copy, size, variant);
            for (const auto& image_size : std::vector<test::Size>{{61, 17}, {17, 5}}) {
                const Image image = test::random_grey_image(image_size.width, image_size.height, 5);
                const FirCoefficients coefficients = outer_product(31, size);
                const std::vector<float> actual =
                    run_on_device(filter, coefficients, image, poisons[1]);
                ASSERT_TRUE(filter.separable());
                EXPECT_LE(max_abs_difference(
                              actual, fir_reference(image, coefficients, Border::reflect101)),
                          fir_tolerance(coefficients))
                    << fir_variant_name(variant) << " " << size << "x" << size << " at "
                    << test::size_name(image_size);
            }
        }
    }
}

// The row pass writes every row sum the column pass reads: row sums poisoned before the run
// would otherwise reach the output.
TEST(FirSeparable, TheRowPassWritesEveryRowSumTheColumnPassReads)
{
    for (const Border border : {Border::reflect101, Border::none}) {
        FirFilter filter(test_context(), border, outer_product(21, 5), MemoryMode::copy);
        for (const auto& size : std::vector<test::Size>{{61, 17}, {17, 5}, {2, 3}}) {
            const Image image = test::random_grey_image(size.width, size.height, 21);
            filter.upload(image);
            ASSERT_TRUE(filter.row_sums_buffer()());
            const cl_float nan = std::numeric_limits<float>::quiet_NaN();
            test_context().queue.enqueueFillBuffer(
                filter.row_sums_buffer(), nan, 0,
                filter.float_pitch() * sizeof(cl_float) * size.height);
            filter.fill_output(poisons[1]);
            filter.run();
            EXPECT_LE(max_abs_difference(filter.download(),
                                         fir_reference(image, outer_product(21, 5), border)),
                      fir_tolerance(outer_product(21, 5)))
                << test::size_name(size) << " " << border_name(border);
        }
    }
}

TEST(FirSeparable, FindsTheFactorsOfAnOuterProduct)
{
    const FirCoefficients coefficients = outer_product(5, 7, true);
    const auto factors = separate(coefficients);
    ASSERT_TRUE(factors);
    ASSERT_EQ(factors->column.size(), 7u);
    ASSERT_EQ(factors->row.size(), 7u);
    for (int j = 0; j < 7; ++j)
        for (int i = 0; i < 7; ++i)
            EXPECT_NEAR(factors->column[static_cast<std::size_t>(j)] *
                            factors->row[static_cast<std::size_t>(i)],
                        coefficients.weight(j, i), 1e-12);
    EXPECT_EQ(describe_separable(15), "separable: 15x1 row pass then 1x15 column pass");
    EXPECT_EQ(describe_separable(15, true),
              "separable: 15x1 row sums into local memory, then 1x15 column sums, one kernel");
}

TEST(FirSeparable, RefusesWhatIsNotAColumnTimesARow)
{
    EXPECT_FALSE(separate(FirCoefficients{}));  // the tutorial's weights
    FirCoefficients zero = FirCoefficients{};
    zero.numerators.assign(9, 0.0);
    EXPECT_FALSE(separate(zero));
    // One weight changed by a millionth of itself: beyond float rounding, so rank 2.
    FirCoefficients nearly = outer_product(11, 5);
    nearly.numerators[13] *= 1 + 1e-6;
    EXPECT_FALSE(separate(nearly));
    // A zero weight where the product is not zero.
    FirCoefficients hole = outer_product(12, 5);
    hole.numerators[6] = 0;
    EXPECT_FALSE(separate(hole));
    // Changed by less than a float's rounding: still separable, the kernels cannot tell.
    FirCoefficients rounded = outer_product(13, 5);
    rounded.numerators[7] *= 1 + 1e-8;
    EXPECT_TRUE(separate(rounded));
}

// allow_separable(false) makes separable weights take the K*K kernel, and the result is the same
// within the tolerance: what the verdict and the tuner rely on.
TEST(FirSeparable, CanBeTurnedOffForTheFullWindow)
{
    FirFilter filter(test_context(), Border::reflect101, outer_product(3, 7), MemoryMode::copy,
                     FirVariant::local);
    const Image image = test::random_grey_image(35, 18, 3);
    const auto expected = fir_reference(image, outer_product(3, 7), Border::reflect101);
    filter.upload(image);
    EXPECT_TRUE(filter.separable());
    EXPECT_EQ(filter.describe_path(),
              "separable: 7x1 row sums into local memory, then 1x7 column sums, one kernel");
    filter.allow_separable(false);
    EXPECT_FALSE(filter.separable());
    EXPECT_EQ(filter.describe_path(), "local 7x7 pass");
    EXPECT_EQ(filter.bytes_moved(), 8u * 35 * 18);
    filter.fill_output(poisons[0]);
    filter.run();
    EXPECT_LE(max_abs_difference(filter.download(), expected), fir_tolerance(outer_product(3, 7)));
}

}  // namespace
}  // namespace sdk
