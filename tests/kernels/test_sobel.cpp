// Every Sobel kernel against the C++ reference, bit for bit, on awkward sizes and every border.
#include "kernels/sobel/sobel_filter.hpp"
#include "kernels/sobel/sobel_reference.hpp"
#include "common/runtime/errors.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

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

class SobelKernelTest
    : public ::testing::TestWithParam<std::tuple<SobelVariant, Border, MemoryMode>> {};

TEST_P(SobelKernelTest, MatchesReferenceOnAwkwardSizes)
{
    const auto [variant, border, memory] = GetParam();
    SobelFilter& filter = filter_for(variant, border, memory);
    std::uint32_t seed = 1;
    for (const auto& size : test::awkward_sizes()) {
        for (const std::uint8_t poison : poisons) {
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
                                         SobelVariant::vector_16x4, SobelVariant::packed_16x4),
                       ::testing::Values(Border::replicate, Border::reflect101, Border::constant,
                                         Border::none),
                       ::testing::Values(MemoryMode::copy, MemoryMode::map, MemoryMode::pinned)),
    [](const auto& test_info) {
        std::string name = variant_name(std::get<0>(test_info.param)) + "_" +
                           border_name(std::get<1>(test_info.param)) + "_" +
                           memory_mode_name(std::get<2>(test_info.param));
        for (auto& c : name)
            if (!isalnum(static_cast<unsigned char>(c))) c = '_';
        return name;
    });

TEST(SobelMagnitudeKernel, MatchesHostMagnitudeForEveryGradientPair)
{
    // 256 x 256 pixels whose gradients sweep a wide range, including the extremes.
    const Image image = test_image(256, 256, 7);
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
    const Image image = test_image(333, 257, 11);
    const SobelGradients copied =
        run_on_device(filter_for(SobelVariant::packed_16x4, Border::reflect101, MemoryMode::copy),
                      image, 0x11);
    const SobelGradients mapped =
        run_on_device(filter_for(SobelVariant::packed_16x4, Border::reflect101, MemoryMode::map),
                      image, 0x22);
    EXPECT_EQ(copied.dx, mapped.dx);
    EXPECT_EQ(copied.dy, mapped.dy);
}

TEST(SobelReference, KnownAnswerOnA3x3Ramp)
{
    const Image ramp{3, 3, 1, {10, 20, 30, 40, 50, 60, 70, 80, 90}};
    // Centre: gx = (30 + 120 + 90) - (10 + 80 + 70) = 80; gy = (10 + 40 + 30) - (70 + 160 + 90) = -240.
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

TEST(SobelKernels, KnownAnswerOnTheDevice)
{
    const Image ramp{3, 3, 1, {10, 20, 30, 40, 50, 60, 70, 80, 90}};
    for (const auto variant : {SobelVariant::no_vectors, SobelVariant::vector_16x1,
                               SobelVariant::vector_16x4, SobelVariant::packed_16x4}) {
        const SobelGradients gradients =
            run_on_device(filter_for(variant, Border::none), ramp, 0x77);
        EXPECT_EQ(gradients.dx, (std::vector<std::int8_t>{0, 0, 0, 0, 10, 0, 0, 0, 0}))
            << variant_name(variant);
        EXPECT_EQ(gradients.dy, (std::vector<std::int8_t>{0, 0, 0, 0, -30, 0, 0, 0, 0}))
            << variant_name(variant);
    }
}

// The tuner uploads once and then tries each shape: a shape set after the upload must be the
// one that runs, and give the same answer.
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
    const std::size_t limit =
        test_context().device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();  // the kernel's is no more
    try {
        filter.set_work_group(limit * 2, 1);
        ADD_FAILURE() << "accepted " << limit * 2 << "x1";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("work-items a group on this device"), std::string::npos)
            << error.what();
    }
    EXPECT_THROW(filter.set_work_group(0, 8), UsageError);
    EXPECT_NO_THROW(filter.set_work_group(32, 8));
}

TEST(SobelReference, MagnitudeIsTheExactIntegerRoot)
{
    EXPECT_EQ(gradient_magnitude(std::int8_t{3}, std::int8_t{4}), 5);
    EXPECT_EQ(gradient_magnitude(std::int8_t{-128}, std::int8_t{-128}), 181);  // sqrt(32768) = 181.02
    EXPECT_EQ(gradient_magnitude(std::int8_t{1}, std::int8_t{1}), 1);
    for (int dx = -128; dx < 128; ++dx)
        for (int dy = -128; dy < 128; ++dy) {
            const int root = gradient_magnitude(static_cast<std::int8_t>(dx), static_cast<std::int8_t>(dy));
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
