// SPDX-License-Identifier: Apache-2.0
// The PNG reader and writer (common/imageio/png): every colour type, bit depth and interlacing
// decoded to the values the PNG specification gives, broken files refused with one line naming the
// file, and what the writer writes read back unchanged.
#include "codec_builders.hpp"
#include "imageio_test_support.hpp"
#include "common/imageio/byte_source.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/image_file.hpp"
#include "common/imageio/luminance.hpp"
#include "common/imageio/png.hpp"

#include <gtest/gtest.h>

#include <zlib.h>

#include <cstdint>
#include <ctime>
#include <filesystem>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <vector>

namespace {

using codectest::PngSpec;
using sdk::Image;

const decodetest::Decoder kPng{sdk::decode_png, "test.png"};

std::vector<std::uint16_t> random_samples(std::size_t count, int bit_depth, unsigned seed)
{
    std::mt19937 generator(seed);
    std::uniform_int_distribution<int> value(0, (1 << bit_depth) - 1);
    std::vector<std::uint16_t> samples(count);
    for (auto& sample : samples) sample = static_cast<std::uint16_t>(value(generator));
    return samples;
}

// A stored sample as the reader must give it in 8 bits: low depths scaled to 0..255 (1 bit: 0
// or 255; 2 bits: v * 85; 4 bits: v * 17), 16 bits cut to the high byte.
std::uint8_t to_8_bits(std::uint16_t sample, int bit_depth)
{
    if (bit_depth == 16) return static_cast<std::uint8_t>(sample >> 8);
    return static_cast<std::uint8_t>(sample * 255 / ((1 << bit_depth) - 1));
}

// What the reader must return for `spec`: grey kinds 1 channel, the others RGB, alpha dropped.
Image expected_image(const PngSpec& spec)
{
    const int stored = codectest::stored_channels(spec.colour_type);
    const bool grey = (spec.colour_type & PNG_COLOR_MASK_COLOR) == 0;
    Image image{spec.width, spec.height, grey ? 1 : 3, {}};
    for (std::size_t pixel = 0; pixel < std::size_t{spec.width} * spec.height; ++pixel) {
        const std::uint16_t* samples = spec.samples.data() + pixel * stored;
        if (spec.colour_type == PNG_COLOR_TYPE_PALETTE) {
            const png_color colour = spec.palette.at(samples[0]);
            image.pixels.insert(image.pixels.end(), {colour.red, colour.green, colour.blue});
        } else {
            for (int channel = 0; channel < image.channels; ++channel)
                image.pixels.push_back(to_8_bits(samples[channel], spec.bit_depth));
        }
    }
    return image;
}

PngSpec random_spec(int colour_type, int bit_depth, bool interlaced, unsigned seed)
{
    PngSpec spec;
    spec.width = 13;  // odd sizes: partial bytes at low depths, every Adam7 pass partly filled
    spec.height = 11;
    spec.colour_type = colour_type;
    spec.bit_depth = bit_depth;
    spec.interlaced = interlaced;
    const std::size_t count =
        std::size_t{spec.width} * spec.height * codectest::stored_channels(colour_type);
    spec.samples = random_samples(count, bit_depth, seed);
    if (colour_type == PNG_COLOR_TYPE_PALETTE) {
        std::mt19937 generator(seed + 1);
        for (int i = 0; i < (1 << bit_depth); ++i)
            spec.palette.push_back({static_cast<png_byte>(generator()),
                                    static_cast<png_byte>(generator()),
                                    static_cast<png_byte>(generator())});
    }
    return spec;
}

using decodetest::expect_same_image;

struct Layout {
    int colour_type;
    std::vector<int> depths;  // every depth the PNG specification allows for it
};
const Layout kLayouts[] = {
    {PNG_COLOR_TYPE_GRAY, {1, 2, 4, 8, 16}}, {PNG_COLOR_TYPE_GRAY_ALPHA, {8, 16}},
    {PNG_COLOR_TYPE_RGB, {8, 16}},           {PNG_COLOR_TYPE_RGB_ALPHA, {8, 16}},
    {PNG_COLOR_TYPE_PALETTE, {1, 2, 4, 8}},
};

TEST(PngRead, EveryColourTypeDepthAndInterlacing)
{
    unsigned seed = 1;
    for (const Layout& layout : kLayouts) {
        for (const int depth : layout.depths) {
            for (const bool interlaced : {false, true}) {
                SCOPED_TRACE("colour type " + std::to_string(layout.colour_type) + ", depth " +
                             std::to_string(depth) + (interlaced ? ", interlaced" : ""));
                const PngSpec spec = random_spec(layout.colour_type, depth, interlaced, seed++);
                expect_same_image(kPng.decode(codectest::build_png(spec)), expected_image(spec));
            }
        }
    }
}

TEST(PngRead, KnownValues)
{
    // One row of each kind whose 8-bit result is written out by hand.
    PngSpec grey16;
    grey16.width = 3;
    grey16.bit_depth = 16;
    grey16.samples = {0x12FF, 0xFF00, 0x0080};  // high bytes only: 0x12, 0xFF, 0x00
    EXPECT_EQ(kPng.decode(codectest::build_png(grey16)).pixels,
              (std::vector<std::uint8_t>{0x12, 0xFF, 0x00}));

    PngSpec grey2;
    grey2.width = 4;
    grey2.bit_depth = 2;
    grey2.samples = {0, 1, 2, 3};
    EXPECT_EQ(kPng.decode(codectest::build_png(grey2)).pixels,
              (std::vector<std::uint8_t>{0, 85, 170, 255}));

    PngSpec rgba;
    rgba.width = 2;
    rgba.colour_type = PNG_COLOR_TYPE_RGB_ALPHA;
    rgba.samples = {255, 0, 0, 0, 1, 2, 3, 128};  // alpha 0 and 128: dropped, not blended
    const Image colour = kPng.decode(codectest::build_png(rgba));
    EXPECT_EQ(colour.channels, 3);
    EXPECT_EQ(colour.pixels, (std::vector<std::uint8_t>{255, 0, 0, 1, 2, 3}));
    // OpenCV's cvtColor(BGR2GRAY) gives 76 for pure red and 2 for (1, 2, 3).
    EXPECT_EQ(sdk::to_luminance(colour).pixels, (std::vector<std::uint8_t>{76, 2}));
}

TEST(PngRead, PaletteTransparencyIsDropped)
{
    PngSpec spec = random_spec(PNG_COLOR_TYPE_PALETTE, 4, false, 99);
    spec.palette_alpha.assign(16, 0);  // fully transparent: the colours are still the palette's
    expect_same_image(kPng.decode(codectest::build_png(spec)), expected_image(spec));
}

// ----- Broken files ----------------------------------------------------------------------------

std::vector<std::uint8_t> valid_png()
{
    return codectest::build_png(random_spec(PNG_COLOR_TYPE_RGB, 8, false, 7));
}

// The signature (8 bytes), then IHDR: length (4), type (4), width (4), height (4), ...
constexpr std::size_t kWidthAt = 16;
constexpr std::size_t kHeightAt = 20;
constexpr std::size_t kIhdrCrcAt = 29;

void put32(std::vector<std::uint8_t>& bytes, std::size_t at, std::uint32_t value)
{
    for (std::size_t i = 0; i < 4; ++i)
        bytes.at(at + i) = static_cast<std::uint8_t>(value >> (24 - 8 * i));
}

// Declares another size, with a correct CRC, so only the size check can refuse it.
std::vector<std::uint8_t> with_size(std::uint32_t width, std::uint32_t height)
{
    std::vector<std::uint8_t> bytes = valid_png();
    put32(bytes, kWidthAt, width);
    put32(bytes, kHeightAt, height);
    const auto crc = crc32(0, bytes.data() + 12, 17);  // the chunk type and its 13 data bytes
    put32(bytes, kIhdrCrcAt, static_cast<std::uint32_t>(crc));
    return bytes;
}

TEST(PngReject, NotAPng)
{
    kPng.expect_rejected({}, "not a PNG file");
    kPng.expect_rejected({0x89, 'P', 'N', 'G'}, "not a PNG file");
}

TEST(PngReject, Truncated)
{
    const auto bytes = valid_png();
    for (const std::size_t size :
         {std::size_t{8}, std::size_t{20}, std::size_t{40}, bytes.size() / 2, bytes.size() - 1}) {
        SCOPED_TRACE(size);
        kPng.expect_rejected({bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size)},
                             "truncated");
    }
}

TEST(PngReject, BadCrc)
{
    auto header = valid_png();
    header[kWidthAt + 3] ^= 1;  // IHDR changed, its CRC not
    kPng.expect_rejected(header, "CRC error");
    auto pixels = valid_png();
    pixels[pixels.size() - 20] ^= 0x55;  // inside the last IDAT
    EXPECT_NE(kPng.rejection(pixels), "<accepted>");
}

TEST(PngReject, JunkAfterSignature)
{
    std::vector<std::uint8_t> bytes = valid_png();
    std::mt19937 generator(3);
    for (std::size_t i = 8; i < bytes.size(); ++i)
        bytes[i] = static_cast<std::uint8_t>(generator());
    EXPECT_NE(kPng.rejection(bytes), "<accepted>");
    kPng.expect_rejected(bytes, "test.png: ");
}

TEST(PngReject, HugeDeclaredSize)
{
    kPng.expect_rejected(with_size(100000, 1), "image too large: 100000x1");
    kPng.expect_rejected(with_size(60000, 60000), "image too large: 60000x60000");
    // Within the limit, but far more than a file of a few hundred bytes can hold.
    kPng.expect_rejected(with_size(16384, 16384), "more than a file of");
}

// ----- Writing -----------------------------------------------------------------------------------

Image random_image(std::size_t width, std::size_t height, int channels, unsigned seed)
{
    Image image{width, height, channels, std::vector<std::uint8_t>(width * height * channels)};
    std::mt19937 generator(seed);
    for (auto& value : image.pixels) value = static_cast<std::uint8_t>(generator());
    return image;
}

TEST(PngWrite, EncodeThenDecodeGivesTheImageBack)
{
    for (const int channels : {1, 3}) {
        const Image image = random_image(37, 5, channels, 11);
        const std::vector<std::uint8_t> bytes = sdk::encode_png(image);
        ASSERT_TRUE(sdk::has_png_signature(bytes.data(), bytes.size()));
        expect_same_image(kPng.decode(bytes), image);
    }
}

TEST(PngWrite, RefusesInconsistentImages)
{
    EXPECT_THROW(sdk::encode_png(Image{2, 2, 2, std::vector<std::uint8_t>(8)}),
                 std::invalid_argument);
    EXPECT_THROW(sdk::encode_png(Image{0, 2, 1, {}}), std::invalid_argument);
    EXPECT_THROW(sdk::encode_png(Image{2, 2, 1, std::vector<std::uint8_t>(3)}),
                 std::invalid_argument);
}

using PngFiles = decodetest::FolderTest;

TEST_F(PngFiles, WriteThenReadBack)
{
    const Image image = random_image(301, 7, 1, 5);
    sdk::write_png(folder_ / "out.png", image);
    expect_same_image(sdk::read_image(folder_ / "out.png"), image);
    // Only the file: the temporary it was written through is gone.
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(folder_), {}), 1);
}

TEST_F(PngFiles, HeaderWithoutDecoding)
{
    sdk::write_png(folder_ / "out.png", random_image(40, 30, 3, 6));
    const sdk::InputFile file(folder_ / "out.png");
    const sdk::ImageHeader header = sdk::read_png_header(file);
    EXPECT_EQ(header.width, 40u);
    EXPECT_EQ(header.height, 30u);
    EXPECT_EQ(header.channels, 3);
}

// libpng asks for a chunk's header, data and CRC apart: a file of 20000 tiny private chunks (13
// bytes each, skipped unread into memory) must still be read in a few large pieces, not three
// system calls a chunk (such a file of 200000 chunks took 13 s).
TEST_F(PngFiles, ManyTinyChunksAreReadInLargePieces)
{
    const std::vector<std::uint8_t> plain = valid_png();
    const auto bytes = codectest::with_chunks_after_header(plain, "prVt", {0}, 20000);
    const auto path = folder_ / "chunks.png";
    sdk::write_file_atomically(path, bytes.data(), bytes.size());
    const sdk::InputFile file(path);
    expect_same_image(sdk::read_png(file), kPng.decode(plain));
    EXPECT_LE(file.reads(), bytes.size() / sdk::ByteSource::kReadAhead + 2);
}

// Text chunks are not inflated: 40 zTXt chunks of 7.7 KB, each 7.9 MB of text once inflated,
// took over a second and 640 MB when libpng inflated and kept them; skipped, they cost reading.
TEST(PngRead, CompressedTextIsNotInflated)
{
    const std::vector<std::uint8_t> text(7900000, ' ');
    std::vector<std::uint8_t> packed(compressBound(text.size()));
    uLongf packed_size = packed.size();
    ASSERT_EQ(compress2(packed.data(), &packed_size, text.data(), text.size(), 9), Z_OK);
    std::vector<std::uint8_t> chunk = {'k', 0, 0};  // keyword, its end, compression method 0
    chunk.insert(chunk.end(), packed.begin(),
                 packed.begin() + static_cast<std::ptrdiff_t>(packed_size));
    const std::vector<std::uint8_t> plain = valid_png();
    const auto bytes = codectest::with_chunks_after_header(plain, "zTXt", chunk, 40);

    const std::clock_t start = std::clock();
    expect_same_image(kPng.decode(bytes), kPng.decode(plain));
    const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    EXPECT_LT(seconds, 0.4) << "the texts were inflated";
}

TEST_F(PngFiles, TruncatedFileNamesTheFile)
{
    std::vector<std::uint8_t> bytes = valid_png();
    bytes.resize(bytes.size() - 30);
    const auto path = folder_ / "cut.png";
    sdk::write_file_atomically(path, bytes.data(), bytes.size());
    try {
        sdk::read_image(path);
        FAIL() << "accepted";
    } catch (const sdk::ImageError& error) {
        const std::string message = error.what();
        EXPECT_EQ(message.rfind(path.string() + ": truncated", 0), 0u) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

}  // namespace
