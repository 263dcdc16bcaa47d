// SPDX-License-Identifier: Apache-2.0
// The conversion contracts against the BMP codec they stand in for: the luminance of a file's
// stored rows is to_luminance(decode_bmp(file)), and a header plus the rows from
// bmp_rows_from_grey is encode_bmp(image), byte for byte.
#include "kernels/convert/convert_reference.hpp"
#include "common/imageio/bmp.hpp"
#include "common/imageio/luminance.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace sdk {
namespace {

Image random_image(std::size_t width, std::size_t height, int channels, std::uint32_t seed)
{
    std::mt19937 generator(seed);
    Image image{width, height, channels, std::vector<std::uint8_t>(width * height * channels)};
    for (auto& value : image.pixels) value = static_cast<std::uint8_t>(generator());
    return image;
}

const std::vector<std::pair<std::size_t, std::size_t>> kSizes{{1, 1},  {2, 3},  {3, 2},   {17, 5},
                                                              {31, 1}, {1, 33}, {129, 7}, {5, 61}};

TEST(ConvertReference, LuminanceFromStoredRowsIsTheDecodedLuminance)
{
    std::uint32_t seed = 1;
    for (const auto& [width, height] : kSizes)
        for (const int channels : {1, 3}) {
            const Image image = random_image(width, height, channels, seed++);
            const std::vector<std::uint8_t> file = encode_bmp(image);
            const BmpLayout layout = describe_bmp(file.data(), file.size(), file.size(), "test");
            ASSERT_EQ(layout.storage, channels == 3 ? BmpStorage::bgr24 : BmpStorage::grey8);
            const Image expected = to_luminance(decode_bmp(file.data(), file.size(), "test"));
            EXPECT_EQ(luminance_from_bmp_rows(file.data() + layout.pixel_offset, layout).pixels,
                      expected.pixels)
                << width << "x" << height << "x" << channels;
        }
}

TEST(ConvertReference, HeaderAndRowsAreTheEncodedFile)
{
    std::uint32_t seed = 50;
    for (const auto& [width, height] : kSizes) {
        const Image grey = random_image(width, height, 1, seed++);
        std::vector<std::uint8_t> file = bmp_grey_header(width, height);
        const std::vector<std::uint8_t> rows = bmp_rows_from_grey(grey);
        file.insert(file.end(), rows.begin(), rows.end());
        EXPECT_EQ(file, encode_bmp(grey)) << width << "x" << height;
    }
}

TEST(DescribeBmp, ReadsOnlyTheHeaderAndChecksTheRealSize)
{
    const std::vector<std::uint8_t> file = encode_bmp(random_image(40, 30, 3, 9));
    // The first 54 bytes are enough to know the layout; the file's size decides truncation.
    const BmpLayout layout = describe_bmp(file.data(), 54, file.size(), "photo.bmp");
    EXPECT_EQ(layout.width, 40u);
    EXPECT_EQ(layout.height, 30u);
    EXPECT_FALSE(layout.top_down);
    EXPECT_EQ(layout.pixel_offset, 54u);
    EXPECT_EQ(layout.stride, 120u);
    try {
        describe_bmp(file.data(), 54, file.size() - 1, "photo.bmp");
        FAIL() << "a file one byte short was accepted";
    } catch (const ImageError& error) {
        EXPECT_NE(std::string(error.what()).find("photo.bmp: pixel data truncated"),
                  std::string::npos)
            << error.what();
    }
}

TEST(DescribeBmp, OnlyTheGreyRampCountsAsStoredLuminance)
{
    // A grey palette that is not the identity ramp (here inverted) must be decoded.
    std::vector<std::uint8_t> file = encode_bmp(random_image(8, 2, 1, 3));
    for (int level = 0; level < 256; ++level)
        for (int channel = 0; channel < 3; ++channel)
            file[54 + 4 * level + channel] = static_cast<std::uint8_t>(255 - level);
    EXPECT_EQ(describe_bmp(file.data(), file.size(), file.size(), "x").storage, BmpStorage::other);
}

TEST(BmpGreyHeader, RefusesSizesNoBmpCanHold)
{
    EXPECT_THROW(bmp_grey_header(0, 5), std::invalid_argument);
    EXPECT_THROW(bmp_grey_header(65537, 1), std::invalid_argument);
    EXPECT_THROW(bmp_grey_header(16385, 16384), std::invalid_argument);
    EXPECT_EQ(bmp_grey_stride(1), 4u);
    EXPECT_EQ(bmp_grey_stride(8), 8u);
    EXPECT_EQ(bmp_grey_stride(9), 12u);
}

}  // namespace
}  // namespace sdk
