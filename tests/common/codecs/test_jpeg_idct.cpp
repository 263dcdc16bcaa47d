// SPDX-License-Identifier: Apache-2.0
// jpeg_idct.cl against its C++ contract (common/codecs/jpeg_idct/jpeg_idct_reference.hpp), bit for
// bit: random coefficients on every awkward size, a real JPEG's, whole images and bands starting
// inside a row of blocks, rows padded to 64 and rows `width` bytes apart, with the output
// poisoned so that a byte the kernel leaves unwritten, or writes past the end, shows.
#include "common/codecs/jpeg_idct/jpeg_idct_filter.hpp"
#include "common/codecs/jpeg_idct/jpeg_idct_reference.hpp"
#include "common/runtime/transfers.hpp"
#include "codec_builders.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
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
                ASSERT_EQ(actual[row_pitch * band.count + i], kPoison)
                    << where << ": written past the end";
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
    const std::pair<std::size_t, std::uint64_t> cases[] = {{1030, 100000}, {16384, 134217728}};
    for (const auto& [width, allocation] : cases) {
        JpegLuminanceCoefficients plane;
        plane.width = width;
        plane.height = 9000;
        plane.blocks_wide = (width + 7) / 8;
        plane.blocks_high = (plane.height + 7) / 8;
        const std::uint64_t rows = rows_that_fit(JpegIdctFilter::row_footprint(width), allocation);
        ASSERT_GT(rows, 0u);
        for (std::size_t first = 0; first < 16; ++first)
            EXPECT_LE(JpegIdctFilter::coefficient_bytes(plane, first, rows), allocation)
                << width << " wide, " << allocation << " bytes, " << rows << " rows from row "
                << first;
    }
}

// A 32x32 grey photo of four squares, light and dark, each two blocks wide, with grain on top:
// blocks of one bright square each, whose DC term a coarser quantiser takes past 255.
std::vector<std::uint8_t> grey_squares_jpeg(int quality)
{
    codectest::JpegSpec spec;
    spec.width = 32;
    spec.height = 32;
    spec.components = 1;
    spec.quality = quality;
    const Image noise = test::random_grey_image(32, 32, 11);
    for (int y = 0; y < 32; ++y)
        for (int x = 0; x < 32; ++x) {
            const int square = ((x / 16) + (y / 16)) % 2 ? 235 : 20;
            const int grain = noise.pixels[static_cast<std::size_t>(y * 32 + x)] / 16 - 8;
            spec.pixels.push_back(static_cast<std::uint8_t>(std::clamp(square + grain, 0, 255)));
        }
    return codectest::build_jpeg(spec);
}

// The file with its first quantisation table's DC entry set to `value`.
std::vector<std::uint8_t> with_dc_quantiser(std::vector<std::uint8_t> file, std::uint8_t value)
{
    for (std::size_t i = 0; i + 5 < file.size(); ++i)
        if (file[i] == 0xFF && file[i + 1] == 0xDB) {
            file[i + 5] = value;  // after the marker, the length and the table's precision and id
            return file;
        }
    ADD_FAILURE() << "no DQT marker";
    return file;
}

// The device's luminance of a grey JPEG against the host's libjpeg decoding it (which decodes
// with libjpeg-turbo's SIMD IDCT, as the reference computes), and the reference too.
void expect_host_bytes(const std::vector<std::uint8_t>& file, const std::string& what)
{
    const auto plane = decode_jpeg_luminance_coefficients(file.data(), file.size(), what);
    ASSERT_TRUE(plane) << what;
    const std::vector<std::uint8_t> host = codectest::decode_jpeg_directly(file);
    const Image reference = luminance_from_coefficients(*plane);
    for (std::size_t i = 0; i < host.size(); ++i)
        ASSERT_EQ(reference.pixels[i], host[i]) << what << ": the reference at pixel " << i;
    if (!idct_exact_for(*plane)) return;  // decoded on the host (decoding_ahead.hpp)
    const OpenClContext& cl = test_context();
    const std::size_t bytes = plane->width * plane->height;
    cl::Buffer luminance(cl.context, CL_MEM_READ_WRITE, bytes);
    idct().upload(*plane, 0, plane->height);
    idct().run(plane->width, luminance).wait();
    std::vector<std::uint8_t> device(bytes);
    cl.queue.enqueueReadBuffer(luminance, CL_TRUE, 0, bytes, device.data());
    for (std::size_t i = 0; i < host.size(); ++i)
        ASSERT_EQ(device[i], host[i]) << what << ": the device at pixel " << i;
}

// Samples past +-512 before the offset saturate, as the host's libjpeg-turbo (SIMD) decodes
// them, where libjpeg's C range limit wraps them: white became black (issue 47, item 2).
TEST(JpegIdct, SaturatesAsTheHostsLibjpegOnEveryQuality)
{
    for (int quality = 1; quality <= 100; ++quality)
        expect_host_bytes(grey_squares_jpeg(quality), "q" + std::to_string(quality));
}

// Its DC quantiser made 5 (as if the file's DQT were edited): the bright blocks' samples reach
// 535 + 128, which libjpeg's C code wrapped to 0 and its SIMD code saturates to 255.
TEST(JpegIdct, SaturatesAsTheHostsLibjpegWithACoarserDcQuantiser)
{
    for (int quality = 1; quality <= 100; ++quality)
        expect_host_bytes(with_dc_quantiser(grey_squares_jpeg(quality), 5),
                          "q" + std::to_string(quality) + ", DC quantiser 5");
}

// Beyond what any encoder writes, where the host's 16-bit steps wrap or saturate: the reference
// still gives the host's bytes.
TEST(JpegIdct, TheReferenceIsTheHostsLibjpegForCraftedQuantisers)
{
    for (const int dc : {40, 128, 255})
        for (int quality : {1, 50, 100}) {
            const auto file =
                with_dc_quantiser(grey_squares_jpeg(quality), static_cast<std::uint8_t>(dc));
            const auto plane = decode_jpeg_luminance_coefficients(file.data(), file.size(), "");
            ASSERT_TRUE(plane);
            EXPECT_EQ(luminance_from_coefficients(*plane).pixels,
                      codectest::decode_jpeg_directly(file))
                << "q" << quality << ", DC quantiser " << dc;
        }
}

}  // namespace
}  // namespace sdk
