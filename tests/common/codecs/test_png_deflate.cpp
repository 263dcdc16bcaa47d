// SPDX-License-Identifier: Apache-2.0
// png_deflate.cl through its host driver (common/codecs/png_deflate/png_deflate_encoder.hpp)
// against the C++ reference, bit for bit, on awkward chunk sizes, after a larger chunk has left its
// bits in the device's buffers and behind poisoned bytes already in the output, its rows
// filtered on the device as on the host; and a PNG written through the device's encoder decodes
// through libpng to the pixels.
#include "common/imageio/png.hpp"
#include "common/imageio/png_writer.hpp"
#include "common/codecs/png_deflate/png_deflate_encoder.hpp"
#include "common/codecs/png_deflate/png_deflate_reference.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <zlib.h>

#include <random>
#include <string>
#include <vector>

namespace sdk {
namespace {

using test::test_context;
using Bytes = std::vector<std::uint8_t>;

constexpr std::uint8_t kPoison = 0xA5;

PngDeflateEncoder& encoder()
{
    // Never destroyed: releasing OpenCL objects from static destructors at exit races the
    // runtime's own teardown (oclgrind crashes in it).
    static auto* instance = new PngDeflateEncoder(test_context());
    return *instance;
}

Bytes random_bytes(std::size_t size, std::uint32_t seed, int spread = 256)
{
    std::mt19937 generator(seed);
    Bytes bytes(size);
    for (auto& byte : bytes) byte = static_cast<std::uint8_t>(generator() % spread);
    return bytes;
}

// Random bytes with zero runs of every length around the cells' and deflate's limits.
Bytes bytes_with_runs(std::size_t size, std::uint32_t seed)
{
    std::mt19937 generator(seed);
    Bytes bytes;
    while (bytes.size() < size) {
        bytes.push_back(static_cast<std::uint8_t>(generator()));
        const std::size_t run = generator() % 600;
        bytes.insert(bytes.end(), run, static_cast<std::uint8_t>(generator() % 2));
    }
    bytes.resize(size);
    return bytes;
}

// Rows [first_row, height) of `image` through the device's encoder (filtered there) against the
// reference's block for the host's filtered rows, behind poisoned bytes already in the output,
// and the Adler-32 against zlib's.
void expect_same_as_reference(const Image& image, std::size_t first_row, bool last)
{
    const std::size_t count = image.height - first_row;
    Bytes filtered(count * (1 + image.width * static_cast<std::size_t>(image.channels)));
    filter_png_rows_up(image, first_row, count, filtered.data());
    Bytes expected(3, kPoison);
    deflate_chunk_reference(filtered.data(), filtered.size(), last, expected);
    Bytes actual(3, kPoison);
    const std::uint32_t adler = encoder().compress_rows(image, first_row, count, last, actual);
    ASSERT_EQ(actual.size(), expected.size());
    EXPECT_EQ(actual, expected);
    EXPECT_EQ(adler, adler32_z(adler32(0, nullptr, 0), filtered.data(), filtered.size()));
}

// An image of one row: its chunk is the filter byte and then `pixels` as they are (a first row
// is filtered against zeros), so any content of `pixels.size() + 1` bytes.
Image one_row(Bytes pixels)
{
    const std::size_t width = pixels.size();
    return Image{width, 1, 1, std::move(pixels)};
}

TEST(PngDeflate, SameBitsAsTheReference)
{
    const bool small = test::small_sizes_only();
    // First a chunk larger than all the others, so that every later one runs in buffers holding
    // its bits.
    expect_same_as_reference(one_row(random_bytes(small ? 3000 : 300000, 1)), 0, false);
    // Chunk sizes around the cells' and deflate's limits: a row of one pixel less.
    const std::size_t sizes[] = {2, 3, 257, 258, 259, 515, 516, 517, 1000, 2047};
    for (std::size_t size : sizes) {
        for (bool last : {false, true}) {
            SCOPED_TRACE("size " + std::to_string(size) + (last ? " last" : ""));
            const auto seed = static_cast<std::uint32_t>(size);
            expect_same_as_reference(one_row(random_bytes(size - 1, seed)), 0, last);
            expect_same_as_reference(one_row(random_bytes(size - 1, seed, 3)), 0, last);
            expect_same_as_reference(one_row(bytes_with_runs(size - 1, seed)), 0, last);
            expect_same_as_reference(one_row(Bytes(size - 1, 0)), 0, last);
        }
    }
    if (!small) {
        expect_same_as_reference(one_row(bytes_with_runs(250000, 9)), 0, true);
        expect_same_as_reference(one_row(Bytes((1 << 20) - 1, 0)), 0, false);
    }
}

// The rows filtered on the device as on the host: for a first chunk and for one with a row
// above, grey and RGB.
TEST(PngDeflate, RowsFilteredOnTheDeviceAsOnTheHost)
{
    for (const test::Size& size : {test::Size{1, 1}, test::Size{2, 3}, test::Size{17, 5},
                                   test::Size{61, 37}, test::Size{300, 4}}) {
        for (int channels : {1, 3}) {
            SCOPED_TRACE(test::size_name(size) + " x" + std::to_string(channels));
            const Image image{size.width, size.height, channels,
                              random_bytes(size.width * size.height * channels, 5, 4)};
            for (std::size_t first_row : {std::size_t{0}, size.height / 2}) {
                SCOPED_TRACE("from row " + std::to_string(first_row));
                expect_same_as_reference(image, first_row, true);
            }
        }
    }
}

// A PNG the way the samples write it, through the process's rows encoder, the rows filtered on
// the device, decodes through libpng to the pixels.
TEST(PngDeflate, PngThroughTheDeviceDecodesToThePixels)
{
    use_png_rows_encoder(
        [](const Image& image, std::size_t first_row, std::size_t count, bool last, Bytes& out) {
            return encoder().compress_rows(image, first_row, count, last, out);
        });
    for (const test::Size& size :
         {test::Size{1, 1}, test::Size{2, 3}, test::Size{17, 5}, test::Size{61, 37}}) {
        SCOPED_TRACE(test::size_name(size));
        Image image = test::random_grey_image(size.width, size.height, 4);
        for (std::size_t i = 0; i < image.pixels.size(); i += 3) image.pixels[i] = 0;  // some runs
        DeflateChunking chunking;
        chunking.chunk_bytes = 50;  // several chunks, each a few rows
        // Chunks on several lanes at once, but one under oclgrind, which simulates one kernel
        // at a time (it aborts when two queues run kernels together).
        chunking.threads = test::small_sizes_only() ? 1 : 3;
        Bytes png;
        write_png_stream(
            image,
            [&](const std::uint8_t* data, std::size_t bytes) {
                png.insert(png.end(), data, data + bytes);
            },
            chunking);
        const Image decoded = decode_png(png.data(), png.size(), "device.png");
        EXPECT_EQ(decoded.pixels, image.pixels);
    }
    use_png_rows_encoder({});
}

}  // namespace
}  // namespace sdk
