// SPDX-License-Identifier: Apache-2.0
// The C++ reference of the device's PNG deflate (common/codecs/png_deflate/): its blocks are valid
// deflate that zlib's own inflate reads back to the input, alone and joined as the PNG writer
// joins chunks; its codes respect deflate's length limits; a PNG written with it decodes through
// libpng to the pixels; and it stays within 10% of the zlib writer's size on edge and photo-like
// images.
#include "common/imageio/png.hpp"
#include "common/imageio/png_writer.hpp"
#include "common/codecs/png_deflate/deflate_block.hpp"
#include "common/codecs/png_deflate/png_deflate_reference.hpp"

#include <gtest/gtest.h>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<std::uint8_t>;

// Raw deflate blocks behind a zlib header and before the input's Adler-32, inflated by zlib's
// one-call uncompress2, which checks the Adler-32 and says how much of the stream it read.
Bytes inflate_raw(const Bytes& blocks, const Bytes& input)
{
    Bytes stream{0x78, 0x01};
    stream.insert(stream.end(), blocks.begin(), blocks.end());
    const uLong adler = adler32_z(adler32(0, nullptr, 0), input.data(), input.size());
    for (int shift = 24; shift >= 0; shift -= 8)
        stream.push_back(static_cast<std::uint8_t>(adler >> shift));
    Bytes out(input.size() + 1);  // one spare byte: too much data shows
    uLongf out_size = out.size();
    uLong read = stream.size();
    EXPECT_EQ(uncompress2(out.data(), &out_size, stream.data(), &read), Z_OK);
    EXPECT_EQ(read, stream.size()) << "bytes after the final block";
    out.resize(out_size);
    return out;
}

Bytes random_bytes(std::size_t size, unsigned seed, int spread = 256)
{
    std::mt19937 generator(seed);
    std::uniform_int_distribution<int> value(0, spread - 1);
    Bytes bytes(size);
    for (auto& byte : bytes) byte = static_cast<std::uint8_t>(value(generator));
    return bytes;
}

// Zero runs of every length around deflate's and the cells' limits, between random bytes.
Bytes runs_of_all_lengths()
{
    Bytes bytes;
    std::mt19937 generator(7);
    for (int run : {1, 2, 3, 4, 5, 255, 256, 257, 258, 259, 260, 515, 516, 517, 1000, 5000}) {
        bytes.push_back(static_cast<std::uint8_t>(1 + generator() % 255));
        bytes.insert(bytes.end(), static_cast<std::size_t>(run),
                     static_cast<std::uint8_t>(run % 3));
    }
    return bytes;
}

std::vector<std::pair<std::string, Bytes>> chunk_cases()
{
    return {{"one byte", Bytes{42}},
            {"two equal bytes", Bytes{9, 9}},
            {"all zeros", Bytes(100000, 0)},
            {"random", random_bytes(70001, 1)},
            {"few values", random_bytes(12345, 2, 3)},
            {"one cell", random_bytes(258, 3, 4)},
            {"a cell and one byte", random_bytes(259, 4, 2)},
            {"runs", runs_of_all_lengths()}};
}

TEST(PngDeflateReference, InflatesBackToTheInputAsTheLastChunk)
{
    for (const auto& [name, input] : chunk_cases()) {
        SCOPED_TRACE(name);
        Bytes stream;
        sdk::deflate_chunk_reference(input.data(), input.size(), true, stream);
        EXPECT_EQ(inflate_raw(stream, input), input);
    }
}

// Chunks that are not last end on a byte boundary without the final bit, so the next chunk's
// block can follow: three chunks joined read back as their concatenation.
TEST(PngDeflateReference, ChunksJoinIntoOneStream)
{
    const auto cases = chunk_cases();
    Bytes stream;
    Bytes expected;
    for (std::size_t i = 0; i < cases.size(); ++i) {
        const Bytes& input = cases[i].second;
        sdk::deflate_chunk_reference(input.data(), input.size(), i + 1 == cases.size(), stream);
        expected.insert(expected.end(), input.begin(), input.end());
    }
    EXPECT_EQ(inflate_raw(stream, expected), expected);
}

// A run that starts in one cell and ends in the next is one match, owned by the first cell, and
// the next cell starts after it; a run longer than deflate's longest match is cut at the
// cells' ends.
TEST(PngDeflateReference, ARunAcrossACellBoundaryIsOneMatch)
{
    Bytes input(2 * sdk::kCellBytes);
    for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<std::uint8_t>(i % 251);
    const std::size_t run_start = sdk::kCellBytes - 10;
    std::fill(input.begin() + run_start, input.begin() + run_start + 41, std::uint8_t{7});
    const sdk::SymbolCounts counts = sdk::count_symbols_reference(input.data(), input.size());
    const sdk::LengthSymbol forty = sdk::length_symbol(40);
    EXPECT_EQ(counts[forty.symbol], 1u);
    EXPECT_EQ(std::accumulate(counts.begin() + 257, counts.end(), 0u), 1u) << "one match only";
    EXPECT_EQ(sdk::first_token(input.data(), sdk::kCellBytes, input.size()), run_start + 1 + 40);

    const Bytes zeros(3 * sdk::kCellBytes, 0);
    EXPECT_EQ(sdk::first_token(zeros.data(), 2 * sdk::kCellBytes, zeros.size()),
              2 * sdk::kCellBytes);
}

TEST(PngDeflateReference, RefusesAnEmptyChunk)
{
    Bytes stream;
    const std::uint8_t byte = 0;
    EXPECT_THROW(sdk::deflate_chunk_reference(&byte, 0, true, stream), std::invalid_argument);
}

// Counts that grow like Fibonacci numbers make an unlimited Huffman code 30 bits deep: the
// limited one is a complete prefix code (Kraft sum exactly 1) within the limit.
TEST(PngDeflateReference, CodeLengthsAreLimitedAndComplete)
{
    std::vector<std::uint32_t> counts(30);
    std::uint32_t a = 1, b = 1;
    for (auto& count : counts) {
        count = a;
        const std::uint32_t next = a + b;
        a = b;
        b = next;
    }
    for (int longest : {7, 15}) {
        const std::vector<int> lengths = sdk::limited_code_lengths(counts, longest);
        double kraft = 0;
        for (int length : lengths) {
            EXPECT_GE(length, 1);
            EXPECT_LE(length, longest);
            kraft += std::ldexp(1.0, -length);
        }
        EXPECT_DOUBLE_EQ(kraft, 1.0) << "longest " << longest;
    }
    // One symbol used (or none) still gets a complete code: two 1-bit codes.
    const std::vector<int> one = sdk::limited_code_lengths({0, 0, 5, 0}, 7);
    EXPECT_EQ(one, (std::vector<int>{1, 0, 1, 0}));
}

// Mostly zero, with thin bright lines every `spacing` pixels and noise on one pixel in `noise`:
// a Sobel magnitude of a textured photo (dense) or of one with flat regions (sparse: zero runs,
// which only run-length matches shrink).
sdk::Image edge_like_image(std::size_t width, std::size_t height, std::size_t spacing,
                           unsigned noise, unsigned seed)
{
    sdk::Image image{width, height, 1, Bytes(width * height, 0)};
    std::mt19937 generator(seed);
    for (std::size_t y = 0; y < height; ++y)
        for (std::size_t x = 0; x < width; ++x)
            if ((x * 7 + y * 3) % spacing < 3 || generator() % noise == 0)
                image.pixels[y * width + x] = static_cast<std::uint8_t>(40 + generator() % 200);
    return image;
}

sdk::Image photo_like_image(std::size_t width, std::size_t height, int channels, unsigned seed)
{
    sdk::Image image{width, height, channels, Bytes(width * height * channels)};
    std::mt19937 generator(seed);
    std::uniform_int_distribution<int> noise(-3, 3);
    std::size_t at = 0;
    for (std::size_t y = 0; y < height; ++y)
        for (std::size_t x = 0; x < width; ++x)
            for (int channel = 0; channel < channels; ++channel)
                image.pixels[at++] = static_cast<std::uint8_t>(
                    128 +
                    100 * std::sin((static_cast<double>(x) + 3.0 * static_cast<double>(y)) / 40.0 +
                                   channel) +
                    noise(generator));
    return image;
}

Bytes encode(const sdk::Image& image, const sdk::DeflateChunking& chunking)
{
    Bytes png;
    sdk::write_png_stream(
        image,
        [&](const std::uint8_t* data, std::size_t size) {
            png.insert(png.end(), data, data + size);
        },
        chunking);
    return png;
}

// The frame the device's encoder plugs into as the samples use it: a process-wide rows encoder
// that filters and compresses each chunk's rows itself and returns their Adler-32 (here the
// host's filter, the reference and zlib's adler32, as the device is tested to match), set for
// the life of this object.
class ReferenceRowsEncoder {
public:
    ReferenceRowsEncoder()
    {
        sdk::use_png_rows_encoder([](const sdk::Image& image, std::size_t first_row,
                                     std::size_t count, bool last, Bytes& out) {
            Bytes rows(count * (1 + image.width * static_cast<std::size_t>(image.channels)));
            sdk::filter_png_rows_up(image, first_row, count, rows.data());
            sdk::deflate_chunk_reference(rows.data(), rows.size(), last, out);
            return static_cast<std::uint32_t>(
                adler32_z(adler32(0, nullptr, 0), rows.data(), rows.size()));
        });
    }
    ~ReferenceRowsEncoder() { sdk::use_png_rows_encoder({}); }
    ReferenceRowsEncoder(const ReferenceRowsEncoder&) = delete;
    ReferenceRowsEncoder& operator=(const ReferenceRowsEncoder&) = delete;
};

TEST(PngDeflateReference, PngDecodesToThePixels)
{
    struct Case {
        std::size_t width, height;
        int channels;
        std::size_t chunk_bytes;
    };
    const ReferenceRowsEncoder reference;
    for (const Case& c : {Case{1, 1, 1, 0}, Case{2, 3, 3, 0}, Case{17, 5, 1, 1}, Case{17, 5, 3, 40},
                          Case{67, 31, 3, 500}, Case{131, 67, 1, 1000}, Case{257, 33, 3, 777}}) {
        SCOPED_TRACE(std::to_string(c.width) + "x" + std::to_string(c.height) + "x" +
                     std::to_string(c.channels) + " chunk " + std::to_string(c.chunk_bytes));
        const sdk::Image image = photo_like_image(c.width, c.height, c.channels, 5);
        sdk::DeflateChunking chunking;
        chunking.chunk_bytes = c.chunk_bytes;
        chunking.threads = 3;
        const Bytes png = encode(image, chunking);
        const sdk::Image decoded = sdk::decode_png(png.data(), png.size(), "reference.png");
        EXPECT_EQ(decoded.width, image.width);
        EXPECT_EQ(decoded.channels, image.channels);
        EXPECT_EQ(decoded.pixels, image.pixels);
    }
}

// A rows encoder's own cut (a device's few large chunks) is used when the caller asks for none,
// and the caller's cut wins when it asks (tests force small chunks).
TEST(PngDeflateReference, TheRowsEncodersOwnChunksAreUsedUnlessTheCallerCuts)
{
    const sdk::Image image = photo_like_image(40, 23, 1, 4);
    const std::size_t row_bytes = 1 + image.width;
    std::mutex mutex;
    std::vector<std::size_t> counts;
    sdk::DeflateChunking own;
    own.chunk_bytes = 5 * row_bytes;
    own.threads = 2;
    sdk::use_png_rows_encoder(
        [&](const sdk::Image& rows_of, std::size_t first_row, std::size_t count, bool last,
            Bytes& out) {
            {
                std::lock_guard<std::mutex> lock(mutex);
                counts.push_back(count);
            }
            Bytes rows(count * row_bytes);
            sdk::filter_png_rows_up(rows_of, first_row, count, rows.data());
            sdk::deflate_chunk_reference(rows.data(), rows.size(), last, out);
            return static_cast<std::uint32_t>(
                adler32_z(adler32(0, nullptr, 0), rows.data(), rows.size()));
        },
        own);
    const Bytes png = encode(image, {});
    EXPECT_EQ(sdk::decode_png(png.data(), png.size(), "own.png").pixels, image.pixels);
    std::sort(counts.begin(), counts.end());
    EXPECT_EQ(counts, (std::vector<std::size_t>{3, 5, 5, 5, 5}));  // 23 rows in fives

    counts.clear();
    sdk::DeflateChunking asked;
    asked.chunk_bytes = 10 * row_bytes;
    asked.threads = 1;
    const Bytes cut = encode(image, asked);
    EXPECT_EQ(sdk::decode_png(cut.data(), cut.size(), "asked.png").pixels, image.pixels);
    std::sort(counts.begin(), counts.end());
    EXPECT_EQ(counts, (std::vector<std::size_t>{3, 10, 10}));
    sdk::use_png_rows_encoder({});
}

// The token model (runs at distance 1 and Huffman codes per chunk) against zlib's level 1 with
// its strategy per chunk, on the writer's default chunks. The figures are printed for
// docs/png_deflate.md.
TEST(PngDeflateReference, SizeWithinTenPercentOfZlib)
{
    const std::pair<const char*, sdk::Image> images[] = {
        {"edge", edge_like_image(1024, 768, 61, 50, 11)},
        {"sparse edge", edge_like_image(1024, 768, 1021, 5000, 13)},
        {"photo", photo_like_image(1024, 768, 3, 12)}};
    for (const auto& [name, image] : images) {
        sdk::DeflateChunking chunking;
        chunking.threads = 2;
        const double zlib_size = static_cast<double>(encode(image, chunking).size());
        const ReferenceRowsEncoder reference;
        const double reference_size = static_cast<double>(encode(image, chunking).size());
        std::printf("%s 1024x768: zlib %.0f bytes, device encoder %.0f bytes (%+.1f%%)\n", name,
                    zlib_size, reference_size, 100 * (reference_size / zlib_size - 1));
        EXPECT_LE(reference_size, 1.10 * zlib_size) << name;
    }
}

}  // namespace
