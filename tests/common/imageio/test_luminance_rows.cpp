// SPDX-License-Identifier: Apache-2.0
// Luminance as it is decoded (read_luminance_rows, common/imageio/image_file.hpp): the same pixels
// as read_luminance for every format and layout, the rows handed on in a growing count that ends
// at the height, a few at a time where the format allows, and a damaged file's error thrown.
#include "codec_builders.hpp"
#include "imageio_test_support.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/image_file.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using sdk::Image;
using sdk::ImageHeader;

class LuminanceRows : public decodetest::FolderTest {
protected:
    fs::path write(const std::string& name, const std::vector<std::uint8_t>& bytes)
    {
        sdk::write_file_atomically(folder_ / name, bytes.data(), bytes.size());
        return folder_ / name;
    }

    // What read_luminance_rows did with a file: where it asked to put the rows, every count it
    // handed on, and the pixels it left there.
    struct Delivery {
        std::vector<ImageHeader> asked;
        std::vector<std::size_t> counts;
        Image grey;
    };
    static Delivery deliver(const fs::path& path)
    {
        Delivery delivery;
        sdk::LuminanceRows rows;
        rows.storage = [&](const ImageHeader& header) {
            delivery.asked.push_back(header);
            delivery.grey = Image{header.width, header.height, 1,
                                  std::vector<std::uint8_t>(header.width * header.height, 0xA5)};
            return delivery.grey.pixels.data();
        };
        rows.decoded = [&](std::size_t count) { delivery.counts.push_back(count); };
        sdk::read_luminance_rows(sdk::InputFile(path), rows);
        return delivery;
    }

    // The delivery matches read_luminance; returns how many times rows were handed on.
    static std::size_t expect_as_read_luminance(const fs::path& path)
    {
        SCOPED_TRACE(path.filename().string());
        const Delivery delivery = deliver(path);
        const Image expected = sdk::read_luminance(sdk::InputFile(path));
        EXPECT_EQ(delivery.asked.size(), 1u);
        if (delivery.asked.size() != 1) return 0;
        EXPECT_EQ(delivery.asked[0].width, expected.width);
        EXPECT_EQ(delivery.asked[0].height, expected.height);
        EXPECT_EQ(delivery.asked[0].channels, 1);
        EXPECT_EQ(delivery.grey.pixels, expected.pixels);
        EXPECT_FALSE(delivery.counts.empty());
        for (std::size_t i = 1; i < delivery.counts.size(); ++i)
            EXPECT_LT(delivery.counts[i - 1], delivery.counts[i]);
        if (!delivery.counts.empty()) {
            EXPECT_EQ(delivery.counts.back(), expected.height);
        }
        return delivery.counts.size();
    }

    std::vector<std::uint8_t> jpeg(codectest::JpegSpec spec)
    {
        spec.pixels.resize(static_cast<std::size_t>(spec.width) * spec.height * spec.components);
        for (auto& value : spec.pixels) value = static_cast<std::uint8_t>(random_() % 256);
        return codectest::build_jpeg(spec);
    }

    std::vector<std::uint8_t> png(codectest::PngSpec spec)
    {
        const std::size_t count =
            std::size_t{spec.width} * spec.height * codectest::stored_channels(spec.colour_type);
        spec.samples.resize(count);
        for (auto& sample : spec.samples)
            sample = static_cast<std::uint16_t>(random_() % (1u << spec.bit_depth));
        if (spec.colour_type == PNG_COLOR_TYPE_PALETTE)
            for (int i = 0; i < (1 << spec.bit_depth); ++i)
                spec.palette.push_back({static_cast<png_byte>(i * 7),
                                        static_cast<png_byte>(255 - i),
                                        static_cast<png_byte>(i * 13)});
        return codectest::build_png(spec);
    }

    std::mt19937 random_{2026};
};

TEST_F(LuminanceRows, JpegFilesAsReadLuminanceAFewRowsAtATime)
{
    codectest::JpegSpec grey;
    grey.components = 1;
    for (const auto& [width, height] : std::vector<std::pair<int, int>>{{1, 1}, {2, 3}, {17, 5}}) {
        grey.width = width, grey.height = height;
        expect_as_read_luminance(write("grey.jpg", jpeg(grey)));
    }
    codectest::JpegSpec colour;
    colour.width = 130, colour.height = 67, colour.subsampled = true;
    EXPECT_GT(expect_as_read_luminance(write("colour.jpg", jpeg(colour))), 1u);
    colour.progressive = true, colour.width = 64, colour.height = 129;
    expect_as_read_luminance(write("progressive.jpg", jpeg(colour)));
    // Restart markers on every MCU row and over a megapixel: decoded on every core, its bands
    // completing in any order and handed on as they join up from the top, rows in order. How
    // many hand-ons that takes is the cores' race (every band may be done before the first is
    // handed on), so only their order and the rows are checked.
    codectest::JpegSpec restarts;
    restarts.width = 1100, restarts.height = 1000, restarts.restart_rows = 1;
    EXPECT_GE(expect_as_read_luminance(write("restarts.jpg", jpeg(restarts))), 1u);
}

TEST_F(LuminanceRows, PngFilesAsReadLuminanceRunByRunUnlessInterlaced)
{
    codectest::PngSpec spec;
    spec.width = 17, spec.height = 5;
    expect_as_read_luminance(write("grey.png", png(spec)));
    spec.width = 1, spec.height = 1;
    expect_as_read_luminance(write("one.png", png(spec)));
    spec.colour_type = PNG_COLOR_TYPE_RGB, spec.width = 130, spec.height = 67;
    EXPECT_GT(expect_as_read_luminance(write("rgb.png", png(spec))), 1u);
    spec.colour_type = PNG_COLOR_TYPE_RGB_ALPHA, spec.bit_depth = 16, spec.width = 20,
    spec.height = 65;
    EXPECT_GT(expect_as_read_luminance(write("rgba16.png", png(spec))), 1u);
    spec = {};
    spec.colour_type = PNG_COLOR_TYPE_PALETTE, spec.bit_depth = 4, spec.width = 33,
    spec.height = 70;
    EXPECT_GT(expect_as_read_luminance(write("palette.png", png(spec))), 1u);
    spec = {};
    spec.colour_type = PNG_COLOR_TYPE_RGB, spec.interlaced = true, spec.width = 40,
    spec.height = 70;
    EXPECT_EQ(expect_as_read_luminance(write("interlaced.png", png(spec))), 1u);
}

TEST_F(LuminanceRows, ABmpComesWhole)
{
    const Image rgb{5, 3, 3, std::vector<std::uint8_t>(45, 77)};
    sdk::write_image(folder_ / "photo.bmp", rgb);
    EXPECT_EQ(expect_as_read_luminance(folder_ / "photo.bmp"), 1u);
}

TEST_F(LuminanceRows, ADamagedFileThrows)
{
    codectest::JpegSpec colour;
    colour.width = 256, colour.height = 256;
    std::vector<std::uint8_t> bytes = jpeg(colour);
    bytes.resize(bytes.size() / 2);
    const fs::path cut = write("cut.jpg", bytes);
    EXPECT_THROW(deliver(cut), sdk::ImageError);
    codectest::PngSpec spec;
    spec.width = 300, spec.height = 300;
    bytes = png(spec);
    bytes.resize(bytes.size() / 2);
    EXPECT_THROW(deliver(write("cut.png", bytes)), sdk::ImageError);
}

}  // namespace
