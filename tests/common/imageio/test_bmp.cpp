// SPDX-License-Identifier: Apache-2.0
#include "bmp_builder.hpp"
#include "imageio_test_support.hpp"
#include "common/imageio/bmp.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <initializer_list>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using bmptest::BmpSpec;
using bmptest::build_bmp;
using sdk::Image;

constexpr std::uint32_t kBiBitfields = 3;
constexpr int kWidths[] = {1, 3, 5, 17, 31};
constexpr std::uint16_t kIndexedDepths[] = {1, 4, 8};
constexpr std::uint32_t kHeaderSizes[] = {40, 108, 124};

const decodetest::Decoder kBmp{sdk::decode_bmp, "test.bmp"};

void patch32(std::vector<std::uint8_t>& bytes, std::size_t offset, std::uint32_t value)
{
    for (int i = 0; i < 4; ++i) {
        bytes.at(offset + static_cast<std::size_t>(i)) =
            static_cast<std::uint8_t>(value >> (8 * i));
    }
}

void patch16(std::vector<std::uint8_t>& bytes, std::size_t offset, std::uint16_t value)
{
    bytes.at(offset) = static_cast<std::uint8_t>(value);
    bytes.at(offset + 1) = static_cast<std::uint8_t>(value >> 8);
}

// Header field offsets, from the file format rather than the SDK.
constexpr std::size_t kOffsetField = 10;
constexpr std::size_t kWidthField = 18;
constexpr std::size_t kHeightField = 22;
constexpr std::size_t kPlanesField = 26;
constexpr std::size_t kBppField = 28;
constexpr std::size_t kColoursUsedField = 46;

std::vector<std::uint32_t> random_values(std::size_t count, std::uint32_t limit, std::uint32_t seed)
{
    std::mt19937 engine(seed);  // raw engine output is specified, unlike distributions
    std::vector<std::uint32_t> values(count);
    for (auto& value : values) {
        const auto raw = static_cast<std::uint32_t>(engine());
        value = limit == 0 ? raw : raw % limit;
    }
    return values;
}

std::uint32_t bit_count(std::uint32_t mask)
{
    std::uint32_t count = 0;
    for (; mask != 0; mask &= mask - 1) {
        ++count;
    }
    return count;
}

// Reference channel scaling written independently of the decoder: floating point, rounded.
std::uint8_t scaled_channel(std::uint32_t pixel, std::uint32_t mask)
{
    std::uint32_t shift = 0;
    while (((mask >> shift) & 1u) == 0) {
        ++shift;
    }
    const double max = std::ldexp(1.0, static_cast<int>(bit_count(mask))) - 1.0;
    const double value = static_cast<double>((pixel & mask) >> shift);
    return static_cast<std::uint8_t>(std::lround(value * 255.0 / max));
}

Image expected_from_masks(const BmpSpec& spec, std::array<std::uint32_t, 3> masks)
{
    Image image{static_cast<std::size_t>(spec.width),
                static_cast<std::size_t>(std::abs(spec.height)),
                3,
                {}};
    for (std::uint32_t pixel : spec.values) {
        for (std::uint32_t mask : masks) {
            image.pixels.push_back(scaled_channel(pixel, mask));
        }
    }
    return image;
}

using decodetest::expect_same_image;

// ----- Valid files -------------------------------------------------------------------------

struct Layout {
    int width;
    bool top_down;
    std::uint32_t header_size;
};

// Every odd width with both row orders; header sizes cycle so that each shows up with each
// order. Heights vary too, so rows cannot be confused with columns.
std::vector<Layout> layouts()
{
    std::vector<Layout> result;
    std::size_t turn = 0;
    for (int width : kWidths) {
        for (bool top_down : {false, true}) {
            result.push_back({width, top_down, kHeaderSizes[turn++ % 3]});
        }
    }
    return result;
}

BmpSpec spec_for(const Layout& layout, std::uint16_t bpp, int height)
{
    BmpSpec spec;
    spec.width = layout.width;
    spec.height = layout.top_down ? -height : height;
    spec.bpp = bpp;
    spec.header_size = layout.header_size;
    return spec;
}

std::string describe(const Layout& layout, int bpp)
{
    return std::to_string(bpp) + " bit, width " + std::to_string(layout.width) +
           (layout.top_down ? ", top-down" : ", bottom-up") + ", header " +
           std::to_string(layout.header_size);
}

TEST(BmpDecode, PalettisedGreyGivesOneChannel)
{
    for (std::uint16_t bpp : kIndexedDepths) {
        for (const Layout& layout : layouts()) {
            SCOPED_TRACE(describe(layout, bpp));
            BmpSpec spec = spec_for(layout, bpp, 4);
            // A full palette of greys in a scrambled order, so indices are really looked up.
            const std::uint32_t entries = 1u << bpp;
            for (std::uint32_t i = 0; i < entries; ++i) {
                const std::uint32_t level = (i * 167 + 41) & 0xFF;
                spec.palette.push_back(level * 0x010101);
            }
            spec.values = random_values(static_cast<std::size_t>(layout.width) * 4, entries,
                                        bpp * 100 + static_cast<std::uint32_t>(layout.width));
            Image expected{static_cast<std::size_t>(layout.width), 4, 1, {}};
            for (std::uint32_t index : spec.values) {
                expected.pixels.push_back(static_cast<std::uint8_t>(spec.palette[index]));
            }
            expect_same_image(kBmp.decode(build_bmp(spec)), expected);
        }
    }
}

TEST(BmpDecode, PalettisedColourGivesRgb)
{
    for (std::uint16_t bpp : kIndexedDepths) {
        for (const Layout& layout : layouts()) {
            SCOPED_TRACE(describe(layout, bpp));
            BmpSpec spec = spec_for(layout, bpp, 3);
            // A short palette declared through biClrUsed, with one non-grey entry.
            const std::uint32_t entries = bpp == 1 ? 2 : (bpp == 4 ? 11 : 200);
            spec.colours_used = entries;
            spec.palette = random_values(entries, 1u << 24, 7 + bpp);
            spec.palette[0] = 0x102030;
            spec.values = random_values(static_cast<std::size_t>(layout.width) * 3, entries,
                                        bpp * 1000 + static_cast<std::uint32_t>(layout.width));
            Image expected{static_cast<std::size_t>(layout.width), 3, 3, {}};
            for (std::uint32_t index : spec.values) {
                const std::uint32_t colour = spec.palette[index];
                expected.pixels.push_back(static_cast<std::uint8_t>(colour >> 16));
                expected.pixels.push_back(static_cast<std::uint8_t>(colour >> 8));
                expected.pixels.push_back(static_cast<std::uint8_t>(colour));
            }
            expect_same_image(kBmp.decode(build_bmp(spec)), expected);
        }
    }
}

TEST(BmpDecode, BlackAndWhitePaletteIsGrey)
{
    BmpSpec spec;
    spec.width = 3;
    spec.height = 1;
    spec.bpp = 1;
    spec.palette = {0x000000, 0xFFFFFF};
    spec.values = {1, 0, 1};
    expect_same_image(kBmp.decode(build_bmp(spec)), Image{3, 1, 1, {255, 0, 255}});
}

TEST(BmpDecode, TwentyFourBit)
{
    for (const Layout& layout : layouts()) {
        SCOPED_TRACE(describe(layout, 24));
        BmpSpec spec = spec_for(layout, 24, 5);
        spec.values = random_values(static_cast<std::size_t>(layout.width) * 5, 1u << 24,
                                    static_cast<std::uint32_t>(layout.width));
        expect_same_image(kBmp.decode(build_bmp(spec)),
                          expected_from_masks(spec, {0xFF0000, 0x00FF00, 0x0000FF}));
    }
}

TEST(BmpDecode, ThirtyTwoBitRgbIgnoresFourthByte)
{
    for (const Layout& layout : layouts()) {
        SCOPED_TRACE(describe(layout, 32));
        BmpSpec spec = spec_for(layout, 32, 2);
        spec.values = random_values(static_cast<std::size_t>(layout.width) * 2, 0,
                                    static_cast<std::uint32_t>(layout.width));
        // Masks in a V4/V5 header are meaningless for BI_RGB and must not be used.
        spec.masks = {0xFF, 0xFF00, 0xFF0000};
        expect_same_image(kBmp.decode(build_bmp(spec)),
                          expected_from_masks(spec, {0xFF0000, 0x00FF00, 0x0000FF}));
    }
}

TEST(BmpDecode, SixteenBitRgbIsFiveFiveFive)
{
    for (const Layout& layout : layouts()) {
        SCOPED_TRACE(describe(layout, 16));
        BmpSpec spec = spec_for(layout, 16, 3);
        spec.values = random_values(static_cast<std::size_t>(layout.width) * 3, 1u << 16,
                                    static_cast<std::uint32_t>(layout.width));
        expect_same_image(kBmp.decode(build_bmp(spec)),
                          expected_from_masks(spec, {0x7C00, 0x03E0, 0x001F}));
    }
}

TEST(BmpDecode, BitfieldsWithAnyContiguousMasks)
{
    struct Case {
        std::uint16_t bpp;
        std::array<std::uint32_t, 3> masks;
    };
    const Case cases[] = {
        {32, {0x00FF0000, 0x0000FF00, 0x000000FF}},  // the usual layout
        {32, {0x000000FF, 0x0000FF00, 0x00FF0000}},  // R and B swapped
        {32, {0x3FF00000, 0x000FFC00, 0x000003FF}},  // 10-10-10
        {32, {0xC0000000, 0x3F000000, 0x00FFFFFF}},  // 2, 6 and 24 bits
        {32, {0x80000000, 0x00000001, 0x7FFFFFFE}},  // 1, 1 and 30 bits
        {16, {0xF800, 0x07E0, 0x001F}},              // 5-6-5
        {16, {0x0F00, 0x00F0, 0x000F}},              // 4-4-4 with an unused nibble
        {16, {0x0001, 0x0002, 0xFFFC}},              // 1, 1 and 14 bits
    };
    for (const Case& test : cases) {
        for (const Layout& layout : layouts()) {
            SCOPED_TRACE(describe(layout, test.bpp) + ", masks " + std::to_string(test.masks[0]) +
                         " " + std::to_string(test.masks[1]) + " " + std::to_string(test.masks[2]));
            BmpSpec spec = spec_for(layout, test.bpp, 3);
            spec.compression = kBiBitfields;
            spec.masks = test.masks;
            spec.values = random_values(static_cast<std::size_t>(layout.width) * 3,
                                        test.bpp == 16 ? 1u << 16 : 0,
                                        static_cast<std::uint32_t>(layout.width));
            spec.values.at(0) = test.bpp == 16 ? 0xFFFF : 0xFFFFFFFF;  // full scale -> 255
            spec.values.at(1) = 0;
            expect_same_image(kBmp.decode(build_bmp(spec)), expected_from_masks(spec, test.masks));
        }
    }
}

TEST(BmpDecode, HonoursPixelOffsetAndIgnoresTrailingData)
{
    BmpSpec spec;
    spec.width = 2;
    spec.height = 2;
    spec.header_size = 124;
    spec.gap = 37;  // e.g. an unused colour table or padding before the pixels
    spec.values = {0x010203, 0x040506, 0x070809, 0x0A0B0C};
    std::vector<std::uint8_t> bytes = build_bmp(spec);
    bytes.insert(bytes.end(), 100, 0xEE);  // e.g. a V5 colour profile after the pixels
    expect_same_image(kBmp.decode(bytes), Image{2, 2, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}});
}

TEST(BmpDecode, IgnoresColourTableOfTrueColourImage)
{
    BmpSpec spec;
    spec.width = 1;
    spec.height = 1;
    spec.palette = {0xFF0000, 0x00FF00};  // optional palette hint before 24-bit pixels
    spec.colours_used = 2;
    spec.values = {0x112233};
    expect_same_image(kBmp.decode(build_bmp(spec)), Image{1, 1, 3, {0x11, 0x22, 0x33}});
}

// ----- Encoder ---------------------------------------------------------------------------------

Image random_image(std::size_t width, std::size_t height, int channels, std::uint32_t seed)
{
    Image image{width, height, channels, {}};
    for (std::uint32_t value :
         random_values(width * height * static_cast<std::size_t>(channels), 256, seed)) {
        image.pixels.push_back(static_cast<std::uint8_t>(value));
    }
    return image;
}

TEST(BmpEncode, RoundTripsGreyAndRgb)
{
    for (int channels : {1, 3}) {
        for (int width : kWidths) {
            for (std::size_t height : {1, 2, 7}) {
                SCOPED_TRACE(std::to_string(channels) + " channels, " + std::to_string(width) +
                             "x" + std::to_string(height));
                const Image image =
                    random_image(static_cast<std::size_t>(width), height, channels, 99);
                expect_same_image(kBmp.decode(sdk::encode_bmp(image)), image);
            }
        }
    }
}

TEST(BmpEncode, WritesGreyAsEightBitWithGreyPalette)
{
    const auto bytes = sdk::encode_bmp(Image{3, 2, 1, {1, 2, 3, 4, 5, 6}});
    const std::size_t offset = 14 + 40 + 256 * 4;
    ASSERT_EQ(bytes.size(), offset + 2 * 4);  // 3-byte rows padded to 4
    EXPECT_EQ(bytes[kBppField], 8);
    EXPECT_EQ(bytes[kOffsetField] | (bytes[kOffsetField + 1] << 8), static_cast<int>(offset));
    EXPECT_EQ(bytes[14 + 40 + 4 * 200], 200);  // palette entry 200 is grey level 200
    EXPECT_EQ(bytes[14 + 40 + 4 * 200 + 2], 200);
    // Bottom-up: the first stored row is the bottom one.
    const std::vector<std::uint8_t> pixels(bytes.begin() + offset, bytes.end());
    EXPECT_EQ(pixels, (std::vector<std::uint8_t>{4, 5, 6, 0, 1, 2, 3, 0}));
}

TEST(BmpEncode, WritesRgbAsTwentyFourBitBgr)
{
    const auto bytes = sdk::encode_bmp(Image{1, 1, 3, {10, 20, 30}});
    ASSERT_EQ(bytes.size(), 54u + 4u);
    EXPECT_EQ(bytes[kBppField], 24);
    EXPECT_EQ(std::vector<std::uint8_t>(bytes.begin() + 54, bytes.end()),
              (std::vector<std::uint8_t>{30, 20, 10, 0}));
}

TEST(BmpEncode, RejectsInconsistentImages)
{
    EXPECT_THROW(sdk::encode_bmp(Image{1, 1, 4, {1, 2, 3, 4}}), std::invalid_argument);
    EXPECT_THROW(sdk::encode_bmp(Image{2, 2, 1, {1, 2, 3}}), std::invalid_argument);
    EXPECT_THROW(sdk::encode_bmp(Image{0, 0, 1, {}}), std::invalid_argument);
    EXPECT_THROW(sdk::encode_bmp(Image{65537, 1, 1, std::vector<std::uint8_t>(65537)}),
                 std::invalid_argument);
}

TEST(BmpFiles, WriteThenReadBack)
{
    char folder_template[] = "/tmp/sdk-bmp-test-XXXXXX";
    ASSERT_NE(mkdtemp(folder_template), nullptr);
    const std::filesystem::path folder = folder_template;
    const Image image = random_image(5, 3, 3, 5);
    sdk::write_bmp(folder / "out.bmp", image);
    expect_same_image(sdk::read_bmp(folder / "out.bmp"), image);
    std::filesystem::remove_all(folder);
}

TEST(BmpFiles, MissingFileIsAnImageError)
{
    try {
        sdk::read_bmp("/nonexistent-folder/missing.bmp");
        FAIL() << "no exception";
    } catch (const sdk::ImageError& error) {
        EXPECT_STREQ(error.what(),
                     "cannot open '/nonexistent-folder/missing.bmp': No such file or directory");
    }
}

// ----- Malformed files -----------------------------------------------------------------------

// A small valid 24-bit file to break one field at a time.
std::vector<std::uint8_t> valid_rgb()
{
    BmpSpec spec;
    spec.width = 3;
    spec.height = 2;
    spec.values = {1, 2, 3, 4, 5, 6};
    return build_bmp(spec);
}

BmpSpec valid_indexed_spec(std::uint16_t bpp)
{
    BmpSpec spec;
    spec.width = 5;
    spec.height = 3;
    spec.bpp = bpp;
    spec.palette = random_values(1u << bpp, 1u << 24, 3);
    spec.values = random_values(15, 1u << bpp, 4);
    return spec;
}

BmpSpec valid_bitfields_spec()
{
    BmpSpec spec;
    spec.width = 3;
    spec.height = -2;
    spec.bpp = 32;
    spec.compression = kBiBitfields;
    spec.masks = {0xFF0000, 0xFF00, 0xFF};
    spec.values = {1, 2, 3, 4, 5, 6};
    return spec;
}

TEST(BmpReject, MissingSignature)
{
    kBmp.expect_rejected({}, "not a BMP file (no 'BM' signature)");
    kBmp.expect_rejected({'B'}, "not a BMP file (no 'BM' signature)");
    auto bytes = valid_rgb();
    bytes[1] = 'A';
    kBmp.expect_rejected(bytes, "not a BMP file (no 'BM' signature)");
    const std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    kBmp.expect_rejected(png, "not a BMP file (no 'BM' signature)");
}

TEST(BmpReject, TruncatedHeaders)
{
    const auto bytes = valid_rgb();
    kBmp.expect_rejected({bytes.begin(), bytes.begin() + 10}, "file header truncated");
    kBmp.expect_rejected({bytes.begin(), bytes.begin() + 17}, "file header truncated");
    kBmp.expect_rejected({bytes.begin(), bytes.begin() + 30}, "info header truncated");
    kBmp.expect_rejected({bytes.begin(), bytes.begin() + 53}, "info header truncated");
    const auto bitfields = build_bmp(valid_bitfields_spec());
    kBmp.expect_rejected({bitfields.begin(), bitfields.begin() + 60}, "masks truncated");
}

TEST(BmpReject, OtherHeaderSizes)
{
    for (std::uint32_t size : {12u, 16u, 52u, 56u, 64u, 200u, 0u, 0xFFFFFFFFu}) {
        auto bytes = valid_rgb();
        patch32(bytes, 14, size);
        kBmp.expect_rejected(bytes,
                             size == 12 ? "BITMAPCOREHEADER" : "unsupported info header size");
    }
}

TEST(BmpReject, CompressedData)
{
    const std::pair<std::uint32_t, const char*> cases[] = {{1, "RLE"},
                                                           {2, "RLE"},
                                                           {4, "JPEG"},
                                                           {5, "PNG"},
                                                           {6, "unsupported compression 6"},
                                                           {11, "unsupported compression 11"},
                                                           {0xFFFFFFFF, "unsupported compression"}};
    for (const auto& [compression, phrase] : cases) {
        BmpSpec spec = valid_indexed_spec(compression == 2 ? 4 : 8);
        spec.compression = compression;
        kBmp.expect_rejected(build_bmp(spec), phrase);
    }
}

TEST(BmpReject, UnsupportedBitDepths)
{
    for (std::uint16_t bpp :
         std::initializer_list<std::uint16_t>{0, 2, 3, 7, 9, 15, 48, 64, 0xFFFF}) {
        auto bytes = valid_rgb();
        patch16(bytes, kBppField, bpp);
        kBmp.expect_rejected(bytes, "unsupported bit depth " + std::to_string(bpp));
    }
    for (std::uint16_t bpp : std::initializer_list<std::uint16_t>{1, 8, 24}) {
        auto bytes = build_bmp(valid_bitfields_spec());
        patch16(bytes, kBppField, bpp);
        kBmp.expect_rejected(bytes, "for BI_BITFIELDS");
    }
}

TEST(BmpReject, PlanesOtherThanOne)
{
    for (std::uint16_t planes : std::initializer_list<std::uint16_t>{0, 2, 0xFFFF}) {
        auto bytes = valid_rgb();
        patch16(bytes, kPlanesField, planes);
        kBmp.expect_rejected(bytes, "planes is " + std::to_string(planes) + ", must be 1");
    }
}

TEST(BmpReject, BadDimensions)
{
    const std::pair<std::pair<std::uint32_t, std::uint32_t>, const char*> cases[] = {
        {{0, 2}, "invalid width 0"},
        {{static_cast<std::uint32_t>(-3), 2}, "invalid width -3"},
        {{0x80000000u, 2}, "invalid width"},
        {{3, 0}, "invalid height 0"},
        {{65537, 1}, "too large"},
        {{1, 65537}, "too large"},
        {{1, static_cast<std::uint32_t>(-65537)}, "too large"},
        {{65536, 4097}, "too large"},  // each side allowed, the product is not
        {{16385, 16384}, "too large"},
        {{0x7FFFFFFF, 0x7FFFFFFF}, "too large"},
        {{3, 0x80000000u}, "too large"},  // INT32_MIN: a top-down height with no magnitude
    };
    for (const auto& [size, phrase] : cases) {
        auto bytes = valid_rgb();
        patch32(bytes, kWidthField, size.first);
        patch32(bytes, kHeightField, size.second);
        kBmp.expect_rejected(bytes, phrase);
    }
}

TEST(BmpReject, LargestDimensionsNeedTheirPixelData)
{
    // Accepted sizes still have to be backed by the file before anything is allocated.
    auto bytes = valid_rgb();
    patch32(bytes, kWidthField, 65536);
    patch32(bytes, kHeightField, 4096);
    kBmp.expect_rejected(bytes, "pixel data truncated");
}

TEST(BmpReject, PixelOffsetOutsidePixelData)
{
    auto past = valid_rgb();
    patch32(past, kOffsetField, static_cast<std::uint32_t>(past.size() + 1));
    kBmp.expect_rejected(past, "past the end of the file");
    patch32(past, kOffsetField, 0xFFFFFFFF);
    kBmp.expect_rejected(past, "past the end of the file");

    auto inside = valid_rgb();
    patch32(inside, kOffsetField, 20);
    kBmp.expect_rejected(inside, "inside the headers");
    patch32(inside, kOffsetField, 0);
    kBmp.expect_rejected(inside, "inside the headers");

    auto in_palette = build_bmp(valid_indexed_spec(4));
    patch32(in_palette, kOffsetField, 14 + 40 + 15 * 4);  // inside the 16-entry palette
    kBmp.expect_rejected(in_palette, "inside the headers");

    auto in_masks = build_bmp(valid_bitfields_spec());
    patch32(in_masks, kOffsetField, 14 + 40 + 4);
    kBmp.expect_rejected(in_masks, "inside the headers");
}

TEST(BmpReject, PaletteProblems)
{
    const auto bytes = build_bmp(valid_indexed_spec(8));
    kBmp.expect_rejected({bytes.begin(), bytes.begin() + 14 + 40 + 100}, "palette truncated");

    for (std::uint32_t count : {257u, 1000u, 0xFFFFFFFFu}) {
        auto too_many = build_bmp(valid_indexed_spec(8));
        patch32(too_many, kColoursUsedField, count);
        kBmp.expect_rejected(too_many, "palette has " + std::to_string(count) + " colours");
    }
    BmpSpec two_bit_palette = valid_indexed_spec(1);
    two_bit_palette.colours_used = 3;
    kBmp.expect_rejected(build_bmp(two_bit_palette), "more than the 2 a 1-bit image can use");
}

TEST(BmpReject, IndexBeyondPalette)
{
    BmpSpec spec = valid_indexed_spec(8);
    spec.palette.resize(4);
    spec.colours_used = 4;
    spec.values.assign(15, 1);
    spec.values[7] = 4;  // (2, 1)
    kBmp.expect_rejected(build_bmp(spec), "pixel (2, 1) uses colour index 4 but the palette has 4");

    BmpSpec nibbles = valid_indexed_spec(4);
    nibbles.palette.resize(2);
    nibbles.colours_used = 2;
    nibbles.values.assign(15, 0);
    nibbles.values[14] = 15;
    kBmp.expect_rejected(build_bmp(nibbles), "colour index 15");

    BmpSpec bits = valid_indexed_spec(1);
    bits.palette.resize(1);
    bits.colours_used = 1;
    bits.values.assign(15, 0);
    bits.values[0] = 1;
    kBmp.expect_rejected(build_bmp(bits), "colour index 1");
}

TEST(BmpReject, BadMasks)
{
    const std::pair<std::array<std::uint32_t, 3>, const char*> cases32[] = {
        {{0, 0xFF00, 0xFF}, "invalid red bit field mask 0x00000000"},
        {{0xFF0000, 0xF0F0, 0xFF}, "invalid green bit field mask 0x0000F0F0"},
        {{0xFF0000, 0xFF00, 0x80000001}, "invalid blue bit field mask"},
        {{0xFF0000, 0xFFFF00, 0xFF}, "bit field masks overlap"},
        {{0xFF0000, 0xFF00, 0xFF0000}, "bit field masks overlap"},
    };
    for (const auto& [masks, phrase] : cases32) {
        BmpSpec spec = valid_bitfields_spec();
        spec.masks = masks;
        kBmp.expect_rejected(build_bmp(spec), phrase);
        spec.header_size = 108;
        kBmp.expect_rejected(build_bmp(spec), phrase);
    }
    BmpSpec wide = valid_bitfields_spec();
    wide.bpp = 16;
    wide.masks = {0x1F0000, 0x07E0, 0x1F};  // red lies beyond the 16 bits of a pixel
    kBmp.expect_rejected(build_bmp(wide), "within 16 bits");
}

TEST(BmpReject, TruncatedPixelData)
{
    const auto bytes = valid_rgb();  // 3x2 at 24 bit: rows of 9 bytes padded to 12
    kBmp.expect_rejected(
        {bytes.begin(), bytes.end() - 1},
        "test.bmp: pixel data truncated: needs 24 bytes at offset 54, file has 77");
    kBmp.expect_rejected({bytes.begin(), bytes.begin() + 54},
                         "pixel data truncated: needs 24 bytes at offset 54, file has 54");
}

// Every prefix of a valid file is malformed: each must be rejected cleanly (under the
// sanitizers this also proves nothing is read past the end).
TEST(BmpReject, EveryTruncationOfValidFiles)
{
    BmpSpec v5 = valid_bitfields_spec();
    v5.header_size = 124;
    v5.bpp = 16;
    v5.masks = {0xF800, 0x07E0, 0x001F};
    BmpSpec v4 = valid_indexed_spec(8);
    v4.header_size = 108;
    const std::vector<std::vector<std::uint8_t>> files = {
        valid_rgb(),   build_bmp(valid_indexed_spec(1)),  build_bmp(valid_indexed_spec(4)),
        build_bmp(v4), build_bmp(valid_bitfields_spec()), build_bmp(v5)};
    for (const auto& file : files) {
        ASSERT_NO_THROW(kBmp.decode(file));
        for (std::size_t length = 0; length < file.size(); ++length) {
            SCOPED_TRACE("length " + std::to_string(length) + " of " + std::to_string(file.size()));
            EXPECT_THROW(kBmp.decode({file.begin(), file.begin() + static_cast<long>(length)}),
                         sdk::ImageError);
        }
    }
}

// A cheap stand-in for the libFuzzer run: random corruption must give either a consistent image
// or an ImageError, nothing else.
TEST(BmpReject, RandomCorruptionNeverCrashes)
{
    BmpSpec v5 = valid_bitfields_spec();
    v5.header_size = 124;
    const std::vector<std::vector<std::uint8_t>> seeds = {
        valid_rgb(), build_bmp(valid_indexed_spec(4)), build_bmp(valid_indexed_spec(8)),
        build_bmp(v5)};
    std::mt19937 engine(12345);
    int accepted = 0;
    for (int round = 0; round < 20000; ++round) {
        std::vector<std::uint8_t> bytes = seeds[engine() % seeds.size()];
        const std::uint32_t flips = 1 + engine() % 4;
        for (std::uint32_t i = 0; i < flips; ++i) {
            // Favour the headers, where the interesting damage is.
            const std::size_t at = engine() % 2 ? engine() % 70 : engine() % bytes.size();
            if (at < bytes.size()) {
                bytes[at] = static_cast<std::uint8_t>(engine());
            }
        }
        if (engine() % 8 == 0) {
            bytes.resize(engine() % (bytes.size() + 1));
        }
        try {
            const Image image = kBmp.decode(bytes);
            ASSERT_EQ(image.pixels.size(),
                      image.width * image.height * static_cast<std::size_t>(image.channels));
            ++accepted;
        } catch (const sdk::ImageError&) {
        }
    }
    EXPECT_GT(accepted, 0);  // the corruption is not so heavy that nothing survives
}

}  // namespace
