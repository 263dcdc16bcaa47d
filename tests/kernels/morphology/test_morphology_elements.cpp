// SPDX-License-Identifier: Apache-2.0
// The rectangle, cross and ellipse of any size (kernels/morphology/morphology_runs.cl) against
// the per-pixel C++ reference, bit for bit, with poisoned outputs: every operation on single
// rows and columns, the widest reach and one past a word, on awkward image sizes, sparse and
// dense; regions of interest; one pixel dilated into the element itself; every work-group shape.
// Under oclgrind (SDK_TEST_SIZES=small) one element of each shape on two small images.
#include "kernels/morphology/morphology_filter.hpp"
#include "kernels/morphology/morphology_reference.hpp"
#include "kernels/morphology/morphology_tuning.hpp"
#include "kernels/morphology/structuring_element.hpp"
#include "morphology_test_support.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <string>
#include <vector>

namespace sdk {
namespace {

using test::expect_matches_reference;
using test::filter_for;
using test::poisons;
using test::run_on_device;
using test::white_on_black;

const MorphologyShape sized_shapes[] = {MorphologyShape::rectangle, MorphologyShape::cross,
                                        MorphologyShape::ellipse};
const MorphologyOperation all_operations[] = {
    MorphologyOperation::dilate, MorphologyOperation::erode, MorphologyOperation::close,
    MorphologyOperation::open};

// A point, single rows and columns, small odd ones, the widest reach (31: a whole neighbouring
// word), the tallest, and a row reaching past a word's width. Each element is a program of its
// own (~2 s to build on PoCL without its cache), so the cross and ellipse take the sizes that
// exercise their own code: the rectangle's single rows and columns are theirs too.
std::vector<StructuringElement> elements_of(MorphologyShape shape)
{
    if (test::small_sizes_only()) {
        // One each under oclgrind, each kernel path: the rectangle at the widest reach, the
        // cross and the ellipse with rows of several reaches.
        const int sides[3][2] = {{63, 3}, {5, 7}, {7, 3}};
        const int* side = sides[static_cast<int>(shape) - static_cast<int>(sized_shapes[0])];
        return {StructuringElement(shape, side[0], side[1])};
    }
    std::vector<std::pair<int, int>> sides{{1, 3}, {7, 3}, {31, 31}, {63, 63}};
    if (shape == MorphologyShape::rectangle)
        sides.insert(sides.end(), {{1, 1}, {3, 1}, {5, 5}, {33, 1}, {1, 63}});
    if (shape == MorphologyShape::cross) sides.push_back({33, 1});
    if (shape == MorphologyShape::ellipse) sides.insert(sides.end(), {{3, 1}, {5, 5}, {1, 63}});
    std::vector<StructuringElement> elements;
    for (const auto& [width, height] : sides) elements.emplace_back(shape, width, height);
    return elements;
}

// 1x1 and other awkward sizes, widths that are not multiples of 32, tall thin, wide short, and
// images with interior columns (whose every word lies inside), for the kernels' direct loads.
std::vector<test::Size> image_sizes()
{
    if (test::small_sizes_only()) return {{17, 5}, {100, 12}};
    return {{1, 1}, {2, 3}, {17, 5}, {33, 9}, {100, 3}, {3, 100}, {130, 80}};
}

// A random image whose foreground is about one pixel per `area` (one in two for a 1-pixel
// element): sparse enough that a dilation by an element of that area leaves background, and,
// inverted, an erosion leaves foreground. Plain random luminance would fill a 63x63 dilation.
Image sparse_image(std::size_t width, std::size_t height, int area, std::uint32_t seed)
{
    std::mt19937 generator(seed);
    std::uniform_int_distribution<int> draw(0, area);
    Image image{width, height, 1, std::vector<std::uint8_t>(width * height)};
    for (auto& pixel : image.pixels) pixel = draw(generator) == 0 ? 255 : 0;
    return image;
}

std::string describe(const StructuringElement& element, MorphologyOperation operation,
                     const test::Size& size, bool dense, const Roi& roi)
{
    return element_name(element) + ", " + operation_name(operation) + ", " + test::size_name(size) +
           (dense ? ", dense" : ", sparse") + ", region " + roi_text(roi);
}

class MorphologyElementTest : public ::testing::TestWithParam<MorphologyShape> {};

TEST_P(MorphologyElementTest, MatchesReferenceForEverySizeAndOperation)
{
    std::uint32_t seed = 1;
    for (const StructuringElement& element : elements_of(GetParam()))
        for (const MorphologyOperation operation : all_operations)
            for (const test::Size& size : image_sizes())
                for (const bool dense : {false, true}) {
                    const Image luminance =
                        sparse_image(size.width, size.height, element.width * element.height, seed);
                    const Roi roi = whole_image(size.width, size.height);
                    expect_matches_reference(element, operation, luminance, {128, dense}, roi,
                                             poisons[seed++ % 2],
                                             describe(element, operation, size, dense, roi));
                    if (HasFatalFailure()) return;
                }
}

TEST_P(MorphologyElementTest, MatchesReferenceInRegionsOfInterest)
{
    std::vector<StructuringElement> elements;
    for (const auto& [width, height] : {std::pair{7, 3}, {31, 31}, {1, 3}})
        elements.emplace_back(GetParam(), width, height);
    std::vector<test::Size> sizes{{17, 5}, {130, 80}};
    if (test::small_sizes_only()) {
        elements = elements_of(GetParam());
        sizes = {{100, 12}};
    }
    std::uint32_t seed = 500;
    for (const StructuringElement& element : elements)
        for (const MorphologyOperation operation :
             {MorphologyOperation::close, MorphologyOperation::open})
            for (const test::Size& size : sizes)
                for (const Roi& roi : test::regions_of(size.width, size.height)) {
                    const bool dense = seed % 2 == 1;
                    const Image luminance =
                        sparse_image(size.width, size.height, element.width * element.height, seed);
                    expect_matches_reference(element, operation, luminance, {128, dense}, roi,
                                             poisons[seed++ % 2],
                                             describe(element, operation, size, dense, roi));
                    if (HasFatalFailure()) return;
                }
}

// Independent of the reference: one foreground pixel dilated is the element around it, and one
// background pixel eroded is the element's hole.
TEST_P(MorphologyElementTest, OnePixelDilatesIntoTheElement)
{
    const std::size_t width = 100, height = 70, x0 = 50, y0 = 35;
    for (const StructuringElement& element : elements_of(GetParam())) {
        Image luminance{width, height, 1, std::vector<std::uint8_t>(width * height, 0)};
        luminance.pixels[y0 * width + x0] = 255;
        std::vector<std::uint8_t> expected(width * height, 0);
        for (std::size_t y = 0; y < height; ++y)
            for (std::size_t x = 0; x < width; ++x) {
                const int dx = static_cast<int>(x) - static_cast<int>(x0);
                const int dy = static_cast<int>(y) - static_cast<int>(y0);
                if (in_structuring_element(element, dx, dy)) expected[y * width + x] = 255;
            }
        const Roi whole = whole_image(width, height);
        MorphologyFilter& filter = filter_for(element);
        EXPECT_EQ(run_on_device(filter, luminance, {128, false}, MorphologyOperation::dilate, whole,
                                poisons[0])
                      .output,
                  expected)
            << element_name(element);
        // Inverted, the pixel is the only background: the erosion's background is the element.
        for (auto& pixel : expected) pixel = static_cast<std::uint8_t>(255 - pixel);
        EXPECT_EQ(run_on_device(filter, luminance, {128, true}, MorphologyOperation::erode, whole,
                                poisons[1])
                      .output,
                  expected)
            << element_name(element);
    }
}

INSTANTIATE_TEST_SUITE_P(SizedShapes, MorphologyElementTest, ::testing::ValuesIn(sized_shapes),
                         [](const auto& test_info) { return shape_name(test_info.param); });

// The work-group shape changes which work-items share a group and the partial groups at the
// edges, never the output.
TEST(MorphologyElementWorkGroups, EveryCandidateShapeMatchesReference)
{
    std::vector<StructuringElement> elements{{MorphologyShape::rectangle, 31, 31},
                                             {MorphologyShape::ellipse, 7, 3}};
    std::vector<test::Size> sizes{{17, 5}, {130, 80}};
    if (test::small_sizes_only()) {
        elements = {{MorphologyShape::ellipse, 7, 3}};
        sizes = {{100, 12}};
    }
    std::uint32_t seed = 900;
    for (const StructuringElement& element : elements) {
        MorphologyFilter& filter = filter_for(element);
        for (const WorkGroupShape& candidate : morphology_candidates()) {
            // As the tuner runs it: shrunk to the kernels' own limit (rusticl's run 32
            // work-items a group).
            const WorkGroupShape group = filter.fit_work_group(candidate.x, candidate.y);
            for (const test::Size& size : sizes) {
                const Image luminance =
                    sparse_image(size.width, size.height, element.width * element.height, seed);
                const Roi roi = whole_image(size.width, size.height);
                expect_matches_reference(element, MorphologyOperation::close, luminance,
                                         {128, false}, roi, poisons[seed++ % 2],
                                         element_name(element) + " in " + shape_text(group) +
                                             " groups, " + test::size_name(size));
                if (HasFatalFailure()) return;
            }
        }
        filter.fit_work_group(16, 8);  // the default, for the other tests
    }
}

TEST(MorphologyElementFilter, StepsNameTheElementAndBandsTakeItsHeight)
{
    const StructuringElement element{MorphologyShape::ellipse, 7, 3};
    MorphologyFilter& filter = filter_for(element);
    filter.upload(test::random_grey_image(40, 6, 3));
    filter.fill_outputs(poisons[0]);
    const auto steps = filter.run({}, MorphologyOperation::close, whole_image(40, 6));
    ASSERT_EQ(steps.size(), 4u);
    EXPECT_EQ(steps[1].name, "dilate (ellipse 7x3)");
    EXPECT_EQ(steps[2].name, "erode (ellipse 7x3)");
    EXPECT_EQ(halo_rows(element, MorphologyOperation::close), 2u);
    EXPECT_EQ(halo_rows({MorphologyShape::rectangle, 3, 63}, MorphologyOperation::dilate), 31u);
    EXPECT_EQ(halo_rows({MorphologyShape::cross, 63, 1}, MorphologyOperation::open), 0u);
    // The 3x3 shapes keep theirs.
    EXPECT_EQ(halo_rows(MorphologyShape::square, MorphologyOperation::close), 2u);
    EXPECT_EQ(halo_rows(MorphologyShape::diamond, MorphologyOperation::close), 4u);
}

}  // namespace
}  // namespace sdk
