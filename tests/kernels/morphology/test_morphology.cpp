// SPDX-License-Identifier: Apache-2.0
// Packed-bit morphology against the per-pixel C++ reference, bit for bit: every operation and
// shape on awkward sizes and three densities, regions of interest at the edges and inside,
// binarise + pack and unpack on their own, the blog's diagonal-gap example, and median step times.
#include "kernels/morphology/morphology_filter.hpp"
#include "kernels/morphology/morphology_reference.hpp"
#include "kernels/morphology/morphology_tuning.hpp"
#include "morphology_test_support.hpp"
#include "common/runtime/errors.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <tuple>

namespace sdk {

// Names in test output instead of GoogleTest's bytes of an enum.
void PrintTo(MorphologyShape shape, std::ostream* out)
{
    *out << shape_name(shape);
}
void PrintTo(MorphologyOperation operation, std::ostream* out)
{
    *out << operation_name(operation);
}

namespace {

using test::DeviceResult;
using test::expect_matches_reference;
using test::filter_for;
using test::poisons;
using test::regions_of;
using test::run_on_device;
using test::test_context;
using test::white_on_black;

// Uniform random luminance above a threshold T is foreground with probability (256 - T) / 256.
struct Density {
    const char* name;
    std::uint8_t threshold;
};
constexpr Density densities[] = {{"near-empty", 251}, {"half", 128}, {"near-full", 6}};

const MorphologyShape both_shapes[] = {MorphologyShape::square, MorphologyShape::diamond};
const MorphologyOperation all_operations[] = {
    MorphologyOperation::dilate, MorphologyOperation::erode, MorphologyOperation::close,
    MorphologyOperation::open};

// The reference's unpack: each bit of a packed bitmap as a 0 or 255 byte.
std::vector<std::uint8_t> expand(const PackedBitmap& bitmap)
{
    std::vector<std::uint8_t> pixels;
    for (std::size_t y = 0; y < bitmap.height; ++y)
        for (std::size_t x = 0; x < bitmap.width; ++x)
            pixels.push_back((bitmap.bits[y * bitmap.row_pitch + x / 8] >> (7 - x % 8)) & 1 ? 255
                                                                                            : 0);
    return pixels;
}

std::string describe(const test::Size& size, const char* density, const Roi& roi)
{
    return test::size_name(size) + ", " + density + ", region " + roi_text(roi);
}

// The same pipeline with mapped buffers (--memory map): every op and shape, awkward sizes, half
// density, whole image.
// Under oclgrind each size takes one shape and operation in turn: the memory mode changes only
// how the pixels cross (the kernels are MorphologyKernelTest's), and every size still crosses.
void expect_reference_results_in(MemoryMode memory)
{
    std::uint32_t seed = 7;
    std::size_t turn = 0;
    for (const auto& size : test::awkward_sizes())
        for (const auto shape : test::all_or_one_in_turn(both_shapes, turn))
            for (const auto operation : test::all_or_one_in_turn(all_operations, turn++ / 2)) {
                const Image luminance = test::random_grey_image(size.width, size.height, seed++);
                const Roi roi = whole_image(size.width, size.height);
                const Image expected = morphology_reference(
                    binarise_reference(luminance, Binarisation{}), operation, shape, roi);
                const DeviceResult actual = run_on_device(filter_for(shape, memory), luminance,
                                                          Binarisation{}, operation, roi, 0xA5);
                ASSERT_EQ(actual.output, white_on_black(expected))
                    << test::size_name(size) << " " << operation_name(operation) << " "
                    << shape_name(shape) << " " << memory_mode_name(memory);
            }
}

TEST(MorphologyMemoryModes, MappedBuffersGiveTheReferenceResult)
{
    expect_reference_results_in(MemoryMode::map);
}

TEST(MorphologyMemoryModes, PinnedBuffersGiveTheReferenceResult)
{
    expect_reference_results_in(MemoryMode::pinned);
}

class MorphologyKernelTest
    : public ::testing::TestWithParam<std::tuple<MorphologyShape, MorphologyOperation>> {};

TEST_P(MorphologyKernelTest, MatchesReferenceOnAwkwardSizesAndDensities)
{
    const auto [shape, operation] = GetParam();
    std::uint32_t seed = 1;
    std::size_t turn = 0;  // under oclgrind one density and poison a size (all_or_one_in_turn)
    for (const auto& size : test::awkward_sizes()) {
        for (const Density& density : test::all_or_one_in_turn(densities, turn)) {
            for (const std::uint8_t poison : test::all_or_one_in_turn(poisons, turn++)) {
                const Image luminance = test::random_grey_image(size.width, size.height, seed++);
                const Roi roi = whole_image(size.width, size.height);
                expect_matches_reference(shape, operation, luminance, {density.threshold, false},
                                         roi, poison, describe(size, density.name, roi));
                if (HasFatalFailure()) return;
            }
        }
    }
}

TEST_P(MorphologyKernelTest, MatchesReferenceInRegionsOfInterest)
{
    const auto [shape, operation] = GetParam();
    std::uint32_t seed = 1000;
    std::size_t turn = 0;  // under oclgrind one density a region (all_or_one_in_turn)
    for (const auto& size : test::awkward_sizes()) {
        for (const Roi& roi : regions_of(size.width, size.height)) {
            for (const Density& density : test::all_or_one_in_turn(densities, turn++)) {
                const Image luminance = test::random_grey_image(size.width, size.height, seed);
                expect_matches_reference(shape, operation, luminance, {density.threshold, false},
                                         roi, poisons[seed++ % 2],
                                         describe(size, density.name, roi));
                if (HasFatalFailure()) return;
            }
        }
    }
}

// Regions at arbitrary bit offsets in an image wide enough for interior words, whose whole
// neighbourhood lies inside the region and which take the kernel's direct-load path. Under
// oclgrind each case takes every third region, a different third from case to case, so the 24
// regions all run there too.
TEST_P(MorphologyKernelTest, MatchesReferenceInRandomRegionsOfALargerImage)
{
    const auto [shape, operation] = GetParam();
    const int third = (static_cast<int>(shape) + static_cast<int>(operation)) % 3;
    const test::Size size{300, 40};
    std::mt19937 generator(77);
    for (int i = 0; i < 24; ++i) {
        std::uniform_int_distribution<std::size_t> x(0, size.width - 1);
        std::uniform_int_distribution<std::size_t> y(0, size.height - 1);
        Roi roi{x(generator), y(generator), 0, 0};
        roi.width = std::uniform_int_distribution<std::size_t>(1, size.width - roi.x)(generator);
        roi.height = std::uniform_int_distribution<std::size_t>(1, size.height - roi.y)(generator);
        const Density& density = densities[i % 3];
        if (test::small_sizes_only() && i % 3 != third) continue;  // drawn all the same
        const Image luminance = test::random_grey_image(size.width, size.height, 5000u + i);
        expect_matches_reference(shape, operation, luminance, {density.threshold, i % 2 == 1}, roi,
                                 poisons[i % 2], describe(size, density.name, roi));
        if (HasFatalFailure()) return;
    }
}

INSTANTIATE_TEST_SUITE_P(AllShapesAndOperations, MorphologyKernelTest,
                         ::testing::Combine(::testing::Values(MorphologyShape::square,
                                                              MorphologyShape::diamond),
                                            ::testing::ValuesIn(all_operations)),
                         [](const auto& test_info) {
                             return shape_name(std::get<0>(test_info.param)) + "_" +
                                    operation_name(std::get<1>(test_info.param));
                         });

// The luminance comes back as it went in (tight rows on the device too), in every memory mode:
// what --verify and --save-raw read.
TEST(MorphologyFilter, DownloadsTheLuminanceItRead)
{
    const Image image = test::random_grey_image(37, 5, 11);
    for (const MemoryMode memory : {MemoryMode::copy, MemoryMode::map, MemoryMode::pinned}) {
        MorphologyFilter& filter = filter_for(MorphologyShape::square, memory);
        filter.upload(image);
        const Image luminance = filter.download_luminance();
        EXPECT_EQ(luminance.width, image.width);
        EXPECT_EQ(luminance.height, image.height);
        EXPECT_EQ(luminance.pixels, image.pixels) << memory_mode_name(memory);
    }
}

// Every work-group shape the tuner may choose for the passes gives the reference's result bit
// for bit: the shapes change which work-items share a group, and the partial groups at the
// right and bottom edges, never the output. The kernels use no local memory, no barrier and no
// group id, so under oclgrind a shape can only add work-items past the edges, which return
// before any access: two sizes with partial groups across and down are enough there.
TEST(MorphologyWorkGroups, EveryCandidateShapeMatchesReference)
{
    std::uint32_t seed = 900;
    const std::vector<test::Size> sizes = test::small_sizes_only()
                                              ? std::vector<test::Size>{{47, 13}, {35, 18}}
                                              : test::awkward_sizes();
    for (const MorphologyShape shape : both_shapes) {
        MorphologyFilter& filter = filter_for(shape);
        for (const WorkGroupShape& candidate : morphology_candidates()) {
            // As the tuner runs it: shrunk to the kernels' own limit (rusticl's run 32
            // work-items a group).
            const WorkGroupShape group = filter.fit_work_group(candidate.x, candidate.y);
            for (const auto& size : sizes) {
                const Image luminance = test::random_grey_image(size.width, size.height, seed);
                // A closing and an opening run both passes, in both orders.
                for (const MorphologyOperation operation :
                     {MorphologyOperation::close, MorphologyOperation::open})
                    for (const Roi& roi : {whole_image(size.width, size.height),
                                           regions_of(size.width, size.height).back()})
                        expect_matches_reference(shape, operation, luminance, {128, false}, roi,
                                                 poisons[seed++ % 2],
                                                 describe(size, shape_text(group).c_str(), roi));
            }
        }
        filter.fit_work_group(16, 8);  // the default, for the other tests
    }
}

TEST(MorphologyWorkGroups, AShapeOverTheKernelsLimitIsAUsageErrorNamingIt)
{
    MorphologyFilter& filter = filter_for(MorphologyShape::square);
    try {
        filter.set_work_group(4096, 4096);
        FAIL() << "4096x4096 accepted";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("work-items a group on this device"),
                  std::string::npos)
            << error.what();
    }
    EXPECT_THROW(filter.set_work_group(0, 8), UsageError);
    filter.fit_work_group(16, 8);
}

TEST(MorphologyTuning, MeasuresThenAnswersFromTheCache)
{
    const auto folder = std::filesystem::temp_directory_path() /
                        ("sdk-morphology-tuning-" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    ::setenv("SDK_TUNING_CACHE", (folder / "tuning.txt").c_str(), 1);
    const auto measured = choose_morphology_work_group(test_context(), MorphologyShape::diamond,
                                                       200, 100, Tuning::finish);
    EXPECT_FALSE(measured.from_cache);
    EXPECT_TRUE(measured.cached);
    ASSERT_EQ(measured.candidates.size(), measured.contest.median_ms.size());
    // Each candidate as it runs here, shrunk to the kernels' limit: shapes that shrink to one
    // that already ran are not measured twice (rusticl runs 32 work-items a group).
    std::vector<std::string> runnable;
    MorphologyFilter& filter = filter_for(MorphologyShape::diamond);
    for (const WorkGroupShape& candidate : morphology_candidates()) {
        const std::string shape = shape_text(filter.fit_work_group(candidate.x, candidate.y));
        if (std::find(runnable.begin(), runnable.end(), shape) == runnable.end())
            runnable.push_back(shape);
    }
    filter.fit_work_group(16, 8);
    EXPECT_EQ(measured.candidates.size(), runnable.size());
    EXPECT_NE(describe_measurement(measured).find(std::to_string(morphology_candidates().size()) +
                                                  " candidates measured in"),
              std::string::npos)
        << describe_measurement(measured);
    const auto cached =
        choose_morphology_work_group(test_context(), MorphologyShape::diamond, 256, 256);
    EXPECT_TRUE(cached.from_cache);
    EXPECT_EQ(shape_text(cached.choice), shape_text(measured.choice));
    // The other structuring element is another entry; --retune measures again.
    EXPECT_FALSE(
        choose_morphology_work_group(test_context(), MorphologyShape::square, 256, 256).from_cache);
    EXPECT_FALSE(choose_morphology_work_group(test_context(), MorphologyShape::diamond, 256, 256,
                                              Tuning::retune)
                     .from_cache);
    ::unsetenv("SDK_TUNING_CACHE");
    std::filesystem::remove_all(folder);
}

TEST(MorphologyPacking, BinariseAndPackMatchesReference)
{
    MorphologyFilter& filter = filter_for(MorphologyShape::diamond);
    std::uint32_t seed = 2000;
    for (const auto& size : test::awkward_sizes()) {
        for (const int threshold : {0, 1, 128, 255}) {
            for (const bool invert : {false, true}) {
                const Image luminance = test::random_grey_image(size.width, size.height, seed);
                const Binarisation binarisation{static_cast<std::uint8_t>(threshold), invert};
                filter.upload(luminance);
                filter.fill_outputs(poisons[seed++ % 2]);
                filter.binarise_and_pack(binarisation);
                const PackedBitmap packed = filter.download_packed_input();
                // Rows of ceil(width / 32) words, bytes in PBM order, zeros past the width.
                ASSERT_EQ(packed.row_pitch, 4 * ((size.width + 31) / 32));
                ASSERT_EQ(
                    packed.bits,
                    pack_bitmap(binarise_reference(luminance, binarisation), packed.row_pitch).bits)
                    << test::size_name(size) << ", threshold " << threshold << ", invert "
                    << invert;
            }
        }
    }
}

TEST(MorphologyPacking, UnpackRestoresTheBinarisedImage)
{
    MorphologyFilter& filter = filter_for(MorphologyShape::square);
    std::uint32_t seed = 3000;
    for (const auto& size : test::awkward_sizes()) {
        const Image luminance = test::random_grey_image(size.width, size.height, seed);
        const Binarisation binarisation{128, seed % 2 == 1};
        filter.upload(luminance);
        filter.fill_outputs(poisons[seed++ % 2]);
        filter.binarise_and_pack(binarisation);
        filter.unpack();  // no pass: the packed input itself
        ASSERT_EQ(filter.download(), white_on_black(binarise_reference(luminance, binarisation)))
            << test::size_name(size);
    }
}

TEST(MorphologyPacking, UnpackExpandsEveryBitOfThePackedResult)
{
    MorphologyFilter& filter = filter_for(MorphologyShape::diamond);
    std::uint32_t seed = 4000;
    for (const auto& size : test::awkward_sizes()) {
        const Image luminance = test::random_grey_image(size.width, size.height, seed);
        const DeviceResult result =
            run_on_device(filter, luminance, {128, false}, MorphologyOperation::close,
                          whole_image(size.width, size.height), poisons[seed++ % 2]);
        ASSERT_EQ(result.output, expand(result.packed_result)) << test::size_name(size);
    }
}

// The blog's example: two pixels one diagonal step apart, (2, 2) and (4, 4). The square's
// closing leaves the gap at (3, 3); the diamond reaches two pixels straight out, so its dilations
// overlap enough that the erosion keeps (3, 3) and the pixels join.
Image two_diagonal_pixels()
{
    Image luminance{7, 7, 1, std::vector<std::uint8_t>(49, 0)};
    luminance.pixels[2 * 7 + 2] = 255;
    luminance.pixels[4 * 7 + 4] = 255;
    return luminance;
}

Image expected_closing(bool joined)
{
    Image mask{7, 7, 1, std::vector<std::uint8_t>(49, 0)};
    mask.pixels[2 * 7 + 2] = 1;
    mask.pixels[4 * 7 + 4] = 1;
    if (joined) mask.pixels[3 * 7 + 3] = 1;
    return mask;
}

TEST(MorphologyKnownAnswer, DiamondClosingJoinsADiagonalGapAndSquareDoesNot)
{
    const Image luminance = two_diagonal_pixels();
    const Image mask = binarise_reference(luminance, {});
    const Roi roi = whole_image(7, 7);
    const Image diamond =
        morphology_reference(mask, MorphologyOperation::close, MorphologyShape::diamond, roi);
    const Image square =
        morphology_reference(mask, MorphologyOperation::close, MorphologyShape::square, roi);
    EXPECT_EQ(diamond.pixels, expected_closing(true).pixels);
    EXPECT_EQ(square.pixels, expected_closing(false).pixels);

    const auto on_device = [&](MorphologyShape shape) {
        const MorphologyOperation closing = MorphologyOperation::close;
        return run_on_device(filter_for(shape), luminance, {}, closing, roi, 0x77).output;
    };
    EXPECT_EQ(on_device(MorphologyShape::diamond), white_on_black(expected_closing(true)));
    EXPECT_EQ(on_device(MorphologyShape::square), white_on_black(expected_closing(false)));
}

TEST(MorphologyReference, StructuringElementsHave9And13Pixels)
{
    int square = 0;
    int diamond = 0;
    for (int dy = -3; dy <= 3; ++dy)
        for (int dx = -3; dx <= 3; ++dx) {
            square += in_structuring_element(MorphologyShape::square, dx, dy);
            diamond += in_structuring_element(MorphologyShape::diamond, dx, dy);
        }
    EXPECT_EQ(square, 9);
    EXPECT_EQ(diamond, 13);
    EXPECT_TRUE(in_structuring_element(MorphologyShape::diamond, 0, -2));
    EXPECT_FALSE(in_structuring_element(MorphologyShape::diamond, 1, -2));
    EXPECT_TRUE(in_structuring_element(MorphologyShape::square, 1, -1));
    EXPECT_FALSE(in_structuring_element(MorphologyShape::square, 2, 0));
}

TEST(MorphologyReference, DilatingOnePixelDrawsTheShape)
{
    Image mask{7, 7, 1, std::vector<std::uint8_t>(49, 0)};
    mask.pixels[3 * 7 + 3] = 1;
    for (const auto shape : {MorphologyShape::square, MorphologyShape::diamond}) {
        const Image dilated = dilate_reference(mask, shape, whole_image(7, 7));
        for (int y = 0; y < 7; ++y)
            for (int x = 0; x < 7; ++x)
                EXPECT_EQ(dilated.pixels[static_cast<std::size_t>(y * 7 + x)],
                          in_structuring_element(shape, x - 3, y - 3) ? 1 : 0)
                    << shape_name(shape) << " at (" << x << ", " << y << ")";
    }
}

TEST(MorphologyReference, EdgesNeitherInventNorRemovePixels)
{
    const Image empty{5, 3, 1, std::vector<std::uint8_t>(15, 0)};
    const Image full{5, 3, 1, std::vector<std::uint8_t>(15, 1)};
    for (const auto shape : {MorphologyShape::square, MorphologyShape::diamond}) {
        EXPECT_EQ(dilate_reference(empty, shape, whole_image(5, 3)).pixels, empty.pixels);
        EXPECT_EQ(erode_reference(full, shape, whole_image(5, 3)).pixels, full.pixels);
        // The same at a region's edge: the pixels outside it do not count.
        EXPECT_EQ(erode_reference(empty, shape, {1, 1, 3, 1}).pixels, empty.pixels);
        Image ring = full;
        ring.pixels[2 * 5 + 2] = 0;  // just below the region {1, 0, 3, 2}
        EXPECT_EQ(erode_reference(ring, shape, {0, 0, 5, 2}).pixels, ring.pixels);
    }
}

TEST(MorphologyReference, OutsideTheRegionIsCopied)
{
    const Image luminance = test::random_grey_image(9, 6, 11);
    const Image mask = binarise_reference(luminance, {});
    const Roi roi{2, 1, 4, 3};
    const Image dilated = dilate_reference(mask, MorphologyShape::diamond, roi);
    for (std::size_t y = 0; y < 6; ++y) {
        for (std::size_t x = 0; x < 9; ++x) {
            const bool inside = x >= 2 && x < 6 && y >= 1 && y < 4;
            if (!inside) {
                EXPECT_EQ(dilated.pixels[y * 9 + x], mask.pixels[y * 9 + x]);
            }
        }
    }
}

TEST(MorphologyReference, RefusesRegionsOutsideTheMask)
{
    const Image mask{4, 4, 1, std::vector<std::uint8_t>(16, 0)};
    for (const Roi roi :
         {Roi{0, 0, 0, 1}, Roi{0, 0, 1, 0}, Roi{4, 0, 1, 1}, Roi{0, 3, 1, 2}, Roi{1, 1, 4, 1}})
        EXPECT_THROW(dilate_reference(mask, MorphologyShape::square, roi), std::invalid_argument)
            << roi_text(roi);
}

TEST(MorphologyReference, BinarisesAtTheThreshold)
{
    const Image luminance{4, 1, 1, {0, 127, 128, 255}};
    using Pixels = std::vector<std::uint8_t>;
    EXPECT_EQ(binarise_reference(luminance, {128, false}).pixels, (Pixels{0, 0, 1, 1}));
    EXPECT_EQ(binarise_reference(luminance, {128, true}).pixels, (Pixels{1, 1, 0, 0}));
    EXPECT_EQ(binarise_reference(luminance, {0, false}).pixels, (Pixels{1, 1, 1, 1}));
    EXPECT_EQ(binarise_reference(luminance, {0, true}).pixels, (Pixels{0, 0, 0, 0}));
}

TEST(MorphologyNames, RoundTrip)
{
    for (const auto& [name, shape] : morphology_shape_names()) EXPECT_EQ(shape_name(shape), name);
    for (const auto& [name, operation] : morphology_operation_names())
        EXPECT_EQ(operation_name(operation), name);
    EXPECT_EQ(morphology_operation_names().size(), 4u);
}

TEST(MorphologyPasses, CloseDilatesThenErodesAndOpenTheReverse)
{
    using P = MorphologyPass;
    EXPECT_EQ(passes_of(MorphologyOperation::dilate), std::vector<P>{P::dilate});
    EXPECT_EQ(passes_of(MorphologyOperation::erode), std::vector<P>{P::erode});
    EXPECT_EQ(passes_of(MorphologyOperation::close), (std::vector<P>{P::dilate, P::erode}));
    EXPECT_EQ(passes_of(MorphologyOperation::open), (std::vector<P>{P::erode, P::dilate}));
}

TEST(MorphologyFilter, RefusesRegionsOutsideTheImageAndHugeImages)
{
    MorphologyFilter& filter = filter_for(MorphologyShape::square);
    filter.upload(test::random_grey_image(10, 5, 1));
    filter.fill_outputs(poisons[0]);
    filter.binarise_and_pack({});
    EXPECT_THROW(filter.run_pass(MorphologyPass::dilate, {5, 0, 6, 1}), std::invalid_argument);
    EXPECT_THROW(filter.run_pass(MorphologyPass::dilate, {0, 0, 0, 1}), std::invalid_argument);
    EXPECT_NO_THROW(filter.run_pass(MorphologyPass::dilate, {9, 4, 1, 1}));

    Image huge{1, 1, 1, {0}};  // not allocated: the size check comes before any buffer
    huge.width = 1u << 15;
    huge.height = 1u << 16;  // 2^31 pixels: past what the kernels address
    EXPECT_THROW(filter.upload(huge), std::runtime_error);
    EXPECT_THROW(filter.upload(Image{3, 2, 1, {0, 0}}), std::invalid_argument);
}

TEST(MorphologyFilter, StepsAreNamedAndCountTheirBytes)
{
    MorphologyFilter& filter = filter_for(MorphologyShape::diamond);
    const PipelineStep upload = filter.upload(test::random_grey_image(100, 3, 1));
    filter.fill_outputs(poisons[1]);
    const auto steps = filter.run({}, MorphologyOperation::open, whole_image(100, 3));
    PipelineStep download;
    filter.download(&download);
    ASSERT_EQ(steps.size(), 4u);
    EXPECT_EQ(upload.name, "upload");
    EXPECT_EQ(steps[0].name, "binarise and pack");
    EXPECT_EQ(steps[1].name, "erode (diamond)");
    EXPECT_EQ(steps[2].name, "dilate (diamond)");
    EXPECT_EQ(steps[3].name, "unpack");
    EXPECT_EQ(download.name, "download");
    EXPECT_EQ(filter.row_pitch(), 16u);  // 4 words of 32 pixels
    EXPECT_EQ(upload.bytes, 300u);
    EXPECT_EQ(steps[0].bytes, 300u + 48u);
    EXPECT_EQ(steps[1].bytes, 96u);
    EXPECT_EQ(steps[3].bytes, 48u + 300u);
    const auto timings = step_timings(steps);
    ASSERT_EQ(timings.size(), 4u);
    for (const auto& timing : timings) EXPECT_LE(timing.start_ns, timing.end_ns) << timing.name;
}

TEST(MedianStepTimings, MedianGapAndDurationOfEachStep)
{
    const std::vector<std::vector<StepTiming>> runs{
        {{"upload", 1000, 1100, 8}, {"kernel", 1200, 1500, 4}},
        {{"upload", 5000, 5300, 8}, {"kernel", 5700, 5900, 4}},
        {{"upload", 9000, 9200, 8}, {"kernel", 9250, 9350, 4}},
    };
    const auto medians = median_step_timings(runs);
    ASSERT_EQ(medians.size(), 2u);
    EXPECT_EQ(medians[0].start_ns, 0u);
    EXPECT_EQ(medians[0].end_ns, 200u);    // durations 100, 300, 200
    EXPECT_EQ(medians[1].start_ns, 300u);  // gaps 100, 400, 50
    EXPECT_EQ(medians[1].end_ns, 500u);    // durations 300, 200, 100
    EXPECT_EQ(medians[1].name, "kernel");
    EXPECT_EQ(medians[1].bytes, 4u);

    auto different = runs;
    different[1][1].name = "other";
    EXPECT_THROW(median_step_timings(different), std::invalid_argument);
    EXPECT_TRUE(median_step_timings({}).empty());
}

}  // namespace
}  // namespace sdk
