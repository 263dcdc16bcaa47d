// SPDX-License-Identifier: Apache-2.0
// The fir_float kernels on the device against the double-precision C++ reference: every border,
// memory mode and variant, window sizes 3 to 15, the tutorial's and random weights, awkward sizes
// and poisoned outputs; the tutorial's 3x3 kernel built as the page shows it; new weights without
// a rebuild; what the filter refuses.
#include "fir_test_support.hpp"

#include "kernels/fir/fir_coefficients.hpp"
#include "kernels/fir/fir_filter.hpp"
#include "kernels/fir/fir_reference.hpp"
#include "kernels/fir/fir_separable.hpp"
#include "kernels/fir/fir_tuning.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/kernel_args.hpp"
#include "common/runtime/program.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace sdk {
namespace {

using test::filter_for;
using test::poisons;
using test::random_coefficients;
using test::run_on_device;
using test::test_context;

enum class Weights { tutorial, random };

class FirKernelTest : public ::testing::TestWithParam<std::tuple<Border, Weights, MemoryMode>> {};

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

INSTANTIATE_TEST_SUITE_P(AllBordersAndWeights, FirKernelTest,
                         ::testing::Combine(::testing::Values(Border::replicate, Border::reflect101,
                                                              Border::constant, Border::none),
                                            ::testing::Values(Weights::tutorial, Weights::random),
                                            ::testing::Values(MemoryMode::copy, MemoryMode::map,
                                                              MemoryMode::pinned)),
                         [](const auto& test_info) {
                             std::string name =
                                 border_name(std::get<0>(test_info.param)) +
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

INSTANTIATE_TEST_SUITE_P(EveryVariant, FirVariantTest,
                         ::testing::Combine(::testing::Values(FirVariant::buffer, FirVariant::local,
                                                              FirVariant::image),
                                            ::testing::Values(3, 5, 7, 15),
                                            ::testing::Values(Border::replicate, Border::reflect101,
                                                              Border::constant, Border::none)),
                         [](const auto& test_info) {
                             const int size = std::get<1>(test_info.param);
                             return fir_variant_name(std::get<0>(test_info.param)) + "_" +
                                    std::to_string(size) + "x" + std::to_string(size) + "_" +
                                    border_name(std::get<2>(test_info.param));
                         });

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

TEST(FirFilter, RefusesWeightsOfAnotherSize)
{
    EXPECT_THROW(filter_for(Border::replicate).set_coefficients(random_coefficients(1, 5)),
                 std::invalid_argument);
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
    for (const Border border :
         {Border::replicate, Border::reflect101, Border::constant, Border::none}) {
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

// Weights of 1234.567: outputs near 2.8 million, where a float's last digit is 0.25. The float
// kernel cannot come within 0.001 of the double reference, and does come within fir_tolerance.
TEST(FirKernel, LargeWeightsAreJudgedRelativeToTheirMagnitude)
{
    const FirCoefficients large = parse_fir_coefficients(
        "1234.567,1234.567,1234.567,1234.567,1234.567,1234.567,1234.567,1234.567,1234.567", 1);
    const Image image = test::random_grey_image(61, 17, 1234);
    const double error =
        max_abs_difference(run_on_device(filter_for(Border::replicate), large, image, poisons[0]),
                           fir_reference(image, large, Border::replicate));
    EXPECT_GT(error, kFirTolerance) << "an absolute tolerance would have failed this";
    EXPECT_LE(error, fir_tolerance(large));
}

}  // namespace
}  // namespace sdk
