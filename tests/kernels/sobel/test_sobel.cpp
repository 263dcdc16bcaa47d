// SPDX-License-Identifier: Apache-2.0
// Every Sobel kernel against the C++ reference, bit for bit, on awkward sizes and every border.
#include "kernels/sobel/sobel_filter.hpp"
#include "kernels/image_views.hpp"
#include "kernels/sobel/sobel_reference.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/profiling.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <tuple>
#include <utility>

namespace sdk {
namespace {

using test::test_context;

// A value no kernel writes for these inputs would hide nothing: 0x5A is a plausible dX, but the
// test runs twice with different poison so a pixel left unwritten cannot match both times.
constexpr std::uint8_t poisons[] = {0x5A, 0xA5};

// Building a program costs ~0.3 s on PoCL: keep one filter per variant and border.
SobelFilter& filter_for(SobelVariant variant, Border border, MemoryMode memory = MemoryMode::copy)
{
    // Never destroyed: releasing OpenCL objects from static destructors at exit races the
    // runtime's own teardown (oclgrind aborts on it).
    static auto* filters =
        new std::map<std::tuple<SobelVariant, Border, MemoryMode>, std::unique_ptr<SobelFilter>>;
    auto& filter = (*filters)[{variant, border, memory}];
    if (!filter) filter = std::make_unique<SobelFilter>(test_context(), variant, border, memory);
    return *filter;
}

SobelGradients run_on_device(SobelFilter& filter, const Image& image, std::uint8_t poison)
{
    filter.upload(image);
    filter.fill_outputs(poison);
    filter.run();
    return filter.download();
}

// Random bytes, or (odd seeds) only 0 and 255, which drive gx and gy to their +-1020 limits.
Image test_image(std::size_t width, std::size_t height, std::uint32_t seed)
{
    Image image = test::random_grey_image(width, height, seed);
    if (seed % 2)
        for (auto& pixel : image.pixels) pixel = pixel < 128 ? 0 : 255;
    return image;
}

// A parameter's words as a test name: "16x4-packed" -> "16x4_packed".
std::string test_name(std::string name)
{
    for (auto& c : name)
        if (!isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

class SobelKernelTest
    : public ::testing::TestWithParam<std::tuple<SobelVariant, Border, MemoryMode>> {};

TEST_P(SobelKernelTest, MatchesReferenceOnAwkwardSizes)
{
    const auto [variant, border, memory] = GetParam();
    // The memory mode changes how the pixels cross, not the kernel: under oclgrind mapped and
    // pinned buffers cross with one border, every variant and size, and copies with them all.
    if (test::small_sizes_only() && memory != MemoryMode::copy && border != Border::replicate)
        GTEST_SKIP() << "under oclgrind, " << memory_mode_name(memory) << " runs with replicate";
    SobelFilter& filter = filter_for(variant, border, memory);
    std::uint32_t seed = 1;
    std::size_t turn = 0;  // under oclgrind one poison a size (all_or_one_in_turn)
    for (const auto& size : test::awkward_sizes()) {
        for (const std::uint8_t poison : test::all_or_one_in_turn(poisons, turn++)) {
            const Image image = test_image(size.width, size.height, seed++);
            const SobelGradients expected = sobel_reference(image, border);
            const SobelGradients actual = run_on_device(filter, image, poison);
            ASSERT_EQ(actual.dx, expected.dx) << "dX differs at " << test::size_name(size);
            ASSERT_EQ(actual.dy, expected.dy) << "dY differs at " << test::size_name(size);
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    AllVariantsAndBorders, SobelKernelTest,
    ::testing::Combine(::testing::Values(SobelVariant::no_vectors, SobelVariant::vector_16x1,
                                         SobelVariant::vector_16x4, SobelVariant::packed_16x4,
                                         SobelVariant::local_tile, SobelVariant::image),
                       ::testing::Values(Border::replicate, Border::reflect101, Border::constant,
                                         Border::none),
                       ::testing::Values(MemoryMode::copy, MemoryMode::map, MemoryMode::pinned)),
    [](const auto& test_info) {
        return test_name(variant_name(std::get<0>(test_info.param)) + "_" +
                         border_name(std::get<1>(test_info.param)) + "_" +
                         memory_mode_name(std::get<2>(test_info.param)));
    });

TEST(SobelMagnitudeKernel, MatchesHostMagnitudeForEveryGradientPair)
{
    // 256 x 256 pixels whose gradients sweep a wide range, including the extremes. Under
    // oclgrind 47 x 13, whose rows end in a partial run of 16 (the kernel's other path).
    const Image image = test::small_sizes_only() ? test_image(47, 13, 7) : test_image(256, 256, 7);
    for (const auto memory : {MemoryMode::copy, MemoryMode::map, MemoryMode::pinned}) {
        SobelFilter& filter = filter_for(SobelVariant::vector_16x1, Border::replicate, memory);
        const SobelGradients gradients = run_on_device(filter, image, 0);
        filter.run_magnitude();
        EXPECT_EQ(filter.download_magnitude(), gradient_magnitude(gradients))
            << memory_mode_name(memory);
    }
}

TEST(MemoryMode, AutoFollowsTheDevicesUnifiedMemory)
{
    const cl::Device& device = test_context().device;
    const bool unified = device.getInfo<CL_DEVICE_HOST_UNIFIED_MEMORY>() == CL_TRUE;
    const MemoryChoice automatic = choose_memory_mode(MemoryMode::automatic, device);
    EXPECT_EQ(automatic.mode, unified ? MemoryMode::map : MemoryMode::pinned);
    EXPECT_FALSE(automatic.reason.empty());
    EXPECT_EQ(choose_memory_mode(MemoryMode::map, device).mode, MemoryMode::map);
    EXPECT_EQ(choose_memory_mode(MemoryMode::copy, device).mode, MemoryMode::copy);
    EXPECT_EQ(choose_memory_mode(MemoryMode::pinned, device).mode, MemoryMode::pinned);
}

TEST(MemoryMode, MapAndCopyGiveIdenticalOutputs)
{
    // Under oclgrind a size with partial work-groups across and down, as 333 x 257 has.
    const Image image =
        test::small_sizes_only() ? test_image(47, 13, 11) : test_image(333, 257, 11);
    const SobelGradients copied = run_on_device(
        filter_for(SobelVariant::packed_16x4, Border::reflect101, MemoryMode::copy), image, 0x11);
    const SobelGradients mapped = run_on_device(
        filter_for(SobelVariant::packed_16x4, Border::reflect101, MemoryMode::map), image, 0x22);
    EXPECT_EQ(copied.dx, mapped.dx);
    EXPECT_EQ(copied.dy, mapped.dy);
}

TEST(SobelReference, KnownAnswerOnA3x3Ramp)
{
    const Image ramp{3, 3, 1, {10, 20, 30, 40, 50, 60, 70, 80, 90}};
    // Centre: gx = (30 + 120 + 90) - (10 + 80 + 70) = 80; gy = (10 + 40 + 30) - (70 + 160 + 90) =
    // -240.
    const SobelGradients none = sobel_reference(ramp, Border::none);
    EXPECT_EQ(none.dx, (std::vector<std::int8_t>{0, 0, 0, 0, 10, 0, 0, 0, 0}));
    EXPECT_EQ(none.dy, (std::vector<std::int8_t>{0, 0, 0, 0, -30, 0, 0, 0, 0}));
    // Top-left with replicate: gx = (20 + 40 + 50) - (10 + 20 + 40) = 40, gy = 50 - 170 = -120.
    const SobelGradients replicate = sobel_reference(ramp, Border::replicate);
    EXPECT_EQ(replicate.dx[0], 5);
    EXPECT_EQ(replicate.dy[0], -15);
}

TEST(SobelReference, ShiftRoundsTowardsMinusInfinity)
{
    // Only the top-left pixel is 1: at the centre gx = -1 and gy = 1, so dX = -1 >> 3 = -1.
    const Image image{3, 3, 1, {1, 0, 0, 0, 0, 0, 0, 0, 0}};
    const SobelGradients gradients = sobel_reference(image, Border::none);
    EXPECT_EQ(gradients.dx[4], -1);
    EXPECT_EQ(gradients.dy[4], 0);
}

void expect_known_answer(SobelVariant variant)
{
    const Image ramp{3, 3, 1, {10, 20, 30, 40, 50, 60, 70, 80, 90}};
    const SobelGradients gradients = run_on_device(filter_for(variant, Border::none), ramp, 0x77);
    EXPECT_EQ(gradients.dx, (std::vector<std::int8_t>{0, 0, 0, 0, 10, 0, 0, 0, 0}))
        << variant_name(variant);
    EXPECT_EQ(gradients.dy, (std::vector<std::int8_t>{0, 0, 0, 0, -30, 0, 0, 0, 0}))
        << variant_name(variant);
}

TEST(SobelKernels, KnownAnswerOnTheDevice)
{
    for (const auto variant :
         {SobelVariant::no_vectors, SobelVariant::vector_16x1, SobelVariant::vector_16x4,
          SobelVariant::packed_16x4, SobelVariant::local_tile})
        expect_known_answer(variant);
}

// Apart, because its name keeps it out of the main oclgrind run (tests/CMakeLists.txt).
TEST(SobelKernels, KnownAnswerThroughAnImage)
{
    expect_known_answer(SobelVariant::image);
}

// Where the pixels come from must not change a single output: every variant gives what 16x1
// gives, on an image several work-groups wide and high with a partial group at the right and
// bottom, with each border.
class SobelVariantsAgree : public ::testing::TestWithParam<SobelVariant> {};

TEST_P(SobelVariantsAgree, WithTheBuffer16x1AcrossWorkGroups)
{
    const SobelVariant variant = GetParam();
    const Image image = test_image(16 * 32 * 2 + 21, 8 * 3 + 5, 13);
    for (const auto border :
         {Border::replicate, Border::reflect101, Border::constant, Border::none}) {
        const SobelGradients expected =
            run_on_device(filter_for(SobelVariant::vector_16x1, border), image, poisons[0]);
        const SobelGradients actual = run_on_device(filter_for(variant, border), image, poisons[1]);
        EXPECT_EQ(actual.dx, expected.dx) << border_name(border);
        EXPECT_EQ(actual.dy, expected.dy) << border_name(border);
    }
}

INSTANTIATE_TEST_SUITE_P(EveryVariant, SobelVariantsAgree,
                         ::testing::Values(SobelVariant::no_vectors, SobelVariant::vector_16x4,
                                           SobelVariant::packed_16x4, SobelVariant::local_tile,
                                           SobelVariant::image),
                         [](const auto& test_info) {
                             return test_name(variant_name(test_info.param));
                         });

// The local variant's tile is sized for the work-group shape that runs: every candidate shape,
// and one the device refuses for its local memory, named as such.
TEST(SobelFilter, LocalTileFollowsTheWorkGroupShape)
{
    SobelFilter filter(test_context(), SobelVariant::local_tile, Border::reflect101);
    // Under oclgrind, which runs a work-group's barriers one work-item at a time, 100 x 21: still
    // several groups across for the narrow shapes and a partial group at the right and bottom
    // for every shape.
    const Image image = test::small_sizes_only() ? test_image(100, 21, 5) : test_image(300, 41, 5);
    const SobelGradients expected = sobel_reference(image, Border::reflect101);
    filter.upload(image);
    for (const auto& [x, y] :
         {std::pair<std::size_t, std::size_t>{32, 8}, {4, 2}, {1, 1}, {128, 1}, {16, 16}}) {
        // Shrunk where the kernel runs fewer work-items a group (rusticl: 32): the tile
        // follows whatever shape runs.
        const WorkGroupShape shape = filter.fit_work_group(x, y);
        filter.fill_outputs(poisons[1]);
        filter.run();
        const SobelGradients actual = filter.download();
        EXPECT_EQ(actual.dx, expected.dx) << describe(shape);
        EXPECT_EQ(actual.dy, expected.dy) << describe(shape);
    }
    // The widest group the device runs: its tile, (16 x + 2) * 3 bytes, outgrows oclgrind's
    // 32 KiB of local memory but not PoCL's 1 MiB. Refused either for its tile or, where the
    // compiled kernel's own limit binds first (NVIDIA: sobel_local runs at most 256 work-items a
    // group; rusticl 32), for its size; the message names which. A tile that fits is never the
    // reason.
    const DeviceLimits limits = device_limits(test_context().device);
    const std::size_t widest =
        std::min(limits.max_work_group_size, limits.max_work_item_sizes.at(0));
    const bool tile_fits = (16 * widest + 2) * 3 <= limits.local_memory_bytes;
    try {
        filter.set_work_group(widest, 1);
        EXPECT_TRUE(tile_fits) << "accepted a tile larger than local memory";
    } catch (const UsageError& error) {
        const std::string message = error.what();
        EXPECT_TRUE((!tile_fits && message.find("bytes of local memory") != std::string::npos) ||
                    message.find("work-items a group on this device") != std::string::npos)
            << message;
    }
}

// Where the device cannot see the buffer as an image (PoCL, oclgrind), each run copies it into
// one, and the copy's event is there to be timed; where it can, there is no copy.
TEST(SobelFilter, ImageVariantTimesItsCopyIntoTheImage)
{
    SobelFilter& filter = filter_for(SobelVariant::image, Border::replicate);
    filter.upload(test_image(40, 3, 3));
    filter.run().wait();
    EXPECT_EQ(filter.last_copy()() != nullptr, !filter.image_is_view());
    if (!filter.image_is_view()) {
        EXPECT_GE(event_times(filter.last_copy()).run_ms, 0.0);
    }
    EXPECT_FALSE(filter_for(SobelVariant::vector_16x1, Border::replicate).last_copy()());
}

// Where the device can see a buffer as an image, the view holds the buffer's pixels, its padded
// rows read as the image's rows; elsewhere (PoCL, oclgrind) there is no view to check.
TEST(SobelImageView, ReadsTheBuffersRowsWhereTheDeviceMakesOne)
{
    const OpenClContext& cl = test_context();
    const std::size_t width = 70, height = 3, row_pitch = 128;
    std::vector<std::uint8_t> rows(row_pitch * height);
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<std::uint8_t>(i * 7 + 1);
    cl::Buffer luminance(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, rows.size(),
                         rows.data());
    const cl::Image2D view = image_view_of(cl, luminance, width, height, row_pitch);
    if (!view()) GTEST_SKIP() << "this device makes no image from a buffer";
    std::vector<std::uint8_t> pixels(width * height);
    cl.queue.enqueueReadImage(view, CL_TRUE, {0, 0, 0}, {width, height, 1}, 0, 0, pixels.data());
    for (std::size_t y = 0; y < height; ++y)
        for (std::size_t x = 0; x < width; ++x)
            ASSERT_EQ(pixels[y * width + x], rows[y * row_pitch + x]) << x << ", " << y;
}

TEST(SobelVariants, OnlyTheImageVariantCanBeUnavailable)
{
    const OpenClContext& cl = test_context();
    EXPECT_EQ(sobel_variant_unavailable(cl, SobelVariant::local_tile, 1u << 20, 1u << 20), "");
    const std::size_t max_width = cl.device.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>();
    const std::string too_wide =
        sobel_variant_unavailable(cl, SobelVariant::image, max_width + 1, 1);
    EXPECT_NE(too_wide.find("at most"), std::string::npos) << too_wide;
    EXPECT_EQ(sobel_variant_unavailable(cl, SobelVariant::image, 17, 5),
              "");  // PoCL and oclgrind have images
    EXPECT_EQ(sobel_variant_named("local"), SobelVariant::local_tile);
    EXPECT_EQ(sobel_variant_named("image"), SobelVariant::image);

    std::string note;
    EXPECT_EQ(runnable_sobel_variant(cl, "image", max_width + 1, 1, note),
              SobelVariant::vector_16x4);
    EXPECT_NE(note.find("at most"), std::string::npos) << note;
    EXPECT_NE(note.find(": variant image runs as 16x4"), std::string::npos) << note;
    note.clear();
    EXPECT_EQ(runnable_sobel_variant(cl, "image", 17, 5, note), SobelVariant::image);
    EXPECT_EQ(runnable_sobel_variant(cl, "local", max_width + 1, 1, note),
              SobelVariant::local_tile);
    EXPECT_EQ(note, "");
}

// The tuner uploads once and then tries each shape: a shape set after the upload must be the
// one that runs, and give the same answer.
// The luminance comes back as it went in, in tight rows, from a buffer whose rows are a pitch
// apart (kernels/luminance_buffer.hpp), in every memory mode: what --verify and --save-raw read.
TEST(SobelFilter, DownloadsTheLuminanceItRead)
{
    const Image image = test::random_grey_image(37, 5, 11);
    for (const MemoryMode memory : {MemoryMode::copy, MemoryMode::map, MemoryMode::pinned}) {
        SobelFilter& filter = filter_for(SobelVariant::vector_16x1, Border::replicate, memory);
        filter.upload(image);
        ASSERT_GT(filter.row_pitch(), image.width);  // the rows padded on the device
        const Image luminance = filter.download_luminance();
        EXPECT_EQ(luminance.width, image.width);
        EXPECT_EQ(luminance.height, image.height);
        EXPECT_EQ(luminance.pixels, image.pixels) << memory_mode_name(memory);
    }
}

TEST(SobelFilter, WorkGroupSetAfterUploadAppliesToTheNextRun)
{
    SobelFilter filter(test_context(), SobelVariant::packed_16x4, Border::replicate);
    const Image image = test_image(200, 37, 11);
    const SobelGradients expected = sobel_reference(image, Border::replicate);
    filter.upload(image);
    for (const auto& [x, y] : {std::pair<std::size_t, std::size_t>{32, 1}, {4, 2}}) {
        filter.set_work_group(x, y);
        EXPECT_EQ(filter.launch_size().local[0], x);
        EXPECT_EQ(filter.launch_size().local[1], y);
        filter.fill_outputs(poisons[0]);
        filter.run();
        const SobelGradients actual = filter.download();
        EXPECT_EQ(actual.dx, expected.dx) << x << "x" << y;
        EXPECT_EQ(actual.dy, expected.dy) << x << "x" << y;
    }
}

// A work-group the kernel cannot run is a usage error naming the limit, not a silently smaller one.
TEST(SobelFilter, RefusesAWorkGroupLargerThanTheKernelRuns)
{
    SobelFilter& filter = filter_for(SobelVariant::vector_16x1, Border::replicate);
    // the kernel's is no more
    const std::size_t limit = device_limits(test_context().device).max_work_group_size;
    try {
        filter.set_work_group(limit * 2, 1);
        ADD_FAILURE() << "accepted " << limit * 2 << "x1";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("work-items a group on this device"),
                  std::string::npos)
            << error.what();
    }
    EXPECT_THROW(filter.set_work_group(0, 8), UsageError);
    // What fit_work_group makes of the default runs as named (32x8 itself only where the kernel
    // runs 256 work-items a group: rusticl's run 32).
    const WorkGroupShape fitted = filter.fit_work_group(32, 8);
    EXPECT_NO_THROW(filter.set_work_group(fitted.x, fitted.y));
}

TEST(SobelReference, MagnitudeIsTheExactIntegerRoot)
{
    EXPECT_EQ(gradient_magnitude(std::int8_t{3}, std::int8_t{4}), 5);
    EXPECT_EQ(gradient_magnitude(std::int8_t{-128}, std::int8_t{-128}),
              181);  // sqrt(32768) = 181.02
    EXPECT_EQ(gradient_magnitude(std::int8_t{1}, std::int8_t{1}), 1);
    for (int dx = -128; dx < 128; ++dx)
        for (int dy = -128; dy < 128; ++dy) {
            const int root =
                gradient_magnitude(static_cast<std::int8_t>(dx), static_cast<std::int8_t>(dy));
            ASSERT_LE(root * root, dx * dx + dy * dy);
            ASSERT_GT((root + 1) * (root + 1), dx * dx + dy * dy);
        }
}

TEST(DeviceLimits, NamesBothSizesWhenABufferExceedsTheDevicesLargestAllocation)
{
    // Every filter calls check_fits_device before allocating; PoCL's limit moves with the free
    // memory of the machine, so the test asks for one byte more than whatever it is now.
    const std::uint64_t limit = test_context().max_allocation_bytes();
    try {
        check_fits_device(test_context(), limit + 1, "an image of 70000x70000");
        FAIL() << "no exception";
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("an image of 70000x70000"), std::string::npos) << message;
        EXPECT_NE(message.find(std::to_string(limit + 1)), std::string::npos) << message;
        EXPECT_NE(message.find(std::to_string(limit)), std::string::npos) << message;
        EXPECT_NE(message.find("CL_DEVICE_MAX_MEM_ALLOC_SIZE"), std::string::npos) << message;
    }
    EXPECT_NO_THROW(check_fits_device(test_context(), limit, "an image"));
}

TEST(SobelVariants, TheTableListsEveryVariantInTheEnumsOrderAndNamesRoundTrip)
{
    // traits_of indexes the table by the enum's value.
    const std::vector<SobelVariantTraits>& table = sobel_variants();
    ASSERT_EQ(table.size(), 6u);
    for (std::size_t i = 0; i < table.size(); ++i) {
        EXPECT_EQ(static_cast<std::size_t>(table[i].variant), i);
        EXPECT_EQ(&traits_of(table[i].variant), &table[i]);
        EXPECT_EQ(sobel_variant_named(variant_name(table[i].variant)), table[i].variant);
    }
    EXPECT_FALSE(find_sobel_variant("texture").has_value());
    EXPECT_THROW(sobel_variant_named("texture"), std::invalid_argument);
    EXPECT_EQ(traits_of(SobelVariant::packed_16x4).outputs_x, 16u);
    EXPECT_EQ(traits_of(SobelVariant::packed_16x4).outputs_y, 4u);
}

TEST(SobelFilter, RefusesAnImageLargerThanTheDeviceCanAllocate)
{
    // Not allocated on the host: the size check comes before any buffer.
    Image huge{1, 1, 1, {0}};
    huge.width = 1u << 15;
    huge.height = 1u << 16;  // 2^31 pixels: past what the kernels address
    SobelFilter& filter = filter_for(SobelVariant::vector_16x1, Border::replicate);
    EXPECT_THROW(filter.upload(huge), std::runtime_error);
}

}  // namespace
}  // namespace sdk
