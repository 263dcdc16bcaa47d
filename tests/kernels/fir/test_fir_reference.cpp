// SPDX-License-Identifier: Apache-2.0
// Known answers: the C++ reference and the device on the tutorial's 1-D example, an impulse and
// a corner weight; the tolerance it is judged by; rounding to 8 bits; and the sample's outputs
// module (kernels/fir/fir_outputs.hpp): the verdict against the reference and --save-raw.
#include "fir_test_support.hpp"

#include "kernels/fir/fir_coefficients.hpp"
#include "kernels/fir/fir_outputs.hpp"
#include "kernels/fir/fir_reference.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/npy.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace sdk {
namespace {

using test::filter_for;
using test::poisons;
using test::random_coefficients;
using test::run_on_device;

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
                EXPECT_EQ(shifted[y * 9 + x], expected)
                    << x << "," << y << " " << border_name(border);
            }
    }
    EXPECT_EQ(max_abs_difference(run_on_device(filter_for(Border::none, MemoryMode::copy, 5),
                                               corner, image, poisons[0]),
                                 fir_reference(image, corner, Border::none)),
              0.0);
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
    for (const Border border :
         {Border::replicate, Border::reflect101, Border::constant, Border::none}) {
        expect_near_each(fir_reference(impulse, weights, border), expected, 1e-12,
                         "reference, " + border_name(border));
        expect_near_each(to_double(run_on_device(filter_for(border), weights, impulse, poisons[0])),
                         expected, kFirTolerance, "device, " + border_name(border));
    }
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
    for (const Border border :
         {Border::replicate, Border::reflect101, Border::constant, Border::none}) {
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
    const auto folder =
        std::filesystem::temp_directory_path() / ("sdk-fir-outputs-" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    const Image image = test::random_grey_image(13, 7, 7);
    const std::vector<float> output = to_float(fir_reference(image, {}, Border::reflect101));

    write_fir_raw(folder / "raw", image, output);
    EXPECT_EQ(read_file(folder / "raw" / "output.npy"), encode_npy(output, 7, 13));
    EXPECT_EQ(read_file(folder / "raw" / "luminance.npy"), encode_npy(image.pixels, 7, 13));
    EXPECT_EQ(
        fir_output_paths(folder / "output.bmp", folder / "raw"),
        (std::vector<std::filesystem::path>{folder / "output.bmp", folder / "raw" / "output.npy",
                                            folder / "raw" / "luminance.npy"}));
    std::filesystem::remove_all(folder);
}

TEST(FirReference, ToleranceGrowsWithTheLargestOutput)
{
    EXPECT_NEAR(fir_tolerance(FirCoefficients{}), 1.0944e-3, 1e-7);  // largest output 158.4
    const FirCoefficients large = parse_fir_coefficients(
        "1234.567,1234.567,1234.567,1234.567,1234.567,1234.567,1234.567,1234.567,1234.567", 1);
    EXPECT_NEAR(fir_tolerance(large), 4.4, 0.05);  // separable: 26 roundings, not 10
}

}  // namespace
}  // namespace sdk
