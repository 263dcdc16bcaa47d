// SPDX-License-Identifier: Apache-2.0
// convert.cl against its C++ contract (kernels/convert/convert_reference.hpp), bit for bit: a
// BMP's stored rows (24-bit BGR and 8-bit grey, bottom-up and top-down, random bytes in the row
// padding) to the pitched luminance, and an 8-bit image to an 8-bit BMP's rows, on every awkward
// size, with poisoned outputs so that a byte a kernel leaves unwritten shows.
#include "kernels/convert/convert_reference.hpp"
#include "kernels/convert/row_conversions.hpp"
#include "kernels/fir/fir_reference.hpp"
#include "common/imageio/bmp.hpp"
#include "common/runtime/transfers.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

namespace sdk {
namespace {

using test::test_context;

constexpr std::uint8_t kPoison = 0xA5;

RowConversions& conversions()
{
    // Never destroyed: releasing OpenCL objects from static destructors at exit races the
    // runtime's own teardown (oclgrind crashes in it).
    static auto* instance = new RowConversions(test_context());
    return *instance;
}

std::vector<std::uint8_t> random_bytes(std::size_t count, std::uint32_t seed)
{
    std::mt19937 generator(seed);
    std::vector<std::uint8_t> bytes(count);
    for (auto& byte : bytes) byte = static_cast<std::uint8_t>(generator());
    return bytes;
}

cl::Buffer device_copy(const std::vector<std::uint8_t>& bytes)
{
    const OpenClContext& cl = test_context();
    cl::Buffer buffer(cl.context, CL_MEM_READ_WRITE, bytes.size());
    cl.queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes.size(), bytes.data());
    return buffer;
}

std::vector<std::uint8_t> host_copy(const cl::Buffer& buffer, std::size_t bytes)
{
    std::vector<std::uint8_t> values(bytes);
    test_context().queue.enqueueReadBuffer(buffer, CL_TRUE, 0, bytes, values.data());
    return values;
}

struct Stored {
    BmpStorage storage;
    bool top_down;
};

class ToLuminanceTest : public ::testing::TestWithParam<Stored> {};

TEST_P(ToLuminanceTest, EqualsTheReferenceWithZeroPadding)
{
    std::uint32_t seed = 1;
    for (const auto& size : test::awkward_sizes()) {
        BmpLayout layout;
        layout.width = size.width;
        layout.height = size.height;
        layout.top_down = GetParam().top_down;
        layout.storage = GetParam().storage;
        const std::size_t bytes_per_pixel = layout.storage == BmpStorage::bgr24 ? 3 : 1;
        layout.stride = (size.width * bytes_per_pixel + 3) / 4 * 4;
        // Padding bytes random too: a kernel that reads them into pixels fails.
        const auto rows = random_bytes(layout.stride * size.height, seed++);
        // Rows padded to 64 (sobel), and rows `width` bytes apart (fir_float and
        // morphology_packed), where a row's last work-item must stop at the next row; guard
        // bytes after the image catch a write past its end.
        for (const std::size_t row_pitch : {pitch_for(size.width), std::size_t{size.width}}) {
            constexpr std::size_t guard = 64;
            const cl::Buffer luminance =
                device_copy(std::vector<std::uint8_t>(row_pitch * size.height + guard, kPoison));

            conversions().to_luminance(device_copy(rows), layout, luminance, row_pitch).wait();

            const auto actual = host_copy(luminance, row_pitch * size.height + guard);
            const Image expected = luminance_from_bmp_rows(rows.data(), layout);
            for (std::size_t y = 0; y < size.height; ++y)
                for (std::size_t x = 0; x < row_pitch; ++x) {
                    const std::uint8_t want =
                        x < size.width ? expected.pixels[y * size.width + x] : 0;
                    ASSERT_EQ(actual[y * row_pitch + x], want)
                        << test::size_name(size) << " pitch " << row_pitch << " at (" << x << ", "
                        << y << ")";
                }
            for (std::size_t i = 0; i < guard; ++i)
                ASSERT_EQ(actual[row_pitch * size.height + i], kPoison)
                    << test::size_name(size) << " pitch " << row_pitch << ": written past the end";
        }
    }
}

INSTANTIATE_TEST_SUITE_P(
    StoredRows, ToLuminanceTest,
    ::testing::Values(Stored{BmpStorage::bgr24, false}, Stored{BmpStorage::bgr24, true},
                      Stored{BmpStorage::grey8, false}, Stored{BmpStorage::grey8, true}),
    [](const auto& test_info) {
        return std::string(test_info.param.storage == BmpStorage::bgr24 ? "bgr24" : "grey8") +
               (test_info.param.top_down ? "_top_down" : "_bottom_up");
    });

TEST(ToBmpRows, EqualsTheReferenceWithZeroPadding)
{
    std::uint32_t seed = 100;
    for (const auto& size : test::awkward_sizes()) {
        const Image grey = test::random_grey_image(size.width, size.height, seed++);
        const std::size_t row_pitch = pitch_for(size.width);
        // The pitch's padding poisoned as well: it must not reach the file.
        std::vector<std::uint8_t> pitched(row_pitch * size.height, kPoison);
        for (std::size_t y = 0; y < size.height; ++y)
            std::copy_n(grey.pixels.data() + y * size.width, size.width,
                        pitched.data() + y * row_pitch);
        const std::size_t bytes = bmp_grey_stride(size.width) * size.height;
        const cl::Buffer rows = device_copy(std::vector<std::uint8_t>(bytes, kPoison));

        conversions()
            .to_bmp_rows(device_copy(pitched), size.width, size.height, row_pitch, rows)
            .wait();

        EXPECT_EQ(host_copy(rows, bytes), bmp_rows_from_grey(grey)) << test::size_name(size);
    }
}

TEST(ToLuminance, RefusesRowsThatNeedDecoding)
{
    BmpLayout layout;
    layout.width = layout.height = layout.stride = 4;
    const cl::Buffer buffer = device_copy(std::vector<std::uint8_t>(64));
    EXPECT_THROW(conversions().to_luminance(buffer, layout, buffer, 64), std::invalid_argument);
}

// 8 bits to floats: each value exactly, the padding past the width 0, every pitch byte written.
TEST(ToFloat, EqualsThePixelsWithZeroPadding)
{
    std::uint32_t seed = 200;
    for (const auto& size : test::awkward_sizes()) {
        const Image grey = test::random_grey_image(size.width, size.height, seed++);
        const std::size_t float_pitch = size.width + 5;
        const std::vector<float> poison(float_pitch * size.height, std::nanf(""));
        const OpenClContext& cl = test_context();
        cl::Buffer floats(cl.context, CL_MEM_READ_WRITE, poison.size() * sizeof(float));
        cl.queue.enqueueWriteBuffer(floats, CL_TRUE, 0, poison.size() * sizeof(float),
                                    poison.data());

        conversions()
            .to_float(device_copy(grey.pixels), size.width, size.height, size.width, floats,
                      float_pitch)
            .wait();

        std::vector<float> values(poison.size());
        cl.queue.enqueueReadBuffer(floats, CL_TRUE, 0, values.size() * sizeof(float),
                                   values.data());
        for (std::size_t y = 0; y < size.height; ++y)
            for (std::size_t x = 0; x < float_pitch; ++x) {
                const float expected = x < size.width ? grey.pixels[y * size.width + x] : 0.0f;
                ASSERT_EQ(values[y * float_pitch + x], expected)
                    << test::size_name(size) << " at " << x << "," << y;
            }
    }
}

// Floats to 8 bits exactly as to_8bit rounds them on the host, the hard cases included: halves,
// a value just below a half (where float's own v + 0.5f rounds up), out of range, NaN, infinities.
TEST(To8Bit, EqualsTheHostRounding)
{
    std::vector<float> values = {
        0.0f,   0.5f,   1.5f,          2.5f,     0.49999997f, 254.49998f, 254.5f,
        255.4f, 255.5f, 300.0f,        -0.4f,    -0.5f,       -0.6f,      -7.0f,
        1e30f,  -1e30f, std::nanf(""), INFINITY, -INFINITY,   127.50001f, 8388607.5f};
    std::mt19937 generator(7);
    std::uniform_real_distribution<float> anywhere(-50.0f, 300.0f);
    while (values.size() < 23 * 13) values.push_back(anywhere(generator));
    const std::size_t width = 23, height = 13, row_pitch = 32;
    const OpenClContext& cl = test_context();
    cl::Buffer floats(cl.context, CL_MEM_READ_WRITE, values.size() * sizeof(float));
    cl.queue.enqueueWriteBuffer(floats, CL_TRUE, 0, values.size() * sizeof(float), values.data());
    const cl::Buffer image = device_copy(std::vector<std::uint8_t>(row_pitch * height, kPoison));

    conversions().to_8bit(floats, width, width, height, image, row_pitch).wait();

    const std::vector<std::uint8_t> pixels = host_copy(image, row_pitch * height);
    for (std::size_t y = 0; y < height; ++y)
        for (std::size_t x = 0; x < row_pitch; ++x) {
            const std::uint8_t expected =
                x < width ? to_8bit(static_cast<double>(values[y * width + x])) : 0;
            ASSERT_EQ(pixels[y * row_pitch + x], expected)
                << "value " << (x < width ? values[y * width + x] : 0.0f) << " at " << x << ","
                << y;
        }
}

}  // namespace
}  // namespace sdk
