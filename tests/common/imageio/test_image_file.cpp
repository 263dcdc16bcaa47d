// SPDX-License-Identifier: Apache-2.0
// Image files whatever their format (common/imageio/image_file): the reader chooses by the first
// bytes, the writer by the output's extension; unknown files are refused with one line naming them.
#include "bmp_builder.hpp"
#include "codec_builders.hpp"
#include "imageio_test_support.hpp"
#include "common/imageio/bmp.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/image_file.hpp"
#include "common/imageio/png.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using sdk::Image;
using sdk::ImageFormat;

class ImageFiles : public decodetest::FolderTest {
protected:
    std::filesystem::path write(const std::string& name, const std::vector<std::uint8_t>& bytes)
    {
        sdk::write_file_atomically(folder_ / name, bytes.data(), bytes.size());
        return folder_ / name;
    }

    std::vector<std::uint8_t> first_bytes(const std::string& name, std::size_t count)
    {
        std::vector<std::uint8_t> bytes = sdk::read_file(folder_ / name);
        bytes.resize(std::min(bytes.size(), count));
        return bytes;
    }
};

const Image kImage{3, 2, 1, {0, 50, 100, 150, 200, 250}};

TEST(ImageFormatDetection, BySignature)
{
    const std::uint8_t bmp[] = {'B', 'M', 0, 0};
    const std::uint8_t png[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    const std::uint8_t jpeg[] = {0xFF, 0xD8, 0xFF, 0xE0};
    EXPECT_EQ(sdk::detect_image_format(bmp, sizeof bmp, "x"), ImageFormat::bmp);
    EXPECT_EQ(sdk::detect_image_format(png, sizeof png, "x"), ImageFormat::png);
    EXPECT_EQ(sdk::detect_image_format(jpeg, sizeof jpeg, "x"), ImageFormat::jpeg);
    // A PNG signature cut short, a GIF, nothing: none of ours.
    for (const std::vector<std::uint8_t>& other :
         {std::vector<std::uint8_t>{0x89, 'P', 'N', 'G'},
          std::vector<std::uint8_t>{'G', 'I', 'F', '8'}, std::vector<std::uint8_t>{}}) {
        try {
            sdk::detect_image_format(other.data(), other.size(), "x.png");
            ADD_FAILURE() << "accepted";
        } catch (const sdk::ImageError& error) {
            EXPECT_STREQ(error.what(), "x.png: not a BMP, PNG or JPEG file");
        }
    }
}

TEST(ImageFormatDetection, PngPathsInAnyCase)
{
    EXPECT_TRUE(sdk::is_png_path("edges.png"));
    EXPECT_TRUE(sdk::is_png_path("out/EDGES.PNG"));
    EXPECT_TRUE(sdk::is_png_path("a.Png"));
    EXPECT_FALSE(sdk::is_png_path("edges.bmp"));
    EXPECT_FALSE(sdk::is_png_path("png"));
    EXPECT_FALSE(sdk::is_png_path("edges.png.bak"));
    EXPECT_FALSE(sdk::is_png_path("edges"));
}

TEST_F(ImageFiles, WriteImageChoosesByExtension)
{
    sdk::write_image(folder_ / "a.png", kImage);
    sdk::write_image(folder_ / "b.PNG", kImage);
    sdk::write_image(folder_ / "c.bmp", kImage);
    sdk::write_image(folder_ / "d.out", kImage);
    const std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    EXPECT_EQ(first_bytes("a.png", 8), png);
    EXPECT_EQ(first_bytes("b.PNG", 8), png);
    EXPECT_EQ(first_bytes("c.bmp", 2), (std::vector<std::uint8_t>{'B', 'M'}));
    EXPECT_EQ(first_bytes("d.out", 2), (std::vector<std::uint8_t>{'B', 'M'}));
    for (const char* name : {"a.png", "b.PNG", "c.bmp", "d.out"}) {
        SCOPED_TRACE(name);
        const Image back = sdk::read_image(folder_ / name);
        EXPECT_EQ(back.pixels, kImage.pixels);
        EXPECT_EQ(back.width, 3u);
        EXPECT_EQ(back.channels, 1);
    }
}

TEST_F(ImageFiles, ReadImageChoosesBySignature)
{
    // Each format under the other formats' names.
    write("png.bmp", sdk::encode_png(kImage));
    write("bmp.png", sdk::encode_bmp(kImage));
    codectest::JpegSpec spec;
    spec.width = 3;
    spec.height = 2;
    spec.components = 1;
    spec.quality = 100;
    spec.pixels = kImage.pixels;
    const std::vector<std::uint8_t> jpeg = codectest::build_jpeg(spec);
    write("jpeg.bmp", jpeg);
    EXPECT_EQ(sdk::read_image(folder_ / "png.bmp").pixels, kImage.pixels);
    EXPECT_EQ(sdk::read_image(folder_ / "bmp.png").pixels, kImage.pixels);
    EXPECT_EQ(sdk::read_image(folder_ / "jpeg.bmp").pixels, codectest::decode_jpeg_directly(jpeg));
    EXPECT_EQ(sdk::decode_image(jpeg.data(), jpeg.size(), "x").pixels,
              codectest::decode_jpeg_directly(jpeg));
}

TEST_F(ImageFiles, RefusesUnknownAndIrregularFiles)
{
    const std::string text = "GIF89a, or anything else";
    const auto path = write("photo.png", std::vector<std::uint8_t>(text.begin(), text.end()));
    try {
        sdk::read_image(path);
        ADD_FAILURE() << "accepted";
    } catch (const sdk::ImageError& error) {
        EXPECT_EQ(std::string(error.what()), path.string() + ": not a BMP, PNG or JPEG file");
    }
    try {
        sdk::read_image("/dev/zero");
        ADD_FAILURE() << "accepted";
    } catch (const sdk::ImageError& error) {
        EXPECT_NE(std::string(error.what()).find("a character device, not a regular file"),
                  std::string::npos)
            << error.what();
    }
}

TEST_F(ImageFiles, BmpLayoutFromTheFile)
{
    const auto path = write("grey.bmp", sdk::encode_bmp(kImage));
    const sdk::InputFile file(path);
    const sdk::BmpLayout layout = sdk::read_bmp_layout(file);
    EXPECT_EQ(layout.width, 3u);
    EXPECT_EQ(layout.height, 2u);
    EXPECT_EQ(layout.storage, sdk::BmpStorage::grey8);
    EXPECT_EQ(layout.stride, 4u);
    // Cut inside its pixel rows: refused from the header alone, naming the file.
    std::vector<std::uint8_t> bytes = sdk::encode_bmp(kImage);
    bytes.resize(bytes.size() - 1);
    const sdk::InputFile cut(write("cut.bmp", bytes));
    try {
        sdk::read_bmp_layout(cut);
        ADD_FAILURE() << "accepted";
    } catch (const sdk::ImageError& error) {
        EXPECT_EQ(std::string(error.what()).rfind((folder_ / "cut.bmp").string() + ": ", 0), 0u)
            << error.what();
    }
}

}  // namespace
