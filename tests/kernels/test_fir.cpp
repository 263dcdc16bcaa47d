// SPDX-License-Identifier: Apache-2.0
// The fir_float kernel against the double-precision C++ reference on awkward sizes, every border,
// the tutorial's and random weights; known answers; the outputs module; and the parsing of
// --coefficients.
#include "kernels/fir/fir_coefficients.hpp"
#include "kernels/fir/fir_filter.hpp"
#include "kernels/fir/fir_outputs.hpp"
#include "kernels/fir/fir_reference.hpp"
#include "kernels/fir/fir_separable.hpp"
#include "kernels/fir/fir_tuning.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/kernel_args.hpp"
#include "common/runtime/program.hpp"
#include "common/runtime/transfers.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/npy.hpp"
#include "test_support.hpp"

#include <algorithm>
#include <gtest/gtest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <tuple>

namespace sdk {
namespace {

using test::test_context;

// NaN fails every comparison, and 1e30 is far from any output of 8-bit pixels: a pixel the kernel
// leaves unwritten shows up either way, and neither can pass by matching a plausible result.
const float poisons[] = {std::numeric_limits<float>::quiet_NaN(), 1e30f};

// Random numerators in [-128, 128] over 256 for a KxK window.
FirCoefficients random_coefficients(std::uint32_t seed, int size = 3);

// Building a program costs ~0.3 s on PoCL: keep one filter per border and window size; weights
// are arguments. Never destroyed: releasing OpenCL objects from static destructors at exit races
// the runtime's own teardown.
// Sets `choice`'s shape; false, having checked the reason, where the device cannot hold its
// tiles in local memory (32 KiB under oclgrind, as on many embedded GPUs) or the kernel cannot
// run that many work-items a group (a GPU's registers).
bool runs_here(FirFilter& filter, const FirChoice& choice)
{
    try {
        filter.set_work_group(choice.group_x, choice.group_y);
        return true;
    } catch (const UsageError& error) {
        const std::string message = error.what();
        EXPECT_TRUE(message.find("bytes of local memory") != std::string::npos ||
                    message.find("work-items a group") != std::string::npos)
            << message;
        return false;
    }
}

FirFilter& filter_for(Border border, MemoryMode memory = MemoryMode::copy, int size = 3,
                      FirVariant variant = FirVariant::buffer)
{
    static auto* filters =
        new std::map<std::tuple<Border, MemoryMode, int, FirVariant>, std::unique_ptr<FirFilter>>;
    auto& filter = (*filters)[{border, memory, size, variant}];
    if (!filter)
        filter = std::make_unique<FirFilter>(test_context(), border, random_coefficients(0, size),
                                             memory, variant);
    return *filter;
}

std::vector<float> run_on_device(FirFilter& filter, const FirCoefficients& coefficients,
                                 const Image& image, float poison)
{
    filter.set_coefficients(coefficients);
    filter.upload(image);
    filter.fill_output(poison);
    filter.run();
    return filter.download();
}

// Numerators anywhere in [-128, 128] over 256, decimals and negatives included, so that every
// weight position matters and sums run from negative to above 1.
FirCoefficients random_coefficients(std::uint32_t seed, int size)
{
    std::mt19937 generator(seed);
    std::uniform_real_distribution<double> numerator(-128.0, 128.0);
    FirCoefficients coefficients;
    coefficients.size = size;
    coefficients.numerators.resize(static_cast<std::size_t>(size * size));
    for (auto& value : coefficients.numerators) value = numerator(generator);
    return coefficients;
}

enum class Weights { tutorial, random };

class FirKernelTest
    : public ::testing::TestWithParam<std::tuple<Border, Weights, MemoryMode>> {};

TEST_P(FirKernelTest, MatchesReferenceOnAwkwardSizes)
{
    const auto [border, weights, memory] = GetParam();
    // The memory mode changes how the pixels cross, not the kernel: under oclgrind mapped and
    // pinned buffers cross with one border, every size and both weights, copies with them all.
    if (test::small_sizes_only() && memory != MemoryMode::copy && border != Border::replicate)
        GTEST_SKIP() << "under oclgrind, " << memory_mode_name(memory) << " runs with replicate";
    FirFilter& filter = filter_for(border, memory);
    std::uint32_t seed = 1;
    std::size_t turn = 0;  // under oclgrind one poison a size (all_or_one_in_turn)
    for (const auto& size : test::awkward_sizes()) {
        for (const float poison : test::all_or_one_in_turn(poisons, turn++)) {
            const Image image = test::random_grey_image(size.width, size.height, seed);
            const FirCoefficients coefficients =
                weights == Weights::random ? random_coefficients(seed) : FirCoefficients{};
            ++seed;
            const std::vector<double> expected = fir_reference(image, coefficients, border);
            const std::vector<float> actual = run_on_device(filter, coefficients, image, poison);
            ASSERT_LE(max_abs_difference(actual, expected), kFirTolerance)
                << "at " << test::size_name(size) << ", coefficients " << coefficients.to_string()
                << ", poison " << poison;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    AllBordersAndWeights, FirKernelTest,
    ::testing::Combine(::testing::Values(Border::replicate, Border::reflect101, Border::constant,
                                         Border::none),
                       ::testing::Values(Weights::tutorial, Weights::random),
                       ::testing::Values(MemoryMode::copy, MemoryMode::map, MemoryMode::pinned)),
    [](const auto& test_info) {
        std::string name = border_name(std::get<0>(test_info.param)) +
                           (std::get<1>(test_info.param) == Weights::random ? "_random"
                                                                            : "_tutorial") +
                           "_" + memory_mode_name(std::get<2>(test_info.param));
        for (auto& c : name)
            if (!isalnum(static_cast<unsigned char>(c))) c = '_';
        return name;
    });

// Every variant of the K*K pass, every window size the issue names and every border, on random
// weights that are not separable, awkward sizes and both poisons. Under oclgrind: 5x5 on 17x5
// and 2x3 only, and the image variant in its own test (tests/CMakeLists.txt).
class FirVariantTest : public ::testing::TestWithParam<std::tuple<FirVariant, int, Border>> {};

TEST_P(FirVariantTest, MatchesReferenceOnAwkwardSizes)
{
    const auto [variant, size, border] = GetParam();
    const std::string unavailable = fir_variant_unavailable(test_context(), variant, 1, 1);
    if (!unavailable.empty()) GTEST_SKIP() << unavailable;
    std::vector<test::Size> sizes = test::awkward_sizes();
    if (test::small_sizes_only()) {
        if (size != 5) GTEST_SKIP() << "under oclgrind only 5x5 runs";
        sizes = {{17, 5}, {2, 3}};
    }
    FirFilter& filter = filter_for(border, MemoryMode::copy, size, variant);
    std::uint32_t seed = 7000 + 100 * static_cast<std::uint32_t>(size);
    for (const auto& image_size : sizes) {
        for (const float poison : poisons) {
            const Image image = test::random_grey_image(image_size.width, image_size.height, seed);
            const FirCoefficients coefficients = random_coefficients(seed++, size);
            ASSERT_FALSE(separate(coefficients)) << "random weights are not a column times a row";
            const std::vector<float> actual = run_on_device(filter, coefficients, image, poison);
            ASSERT_FALSE(filter.separable());
            ASSERT_LE(max_abs_difference(actual, fir_reference(image, coefficients, border)),
                      fir_tolerance(coefficients))
                << fir_variant_name(variant) << " " << size << "x" << size << " at "
                << test::size_name(image_size) << ", poison " << poison;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    EveryVariant, FirVariantTest,
    ::testing::Combine(::testing::Values(FirVariant::buffer, FirVariant::local, FirVariant::image),
                       ::testing::Values(3, 5, 7, 15),
                       ::testing::Values(Border::replicate, Border::reflect101, Border::constant,
                                         Border::none)),
    [](const auto& test_info) {
        const int size = std::get<1>(test_info.param);
        return fir_variant_name(std::get<0>(test_info.param)) + "_" + std::to_string(size) + "x" +
               std::to_string(size) + "_" + border_name(std::get<2>(test_info.param));
    });

// A column times a row, each of random numbers (zeros among them where `with_zeros`), as the
// K*K numerators over 256.
FirCoefficients outer_product(std::uint32_t seed, int size, bool with_zeros = false)
{
    std::mt19937 generator(seed);
    std::uniform_real_distribution<double> factor(-4.0, 4.0);
    std::vector<double> column, row;
    for (int i = 0; i < size; ++i) {
        column.push_back(with_zeros && i % 3 == 0 ? 0.0 : factor(generator));
        row.push_back(with_zeros && i % 4 == 1 ? 0.0 : factor(generator));
    }
    FirCoefficients coefficients;
    coefficients.size = size;
    coefficients.numerators.clear();
    for (const double c : column)
        for (const double r : row) coefficients.numerators.push_back(c * r * 8);
    return coefficients;
}

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
                const std::vector<float> actual = run_on_device(filter, coefficients, image, poison);
                ASSERT_TRUE(filter.separable()) << coefficients.to_string();
                ASSERT_LE(max_abs_difference(actual, fir_reference(image, coefficients, border)),
                          fir_tolerance(coefficients))
                    << fir_variant_name(variant) << " " << size << "x" << size << " at "
                    << test::size_name(image_size) << ", poison " << poison;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    EverySize, FirSeparableTest,
    ::testing::Combine(::testing::Values(3, 5, 7, 15),
                       ::testing::Values(Border::replicate, Border::reflect101, Border::constant,
                                         Border::none)),
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
                EXPECT_LE(max_abs_difference(actual,
                                             fir_reference(image, coefficients, Border::reflect101)),
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
            test_context().queue.enqueueFillBuffer(filter.row_sums_buffer(), nan, 0,
                                                   filter.float_pitch() * sizeof(cl_float) *
                                                       size.height);
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

TEST(FirVariants, NamesRoundTripAndAnUnknownOneIsAUsageError)
{
    for (const auto variant : {FirVariant::buffer, FirVariant::local, FirVariant::image})
        EXPECT_EQ(fir_variant_named(fir_variant_name(variant)), variant);
    EXPECT_THROW(fir_variant_named("texture"), UsageError);
    EXPECT_EQ(memory_name(FirVariant::local), "local memory");
    EXPECT_EQ(memory_name(FirVariant::buffer), "buffer");
    EXPECT_EQ(memory_name(FirVariant::image), "image");
}

TEST(FirVariants, TheTableListsEveryVariantInTheEnumsOrder)
{
    // traits_of indexes the table by the enum's value.
    const std::vector<FirVariantTraits>& table = fir_variants();
    ASSERT_EQ(table.size(), 3u);
    for (std::size_t i = 0; i < table.size(); ++i) {
        EXPECT_EQ(static_cast<std::size_t>(table[i].variant), i);
        EXPECT_EQ(&traits_of(table[i].variant), &table[i]);
    }
    EXPECT_STREQ(traits_of(FirVariant::buffer).kernel_name_3x3, "fir_float");
    EXPECT_STREQ(traits_of(FirVariant::buffer).kernel_name, "fir_float_kxk");
    EXPECT_STREQ(traits_of(FirVariant::local).program_file, "fir_local.cl");
}

TEST(FirVariants, TheVerdictTimesEveryVariantThatRunsHere)
{
    FirFilter& source = filter_for(Border::replicate, MemoryMode::copy, 5);
    source.set_coefficients(random_coefficients(4, 5));
    source.upload(test::random_grey_image(40, 20, 4));
    const bool images = fir_variant_unavailable(test_context(), FirVariant::image, 40, 20).empty();
    // In the one shape asked for (--work-group), and each in its fastest of the candidates.
    // (16x2: 32 work-items, as many as rusticl's kernels run, and the local variant's tiles fit
    // in it where local memory is 32 KiB, as oclgrind's.)
    const auto in_16x2 = time_fir_variants(test_context(), Border::replicate,
                                           random_coefficients(4, 5), source, 2,
                                           WorkGroupShape{16, 2});
    const auto in_best = time_fir_variants(test_context(), Border::replicate,
                                           random_coefficients(4, 5), source, 2, std::nullopt);
    for (const auto* medians : {&in_16x2, &in_best}) {
        ASSERT_EQ(medians->size(), images ? 3u : 2u);
        EXPECT_EQ(medians->front().variant, FirVariant::buffer);
        EXPECT_EQ(medians->at(1).variant, FirVariant::local);
        for (const auto& median : *medians) EXPECT_GT(median.median_ms, 0.0);
    }
    for (const auto& median : in_16x2) {
        EXPECT_EQ(median.shape.x, 16u);
        EXPECT_EQ(median.shape.y, 2u);
    }
    // Each in a candidate's shape, as made to fit the kernel (rusticl's run 32 work-items a
    // group: 32x8 runs as 32x1 there).
    std::vector<FirChoice> candidates;
    for (const FirChoice& candidate : fir_candidates(images)) {
        FirFilter& filter = filter_for(Border::replicate, MemoryMode::copy, 5, candidate.variant);
        const WorkGroupShape runs = filter.fit_work_group(candidate.group_x, candidate.group_y);
        candidates.push_back({candidate.variant, runs.x, runs.y});
        filter.use_default_work_group();
    }
    for (const auto& median : in_best)
        EXPECT_TRUE(std::any_of(candidates.begin(), candidates.end(), [&](const FirChoice& c) {
            return c.variant == median.variant && c.group_x == median.shape.x &&
                   c.group_y == median.shape.y;
        })) << median.shape.x << "x" << median.shape.y;
    // A shape that no variant runs (more work-items than any device allows): nothing timed,
    // no exception.
    EXPECT_TRUE(time_fir_variants(test_context(), Border::replicate, random_coefficients(4, 5),
                                  source, 2, WorkGroupShape{4096, 4096})
                    .empty());
}

// A 5x5 window whose only weight is its top-left corner copies the pixel 2 up and 2 left: a
// known answer that fails if rows or columns are swapped or the window is off-centre, and with
// none, only the pixels 2 or more from every edge are computed.
TEST(FirReference, FiveByFiveCornerWeightShiftsTheImage)
{
    std::string numerators = "1";
    for (int i = 1; i < 25; ++i) numerators += ",0";
    const FirCoefficients corner = parse_fir_coefficients(numerators, 1, 5);
    const Image image = test::random_grey_image(9, 7, 3);
    for (const Border border : {Border::replicate, Border::none}) {
        const std::vector<double> shifted = fir_reference(image, corner, border);
        for (std::size_t y = 0; y < 7; ++y)
            for (std::size_t x = 0; x < 9; ++x) {
                const bool inside = x >= 2 && y >= 2 && x + 2 < 9 && y + 2 < 7;
                const double expected =
                    inside ? image.pixels[(y - 2) * 9 + x - 2]
                    : border == Border::none
                        ? 0.0
                        : image.pixels[(y < 2 ? 0 : y - 2) * 9 + (x < 2 ? 0 : x - 2)];
                EXPECT_EQ(shifted[y * 9 + x], expected) << x << "," << y << " " << border_name(border);
            }
    }
    EXPECT_EQ(max_abs_difference(run_on_device(filter_for(Border::none, MemoryMode::copy, 5),
                                               corner, image, poisons[0]),
                                 fir_reference(image, corner, Border::none)),
              0.0);
}

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
        EXPECT_STREQ(error.what(), "--coefficients takes 25 numbers separated by commas "
                                   "(row-major 5x5, --size 5), got 9");
    }
}

TEST(FirFilter, RefusesWeightsOfAnotherSize)
{
    EXPECT_THROW(filter_for(Border::replicate).set_coefficients(random_coefficients(1, 5)),
                 std::invalid_argument);
}

TEST(FirReference, ToleranceCountsEveryProductAndSumOfTheWindow)
{
    const FirCoefficients box = parse_fir_coefficients(
        [] {
            std::string text = "1";
            for (int i = 1; i < 49; ++i) text += ",1";
            return text;
        }(),
        49, 7);
    // 7x7: 49 products, 48 sums and the weights' rounding; largest output 255. A box is a
    // column times a row: the separable path's 2 * 7 + 10 roundings more.
    EXPECT_NEAR(fir_tolerance(box), kFirTolerance + (50 + 24) * 255.0 / (1 << 24), 1e-9);
    FirCoefficients not_separable = box;
    not_separable.numerators[0] = 2;
    EXPECT_NEAR(fir_tolerance(not_separable), kFirTolerance + 50 * (255.0 * 50 / 49) / (1 << 24),
                1e-9);
}

// docs/fir_float.md and index.md: the default weights verify within 1e-3 plus their rounding,
// printed as 0.00109, not 0.001.
TEST(FirReference, TheDefaultWeightsToleranceIsThePagesFigure)
{
    EXPECT_NEAR(fir_tolerance(FirCoefficients{}), 0.00109, 0.000005);
}

// The tutorial's 1-D example, [17 76 17 84 29] with [3 9 3] / 15, as a 3x3 filter whose only
// non-zero row is the middle one, on a 5x3 image whose rows all hold that sequence. Inside:
// 52.4, 42.2, 59.6. At the ends each border supplies a different neighbour, e.g. on the left
// replicate (17*3 + 17*9 + 76*3) / 15 = 28.8 and constant (0 + 17*9 + 76*3) / 15 = 25.4.
const Image tutorial_rows{5, 3, 1, {17, 76, 17, 84, 29, 17, 76, 17, 84, 29, 17, 76, 17, 84, 29}};

FirCoefficients tutorial_1d_weights()
{
    return parse_fir_coefficients("0,0,0,3,9,3,0,0,0", 15);
}

std::vector<double> three_rows_of(const std::vector<double>& row)
{
    std::vector<double> rows;
    for (int r = 0; r < 3; ++r) rows.insert(rows.end(), row.begin(), row.end());
    return rows;
}

const std::map<Border, std::vector<double>> tutorial_answers{
    {Border::replicate, three_rows_of({28.8, 52.4, 42.2, 59.6, 40.0})},
    {Border::reflect101, three_rows_of({40.6, 52.4, 42.2, 59.6, 51.0})},
    {Border::constant, three_rows_of({25.4, 52.4, 42.2, 59.6, 34.2})},
    // Only the middle row's interior has its whole window inside.
    {Border::none, {0, 0, 0, 0, 0, 0, 52.4, 42.2, 59.6, 0, 0, 0, 0, 0, 0}}};

void expect_near_each(const std::vector<double>& actual, const std::vector<double>& expected,
                      double tolerance, const std::string& what)
{
    ASSERT_EQ(actual.size(), expected.size()) << what;
    for (std::size_t i = 0; i < expected.size(); ++i)
        EXPECT_NEAR(actual[i], expected[i], tolerance) << what << ", pixel " << i;
}

std::vector<double> to_double(const std::vector<float>& values)
{
    return std::vector<double>(values.begin(), values.end());
}

// Every work-group shape the tuner may choose gives the reference's result on awkward sizes and
// every border: the shapes change which work-items share a group, and the partial groups at the
// right and bottom edges, never the output.
TEST(FirWorkGroups, EveryCandidateShapeMatchesReference)
{
    std::uint32_t seed = 500;
    const bool images = fir_variant_unavailable(test_context(), FirVariant::image, 1, 1).empty();
    for (const Border border :
         {Border::replicate, Border::reflect101, Border::constant, Border::none}) {
        for (const FirChoice& choice : fir_candidates(images)) {
            // Under oclgrind the image variant runs in its own test (tests/CMakeLists.txt).
            if (test::small_sizes_only() && choice.variant == FirVariant::image) continue;
            FirFilter& filter = filter_for(border, MemoryMode::copy, 3, choice.variant);
            // A shape the device cannot run is no candidate here, as the tuner leaves it out
            // (the next test checks the error that says so).
            if (!runs_here(filter, choice)) continue;
            filter.set_work_group(choice.group_x, choice.group_y);
            // The buffer variant's kernel uses no local memory, no barrier and no group id: under
            // oclgrind a shape can only add work-items past the edges, which return before any
            // access, so two sizes with partial groups across and down are enough there. The
            // local variant's tile follows the shape, and takes every size.
            const bool tile_follows_shape = choice.variant != FirVariant::buffer;
            const std::vector<test::Size> sizes =
                test::small_sizes_only() && !tile_follows_shape
                    ? std::vector<test::Size>{{47, 13}, {35, 18}}
                    : test::awkward_sizes();
            for (const auto& size : sizes) {
                const Image image = test::random_grey_image(size.width, size.height, seed);
                const FirCoefficients coefficients = random_coefficients(seed);
                const float poison = poisons[seed++ % 2];
                const std::vector<double> expected = fir_reference(image, coefficients, border);
                const std::vector<float> actual =
                    run_on_device(filter, coefficients, image, poison);
                EXPECT_EQ(filter.launch_size().local[0], choice.group_x);
                EXPECT_EQ(filter.launch_size().local[1], choice.group_y);
                ASSERT_LE(max_abs_difference(actual, expected), fir_tolerance(coefficients))
                    << describe(choice) << " at " << test::size_name(size) << ", border "
                    << border_name(border);
            }
            filter.use_default_work_group();  // for the other tests
        }
    }
}

TEST(FirWorkGroups, AShapeOverTheKernelsLimitIsAUsageErrorNamingIt)
{
    FirFilter& filter = filter_for(Border::replicate, MemoryMode::copy);
    // Twice the most work-items the device runs a group (PoCL 4096, Intel's CPU runtime 8192).
    const std::size_t widest = device_limits(test_context().device).max_work_group_size;
    try {
        filter.set_work_group(widest, 2);
        FAIL() << widest << "x2 accepted";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("the fir_float kernel runs at most"),
                  std::string::npos)
            << error.what();
    }
    EXPECT_THROW(filter.set_work_group(32, 0), UsageError);
    // What fit_work_group makes of the default runs as named (rusticl's kernels run 32
    // work-items a group: 32x8 is refused there).
    const WorkGroupShape fitted = filter.fit_work_group(32, 8);
    EXPECT_NO_THROW(filter.set_work_group(fitted.x, fitted.y));
    // The local variant's groups are 16 wide, and taller ones need more local memory: the
    // first 16-wide shape whose tiles outgrow it is refused, naming it (PoCL: 16x128, 1.2 MB
    // of 1 MiB; oclgrind: 16x2, 35 KB of 32 KiB), unless the kernel's work-item limit comes
    // first (a GPU's 48 KiB and 256 work-items at 15x15). Another width is refused too.
    FirFilter& local = filter_for(Border::replicate, MemoryMode::copy, 15, FirVariant::local);
    EXPECT_THROW(local.set_work_group(32, 8), UsageError);
    const auto most = device_limits(test_context().device).max_work_group_size;
    std::string refusal;
    for (std::size_t rows = 1; 16 * rows <= most && refusal.empty(); rows *= 2) {
        try {
            local.set_work_group(16, rows);
        } catch (const UsageError& error) {
            refusal = error.what();
        }
    }
    EXPECT_FALSE(refusal.empty()) << "every 16-wide shape up to " << most << " work-items fits";
    EXPECT_TRUE(refusal.find("bytes of local memory") != std::string::npos ||
                refusal.find("work-items a group") != std::string::npos)
        << refusal;
    local.use_default_work_group();
}

TEST(FirTuning, ASeparableRunIsTimedFromItsFirstPassToItsLast)
{
    // The contest's time for two passes must hold both (it once held the column pass alone,
    // and two passes beat one kernel that took less than both together).
    FirFilter filter(test_context(), Border::replicate, separable_window_coefficients(7));
    filter.upload(test::random_grey_image(300, 200, 9));
    filter.run().wait();
    const std::vector<cl::Event>& passes = filter.last_run_events();
    ASSERT_EQ(passes.size(), 2u);
    const double each = event_times(passes.front()).run_ms + event_times(passes.back()).run_ms;
    EXPECT_GE(run_span_ms(LaunchedRun(passes.front(), passes.back())), each * 0.999);
    EXPECT_DOUBLE_EQ(run_span_ms(LaunchedRun(passes.back())), event_times(passes.back()).run_ms);
}

TEST(FirTuning, MeasuresPerBorderAndSizeThenAnswersFromTheCache)
{
    const auto folder = std::filesystem::temp_directory_path() /
                        ("sdk-fir-tuning-" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    ::setenv("SDK_TUNING_CACHE", (folder / "tuning.txt").c_str(), 1);
    const auto measured =
        choose_fir_kernel(test_context(), Border::replicate, 3, 200, 100, Tuning::finish);
    EXPECT_FALSE(measured.from_cache);
    EXPECT_TRUE(measured.cached);
    EXPECT_TRUE(measured.finished());
    ASSERT_EQ(measured.candidates.size(), measured.contest.median_ms.size());
    EXPECT_GT(measured.contest.median_ms[measured.contest.winner], 0.0);
    // Another size of the class, as wide: whether the image variant competes depends on the
    // width's row pitch on some devices (Intel's CPU runtime), and it is named in the key.
    const auto cached = choose_fir_kernel(test_context(), Border::replicate, 3, 200, 300);
    EXPECT_TRUE(cached.from_cache);
    EXPECT_EQ(describe(cached.choice), describe(measured.choice));
    EXPECT_FALSE(choose_fir_kernel(test_context(), Border::none, 3, 256, 256).from_cache);
    EXPECT_FALSE(choose_fir_kernel(test_context(), Border::replicate, 5, 256, 256).from_cache);
    EXPECT_FALSE(choose_fir_kernel(test_context(), Border::replicate, 3, 256, 256, Tuning::retune)
                     .from_cache);
    ::unsetenv("SDK_TUNING_CACHE");
    std::filesystem::remove_all(folder);
}

// Separable weights: the two passes (buffer) against the one kernel (local), no image variant
// (its separable path is the buffer's), tuned and cached apart from the K*K contest of the same
// window.
TEST(FirTuning, SeparableWeightsTuneTheirOwnPaths)
{
    const auto folder = std::filesystem::temp_directory_path() /
                        ("sdk-fir-separable-tuning-" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    ::setenv("SDK_TUNING_CACHE", (folder / "tuning.txt").c_str(), 1);
    const auto separable = choose_fir_kernel(test_context(), Border::replicate, 7, 200, 100,
                                             Tuning::finish, FirWeights::separable);
    EXPECT_FALSE(separable.from_cache);
    EXPECT_NE(separable.choice.variant, FirVariant::image);
    // The cache line's key names the variants that competed: buffer and local.
    EXPECT_TRUE(read_tuning_entry(
        folder / "tuning.txt",
        fir_tuning_key(device_key(test_context().device), Border::replicate, 7,
                       separable.size_class, {FirVariant::buffer, FirVariant::local},
                       FirWeights::separable)));
    EXPECT_TRUE(choose_fir_kernel(test_context(), Border::replicate, 7, 256, 256,
                                  Tuning::use_cache, FirWeights::separable)
                    .from_cache);
    EXPECT_FALSE(choose_fir_kernel(test_context(), Border::replicate, 7, 256, 256, Tuning::finish)
                     .from_cache);
    ::unsetenv("SDK_TUNING_CACHE");
    std::filesystem::remove_all(folder);
}

TEST(FirTuning, CandidatesPutTheDefaultFirstAndTheImageOnlyWhereAsked)
{
    const auto with_images = fir_candidates(true);
    const auto without = fir_candidates(false);
    ASSERT_FALSE(without.empty());
    EXPECT_EQ(describe(without.front()), "buffer, work-group 32x8");
    for (const auto& choice : without) EXPECT_NE(choice.variant, FirVariant::image);
    EXPECT_GT(with_images.size(), without.size());
    EXPECT_EQ(with_images.back().variant, FirVariant::image);
}

TEST(FirTuning, KeysTellWindowSizesAndVariantsApart)
{
    const std::vector<FirVariant> both{FirVariant::buffer, FirVariant::local};
    const std::string key = fir_tuning_key("device A", Border::replicate, 3, SizeClass{22}, both);
    EXPECT_EQ(key, "fir_float | 3x3 | variants buffer local | border replicate | pixels 2^22 | "
                   "device A");
    EXPECT_NE(key, fir_tuning_key("device A", Border::replicate, 15, SizeClass{22}, both));
    EXPECT_NE(key, fir_tuning_key("device A", Border::replicate, 3, SizeClass{22},
                                  {FirVariant::buffer, FirVariant::local, FirVariant::image}));
}

TEST(FirReference, KnownAnswerFromTheTutorial)
{
    for (const auto& [border, expected] : tutorial_answers)
        expect_near_each(fir_reference(tutorial_rows, tutorial_1d_weights(), border), expected,
                         1e-12, border_name(border));
}

TEST(FirKernel, KnownAnswerFromTheTutorialOnTheDevice)
{
    for (const auto& [border, expected] : tutorial_answers)
        for (const float poison : poisons)
            expect_near_each(to_double(run_on_device(filter_for(border), tutorial_1d_weights(),
                                                     tutorial_rows, poison)),
                             expected, kFirTolerance, border_name(border));
}

// A single bright pixel picks out each weight: a correlation centred on the output pixel gives
// out[y + j][x + i] = weight(1 - j, 1 - i) * 100 around it, the weights turned by 180 degrees.
// A convolution would not turn them, and the tutorial's kernel would shift them up and left.
// 12x5 puts the impulse under an interior work-item (columns 4..7) as well as edge ones.
TEST(FirKernel, CorrelationCentredOnThePixel)
{
    Image impulse{12, 5, 1, std::vector<std::uint8_t>(60, 0)};
    impulse.pixels[2 * 12 + 6] = 100;
    const FirCoefficients weights = parse_fir_coefficients("1,2,3,4,5,6,7,8,9", 1);
    std::vector<double> expected(60, 0.0);
    for (int j = -1; j <= 1; ++j)
        for (int i = -1; i <= 1; ++i)
            expected[static_cast<std::size_t>((2 + j) * 12 + 6 + i)] =
                100.0 * weights.weight(1 - j, 1 - i);
    for (const Border border : {Border::replicate, Border::reflect101, Border::constant,
                                Border::none}) {
        expect_near_each(fir_reference(impulse, weights, border), expected, 1e-12,
                         "reference, " + border_name(border));
        expect_near_each(
            to_double(run_on_device(filter_for(border), weights, impulse, poisons[0])), expected,
            kFirTolerance, "device, " + border_name(border));
    }
}

// The tutorial's 3x3 kernel builds from fir_float.cl with no -DRADIUS (only the border's option,
// which every filter needs), as a reader trying the file they read would build it: the KxK kernel
// and fir_window.cl, which need the radius, are left out, and fir_float gives the reference's
// result, its arguments bound by hand as the page lists them.
TEST(FirKernel, TheThreeByThreeKernelBuildsWithoutTheRadius)
{
    const OpenClContext& cl = test_context();
    const Image image = test::random_grey_image(13, 6, 97);
    const FirCoefficients coefficients = random_coefficients(8);
    const std::vector<float> weights = coefficients.float_weights();
    const int pitch = 16;  // floats: rows start 64 bytes apart, as the filter lays them out
    std::vector<float> luminance(pitch * image.height, 0.0f);
    for (std::size_t y = 0; y < image.height; ++y)
        for (std::size_t x = 0; x < image.width; ++x)
            luminance[y * pitch + x] = image.pixels[y * image.width + x];
    const std::size_t bytes = luminance.size() * sizeof(float);
    for (const Border border : {Border::replicate, Border::reflect101, Border::constant,
                                Border::none}) {
        SCOPED_TRACE(border_name(border));
        const cl::Program program = build_program(cl, "fir_float.cl", border_build_option(border));
        EXPECT_EQ(program.getInfo<CL_PROGRAM_KERNEL_NAMES>(), "fir_float");
        cl::Kernel kernel = create_kernel(program, "fir_float");
        cl::Buffer input(cl.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                         luminance.data());
        std::vector<float> poisoned(luminance.size(), poisons[0]);
        cl::Buffer output(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes,
                          poisoned.data());
        set_args(kernel, input, static_cast<cl_int>(image.width), static_cast<cl_int>(image.height),
                 cl_int{pitch}, cl_float4{{weights[0], weights[1], weights[2], 0.0f}},
                 cl_float4{{weights[3], weights[4], weights[5], 0.0f}},
                 cl_float4{{weights[6], weights[7], weights[8], 0.0f}}, output);
        // One work-item per 4 outputs of a row.
        cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange,
                                      cl::NDRange((image.width + 3) / 4, image.height));
        std::vector<float> result(luminance.size());
        cl.queue.enqueueReadBuffer(output, CL_TRUE, 0, bytes, result.data());
        std::vector<float> pixels;
        for (std::size_t y = 0; y < image.height; ++y)
            pixels.insert(pixels.end(), result.begin() + y * pitch,
                          result.begin() + y * pitch + image.width);
        EXPECT_LE(max_abs_difference(pixels, fir_reference(image, coefficients, border)),
                  kFirTolerance);
    }
}

TEST(FirKernel, NewWeightsNeedNoRebuild)
{
    const Image image = test::random_grey_image(37, 11, 99);
    FirFilter& filter = filter_for(Border::reflect101);
    for (std::uint32_t seed = 1; seed <= 3; ++seed) {
        const FirCoefficients coefficients = random_coefficients(seed);
        EXPECT_LE(max_abs_difference(run_on_device(filter, coefficients, image, poisons[1]),
                                     fir_reference(image, coefficients, Border::reflect101)),
                  kFirTolerance);
    }
}

// Weights set after the upload reach the kernel too: set_coefficients rebinds the arguments.
TEST(FirKernel, NewWeightsNeedNoNewUpload)
{
    const Image image = test::random_grey_image(37, 11, 98);
    FirFilter& filter = filter_for(Border::replicate);
    filter.upload(image);
    for (std::uint32_t seed = 4; seed <= 6; ++seed) {
        const FirCoefficients coefficients = random_coefficients(seed);
        filter.set_coefficients(coefficients);
        filter.fill_output(poisons[0]);
        filter.run();
        EXPECT_LE(max_abs_difference(filter.download(),
                                     fir_reference(image, coefficients, Border::replicate)),
                  kFirTolerance);
    }
}

TEST(FirFilter, LaunchesOneWorkItemPerFourOutputsAndMovesEightBytesPerPixel)
{
    FirFilter& filter = filter_for(Border::replicate);
    filter.upload(test::random_grey_image(17, 5, 1));
    EXPECT_GE(filter.launch_size().global[0], 5u);  // ceil(17 / 4)
    EXPECT_LT(filter.launch_size().global[0], 5u + filter.launch_size().local[0]);
    EXPECT_GE(filter.launch_size().global[1], 5u);
    EXPECT_EQ(filter.bytes_moved(), 8u * 17 * 5);
}

TEST(FirFilter, RefusesAnImageLargerThanTheKernelsAddress)
{
    // Not allocated on the host: the size check comes before any buffer.
    Image huge{1, 1, 1, {0}};
    huge.width = 1u << 15;
    huge.height = 1u << 16;  // 2^31 pixels: past what the kernels address
    EXPECT_THROW(filter_for(Border::replicate).upload(huge), std::runtime_error);
}

TEST(FirFilter, RefusesAColourImage)
{
    const Image rgb{2, 2, 3, std::vector<std::uint8_t>(12, 0)};
    EXPECT_THROW(filter_for(Border::replicate).upload(rgb), std::invalid_argument);
}

TEST(FirReference, ToEightBitRoundsHalvesUpAndClamps)
{
    EXPECT_EQ(to_8bit(0.0), 0);
    EXPECT_EQ(to_8bit(0.49), 0);
    EXPECT_EQ(to_8bit(0.5), 1);
    EXPECT_EQ(to_8bit(52.4), 52);
    EXPECT_EQ(to_8bit(59.6), 60);
    EXPECT_EQ(to_8bit(254.5), 255);
    EXPECT_EQ(to_8bit(255.49), 255);
    EXPECT_EQ(to_8bit(1000.0), 255);
    EXPECT_EQ(to_8bit(-0.5), 0);
    EXPECT_EQ(to_8bit(-300.0), 0);
    EXPECT_EQ(to_8bit(std::numeric_limits<double>::quiet_NaN()), 0);
    EXPECT_EQ(to_8bit(std::vector<float>{-1.0f, 127.5f, 300.0f}),
              (std::vector<std::uint8_t>{0, 128, 255}));
}

TEST(FirReference, MaxAbsDifferenceTreatsNanAndSizeMismatchAsInfinite)
{
    const double infinity = std::numeric_limits<double>::infinity();
    EXPECT_DOUBLE_EQ(max_abs_difference({1.0f, 2.5f, -3.0f}, {1.0, 2.0, -1.0}), 2.0);
    EXPECT_EQ(max_abs_difference({}, {}), 0.0);
    EXPECT_EQ(max_abs_difference({1.0f, std::numeric_limits<float>::quiet_NaN()}, {1.0, 2.0}),
              infinity);
    EXPECT_EQ(max_abs_difference({1.0f}, {1.0, 2.0}), infinity);
}

// The sample's outputs and its check against the reference (kernels/fir/fir_outputs.hpp).

std::vector<float> to_float(const std::vector<double>& values)
{
    return std::vector<float>(values.begin(), values.end());
}

TEST(FirOutputs, VerifyPassesOnTheReferencesOwnOutput)
{
    const Image image = test::random_grey_image(37, 23, 5);
    const FirCoefficients coefficients = random_coefficients(5);
    for (const Border border : {Border::replicate, Border::reflect101, Border::constant,
                                Border::none}) {
        const std::vector<float> output = to_float(fir_reference(image, coefficients, border));
        std::ostringstream log;
        EXPECT_GE(verify_fir(log, image, coefficients, border, output), 0.0) << border_name(border);
        EXPECT_NE(log.str().find("Verify:"), std::string::npos) << border_name(border);
    }
}

TEST(FirOutputs, VerifyThrowsOnAChangedPixel)
{
    const Image image = test::random_grey_image(37, 23, 6);
    const FirCoefficients coefficients;
    const std::vector<float> good = to_float(fir_reference(image, coefficients, Border::replicate));
    std::ostringstream log;
    // A change ten times the tolerance, a NaN (an unwritten pixel) and a missing pixel.
    std::vector<float> changed = good;
    changed[23 * 37 / 2] += static_cast<float>(10 * kFirTolerance);
    std::vector<float> unwritten = good;
    unwritten.back() = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> short_by_one(good.begin(), good.end() - 1);
    for (const auto* output : {&changed, &unwritten, &short_by_one})
        EXPECT_THROW(verify_fir(log, image, coefficients, Border::replicate, *output),
                     std::runtime_error);
    EXPECT_EQ(log.str(), "");
}

TEST(FirOutputs, SaveRawWritesTheFloatsAndTheLuminance)
{
    const auto folder = std::filesystem::temp_directory_path() /
                        ("sdk-fir-outputs-" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    const Image image = test::random_grey_image(13, 7, 7);
    const std::vector<float> output = to_float(fir_reference(image, {}, Border::reflect101));

    write_fir_raw(folder / "raw", image, output);
    EXPECT_EQ(read_file(folder / "raw" / "output.npy"), encode_npy(output, 7, 13));
    EXPECT_EQ(read_file(folder / "raw" / "luminance.npy"), encode_npy(image.pixels, 7, 13));
    EXPECT_EQ(fir_output_paths(folder / "output.bmp", folder / "raw"),
              (std::vector<std::filesystem::path>{folder / "output.bmp", folder / "raw" / "output.npy",
                                                  folder / "raw" / "luminance.npy"}));
    std::filesystem::remove_all(folder);
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
    EXPECT_EQ(parsed.numerators,
              (std::vector<double>{-1.5, 0.25, 3, -4, 5, 0.5, 0, 0.7, 8}));
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
    EXPECT_THROW(parse_fir_coefficients(kDefaultFirNumerators,
                                        std::numeric_limits<double>::quiet_NaN()),
                 UsageError);
    EXPECT_THROW(parse_fir_coefficients(kDefaultFirNumerators,
                                        std::numeric_limits<double>::infinity()),
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
    EXPECT_THROW(parse_fir_coefficients("1e36,1e36,1e36,1e36,1e36,1e36,1e36,1e36,1e36", 1), UsageError);
    EXPECT_THROW(parse_fir_coefficients("-1e36,1e36,-1e36,1e36,-1e36,1e36,-1e36,1e36,-1e36", 1),
                 UsageError);  // signs do not help: the window may be white where they are positive
    EXPECT_NO_THROW(parse_fir_coefficients("1e35,0,0,0,0,0,0,0,0", 1));
    EXPECT_DOUBLE_EQ(largest_output(parse_fir_coefficients("1,-2,0,0,0,0,0,0,0", 1)), 255 * 3);
}

TEST(FirReference, ToleranceGrowsWithTheLargestOutput)
{
    EXPECT_NEAR(fir_tolerance(FirCoefficients{}), 1.0944e-3, 1e-7);  // largest output 158.4
    const FirCoefficients large = parse_fir_coefficients(
        "1234.567,1234.567,1234.567,1234.567,1234.567,1234.567,1234.567,1234.567,1234.567", 1);
    EXPECT_NEAR(fir_tolerance(large), 4.4, 0.05);  // separable: 26 roundings, not 10
}

// Weights of 1234.567: outputs near 2.8 million, where a float's last digit is 0.25. The float
// kernel cannot come within 0.001 of the double reference, and does come within fir_tolerance.
TEST(FirKernel, LargeWeightsAreJudgedRelativeToTheirMagnitude)
{
    const FirCoefficients large = parse_fir_coefficients(
        "1234.567,1234.567,1234.567,1234.567,1234.567,1234.567,1234.567,1234.567,1234.567", 1);
    const Image image = test::random_grey_image(61, 17, 1234);
    const double error = max_abs_difference(
        run_on_device(filter_for(Border::replicate), large, image, poisons[0]),
        fir_reference(image, large, Border::replicate));
    EXPECT_GT(error, kFirTolerance) << "an absolute tolerance would have failed this";
    EXPECT_LE(error, fir_tolerance(large));
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
