// SPDX-License-Identifier: Apache-2.0
// jpeg_idct.cl against its C++ contract (kernels/jpeg_idct/jpeg_idct_reference.hpp), bit for bit:
// random coefficients on every awkward size, a real JPEG's, whole images and bands starting
// inside a row of blocks, rows padded to 64 and rows `width` bytes apart, with the output
// poisoned so that a byte the kernel leaves unwritten, or writes past the end, shows.
#include "kernels/jpeg_idct/jpeg_idct_filter.hpp"
#include "kernels/jpeg_idct/jpeg_idct_reference.hpp"
#include "common/runtime/transfers.hpp"
#include "codec_builders.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace sdk {
namespace {

using test::test_context;

constexpr std::uint8_t kPoison = 0xA5;

JpegIdctFilter& idct()
{
    // Never destroyed: releasing OpenCL objects from static destructors at exit races the
    // runtime's own teardown (oclgrind crashes in it).
    static auto* instance = new JpegIdctFilter(test_context(), MemoryMode::copy);
    return *instance;
}

// Random blocks within the exact range: quantisers 1..16, coefficients -16..16, and every
// seventh block a DC term alone far out, whose samples the range limit clamps.
JpegLuminanceCoefficients random_plane(std::size_t width, std::size_t height, std::uint32_t seed)
{
    std::mt19937 generator(seed);
    JpegLuminanceCoefficients plane;
    plane.width = width;
    plane.height = height;
    plane.blocks_wide = (width + 7) / 8;
    plane.blocks_high = (height + 7) / 8;
    for (auto& q : plane.quantisation) q = static_cast<std::uint16_t>(1 + generator() % 16);
    plane.coefficients.resize(plane.blocks_wide * plane.blocks_high * 64);
    for (std::size_t block = 0; block < plane.coefficients.size() / 64; ++block)
        for (int k = 0; k < 64; ++k)
            plane.coefficients[block * 64 + k] =
                block % 7 == 3 ? static_cast<std::int16_t>(k == 0 ? (block % 2 ? 60 : -60) : 0)
                               : static_cast<std::int16_t>(static_cast<int>(generator() % 33) - 16);
    return plane;
}

// The kernel's rows first_row .. first_row + rows - 1 against the reference's, with pitches
// 64-aligned and tight.
void expect_equal_to_reference(const JpegLuminanceCoefficients& plane, const std::string& what)
{
    ASSERT_TRUE(idct_exact_for(plane)) << what;
    const Image expected = luminance_from_coefficients(plane);
    const std::size_t width = plane.width;
    const std::size_t height = plane.height;
    struct Rows {
        std::size_t first, count;
    };
    std::vector<Rows> bands{{0, height}};
    if (height > 3) bands.push_back({1, height - 2});  // starts and ends inside a block row
    if (height > 9) bands.push_back({9, height - 9});
    const OpenClContext& cl = test_context();
    for (const std::size_t row_pitch : {pitch_for(width), width})
        for (const Rows& band : bands) {
            constexpr std::size_t guard = 64;
            const std::size_t bytes = row_pitch * band.count + guard;
            const std::vector<std::uint8_t> poison(bytes, kPoison);
            cl::Buffer luminance(cl.context, CL_MEM_READ_WRITE, bytes);
            cl.queue.enqueueWriteBuffer(luminance, CL_TRUE, 0, bytes, poison.data());

            idct().upload(plane, band.first, band.count);
            idct().run(row_pitch, luminance).wait();

            std::vector<std::uint8_t> actual(bytes);
            cl.queue.enqueueReadBuffer(luminance, CL_TRUE, 0, bytes, actual.data());
            const std::string where = what + " pitch " + std::to_string(row_pitch) + " rows " +
                                      std::to_string(band.first) + "+" + std::to_string(band.count);
            for (std::size_t y = 0; y < band.count; ++y)
                for (std::size_t x = 0; x < row_pitch; ++x) {
                    const std::uint8_t want =
                        x < width ? expected.pixels[(band.first + y) * width + x] : 0;
                    ASSERT_EQ(actual[y * row_pitch + x], want)
                        << where << " at (" << x << ", " << y << ")";
                }
            for (std::size_t i = 0; i < guard; ++i)
                ASSERT_EQ(actual[row_pitch * band.count + i], kPoison) << where << ": written past the end";
        }
}

TEST(JpegIdct, EqualsTheReferenceOnRandomBlocks)
{
    std::uint32_t seed = 1;
    for (const auto& size : test::awkward_sizes())
        expect_equal_to_reference(random_plane(size.width, size.height, seed++),
                                  test::size_name(size));
}

TEST(JpegIdct, EqualsTheReferenceOnAPhotosCoefficients)
{
    codectest::JpegSpec spec;
    spec.width = 33;
    spec.height = 47;
    spec.components = 3;
    spec.subsampled = true;
    spec.quality = 92;
    spec.pixels = test::random_grey_image(33, 47 * 3, 5).pixels;  // 3 bytes a pixel
    const auto file = codectest::build_jpeg(spec);
    const auto plane = decode_jpeg_luminance_coefficients(file.data(), file.size(), "33x47.jpg");
    ASSERT_TRUE(plane);
    expect_equal_to_reference(*plane, "33x47 4:2:0 q92");
}

// Every band the plan allows, starting on any row of a block, uploads blocks that fit the
// allocation the plan was made for: a band's first and last rows round out to whole blocks
// (issue 47, item 3: a 16384x8300 JPEG under 128 MiB asked for 134479872 bytes).
TEST(JpegIdct, ABandsBlocksFitTheAllocationItsPlanCounted)
{
    for (const std::size_t width : {std::size_t{1030}, std::size_t{16384}})
        for (const std::uint64_t allocation : {std::uint64_t{100000}, std::uint64_t{134217728}}) {
            JpegLuminanceCoefficients plane;
            plane.width = width;
            plane.height = 9000;
            plane.blocks_wide = (width + 7) / 8;
            plane.blocks_high = (plane.height + 7) / 8;
            const std::uint64_t rows = rows_that_fit(JpegIdctFilter::row_footprint(width), allocation);
            ASSERT_GT(rows, 0u);
            for (std::size_t first = 0; first < 16; ++first)
                EXPECT_LE(JpegIdctFilter::coefficient_bytes(plane, first, rows), allocation)
                    << width << " wide, " << allocation << " bytes, " << rows << " rows from row " << first;
        }
}

}  // namespace
}  // namespace sdk
