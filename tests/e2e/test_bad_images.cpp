// SPDX-License-Identifier: Apache-2.0
// End to end: the real sample executables, run as child processes on image files that must
// fail cleanly: missing, not images, truncated, absurd dimensions, pixels out of place, layouts
// the reader does not support, inputs that never end. Each case checks what a user sees: the
// exit status 1, exactly one line on stderr naming the problem, no output file (not even a
// temporary) left behind and the input untouched (bad_input_support.hpp).
#include "bad_input_support.hpp"

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;
using namespace e2etest::bad_input;

// --- Files that are not there or are not BMP, PNG or JPEG images. ---

TEST_F(BadInput, MissingFile)
{
    expect_failure(reading(inputs_ / "missing.bmp"), kFailure, "No such file or directory");
}

TEST_F(BadInput, EmptyFile)
{
    expect_rejected({}, "not a BMP, PNG or JPEG file");
}

TEST_F(BadInput, TextFileNamedBmp)
{
    const std::string text = "This is not an image.\nJust text with a .bmp name.\n";
    expect_rejected(std::vector<std::uint8_t>(text.begin(), text.end()),
                    "not a BMP, PNG or JPEG file");
}

TEST_F(BadInput, InputIsAFolder)
{
    fs::create_directory(inputs_ / "folder.bmp");
    expect_failure(reading(inputs_ / "folder.bmp"), kFailure, "directory");
}

// --- Truncated files. ---

TEST_F(BadInput, TruncatedPng)
{
    const std::vector<std::uint8_t> bmp = valid_bmp();
    const std::vector<std::uint8_t> png =
        sdk::encode_png(sdk::decode_bmp(bmp.data(), bmp.size(), "valid"));
    expect_failure(reading(write_input("photo.png", truncated(png, png.size() - 20))), kFailure,
                   "photo.png: truncated");
}

TEST_F(BadInput, CmykJpeg)
{
    codectest::JpegSpec cmyk;
    cmyk.width = 8;
    cmyk.height = 8;
    cmyk.components = 4;
    cmyk.pixels.assign(8 * 8 * 4, 100);
    expect_failure(reading(write_input("print.jpg", codectest::build_jpeg(cmyk))), kFailure,
                   "CMYK JPEG is not supported");
}

TEST_F(BadInput, TruncatedFileHeader)
{
    expect_rejected(truncated(valid_bmp(), 10), "file header truncated");
}

TEST_F(BadInput, TruncatedInfoHeader)
{
    expect_rejected(truncated(valid_bmp(), 30), "info header truncated");
}

TEST_F(BadInput, TruncatedV5Header)
{
    auto spec = valid_spec();
    spec.header_size = 124;
    expect_rejected(truncated(bmptest::build_bmp(spec), 100), "info header truncated");
}

TEST_F(BadInput, TruncatedBitFieldMasks)
{
    bmptest::BmpSpec spec;
    spec.bpp = 32;
    spec.compression = 3;
    spec.masks = {0xFF0000, 0xFF00, 0xFF};
    spec.values = {0x123456};
    expect_rejected(truncated(bmptest::build_bmp(spec), 14 + 40 + 6), "bit field masks truncated");
}

TEST_F(BadInput, TruncatedPalette)
{
    expect_rejected(truncated(bmptest::build_bmp(indexed_spec()), 14 + 40 + 100),
                    "palette truncated");
}

TEST_F(BadInput, TruncatedPixelData)
{
    const auto bytes = valid_bmp();
    expect_rejected(truncated(bytes, bytes.size() - 1), "pixel data truncated");
}

TEST_F(BadInput, HeadersWithoutPixels)
{
    expect_rejected(truncated(valid_bmp(), 14 + 40), "pixel data truncated");
}

// --- Dimensions. ---

TEST_F(BadInput, AbsurdWidth)
{
    auto bytes = valid_bmp();
    patch32(bytes, kWidthField, 100000);
    expect_rejected(bytes, "image too large");
}

TEST_F(BadInput, AbsurdPixelCount)
{
    // Each side within the limit, the product (3.6e9 pixels) far beyond it.
    auto bytes = valid_bmp();
    patch32(bytes, kWidthField, 60000);
    patch32(bytes, kHeightField, 60000);
    expect_rejected(bytes, "image too large");
}

TEST_F(BadInput, MostNegativeHeight)
{
    // -2^31: top-down rows, and a magnitude that does not fit int32.
    auto bytes = valid_bmp();
    patch32(bytes, kHeightField, 0x80000000u);
    expect_rejected(bytes, "image too large");
}

TEST_F(BadInput, NegativeWidth)
{
    auto bytes = valid_bmp();
    patch32(bytes, kWidthField, static_cast<std::uint32_t>(-19));
    expect_rejected(bytes, "invalid width -19");
}

TEST_F(BadInput, ZeroWidth)
{
    auto bytes = valid_bmp();
    patch32(bytes, kWidthField, 0);
    expect_rejected(bytes, "invalid width 0");
}

TEST_F(BadInput, ZeroHeight)
{
    auto bytes = valid_bmp();
    patch32(bytes, kHeightField, 0);
    expect_rejected(bytes, "invalid height 0");
}

// --- Where the pixels are. ---

TEST_F(BadInput, PixelOffsetPastTheEnd)
{
    auto bytes = valid_bmp();
    patch32(bytes, kOffsetField, static_cast<std::uint32_t>(bytes.size() + 1));
    expect_rejected(bytes, "past the end of the file");
}

TEST_F(BadInput, PixelOffsetInsideTheHeaders)
{
    auto bytes = valid_bmp();
    patch32(bytes, kOffsetField, 20);
    expect_rejected(bytes, "inside the headers");
}

// --- Layouts the reader does not support. ---

TEST_F(BadInput, BitDepth2)
{
    bmptest::BmpSpec spec;
    spec.bpp = 2;
    spec.palette = {0x000000, 0x555555, 0xAAAAAA, 0xFFFFFF};
    spec.values = {3};
    expect_rejected(bmptest::build_bmp(spec), "unsupported bit depth 2");
}

TEST_F(BadInput, BitDepth64)
{
    bmptest::BmpSpec spec;
    spec.bpp = 64;
    spec.values = {0xFFFFFF};
    expect_rejected(bmptest::build_bmp(spec), "unsupported bit depth 64");
}

TEST_F(BadInput, CompressionRle8)
{
    auto spec = indexed_spec();
    spec.compression = 1;
    expect_rejected(bmptest::build_bmp(spec), "RLE compression (BI_RLE8) is not supported");
}

TEST_F(BadInput, CompressionRle4)
{
    auto spec = indexed_spec();
    spec.bpp = 4;
    spec.palette.resize(16);
    spec.compression = 2;
    expect_rejected(bmptest::build_bmp(spec), "RLE compression (BI_RLE4) is not supported");
}

TEST_F(BadInput, CompressionJpeg)
{
    auto spec = valid_spec();
    spec.compression = 4;
    expect_rejected(bmptest::build_bmp(spec), "JPEG compression is not supported");
}

TEST_F(BadInput, CompressionPng)
{
    auto spec = valid_spec();
    spec.compression = 5;
    expect_rejected(bmptest::build_bmp(spec), "PNG compression is not supported");
}

TEST_F(BadInput, UnknownCompression)
{
    auto spec = valid_spec();
    spec.compression = 9;
    expect_rejected(bmptest::build_bmp(spec), "unsupported compression 9");
}

TEST_F(BadInput, Os2CoreHeader)
{
    auto bytes = valid_bmp();
    patch32(bytes, 14, 12);
    expect_rejected(bytes, "OS/2 BITMAPCOREHEADER");
}

TEST_F(BadInput, UnknownHeaderSize)
{
    auto bytes = valid_bmp();
    patch32(bytes, 14, 64);
    expect_rejected(bytes, "unsupported info header size 64");
}

TEST_F(BadInput, TwoPlanes)
{
    auto bytes = valid_bmp();
    bytes.at(kPlanesField) = 2;
    expect_rejected(bytes, "planes is 2");
}

TEST_F(BadInput, OverlappingBitFieldMasks)
{
    bmptest::BmpSpec spec;
    spec.bpp = 32;
    spec.compression = 3;
    spec.masks = {0xFF0000, 0xFFFF00, 0xFF};
    spec.values = {0x123456};
    expect_rejected(bmptest::build_bmp(spec), "bit field masks overlap");
}

TEST_F(BadInput, NonContiguousBitFieldMask)
{
    bmptest::BmpSpec spec;
    spec.bpp = 16;
    spec.compression = 3;
    spec.masks = {0xF00F, 0x07E0, 0x0010};
    spec.values = {0x1234};
    expect_rejected(bmptest::build_bmp(spec), "invalid red bit field mask");
}

TEST_F(BadInput, PaletteLargerThanTheDepthAllows)
{
    auto spec = indexed_spec();
    spec.colours_used = 300;
    expect_rejected(bmptest::build_bmp(spec), "palette has 300 colours");
}

TEST_F(BadInput, ColourIndexOutsideThePalette)
{
    auto spec = indexed_spec();
    spec.palette.resize(4);
    spec.colours_used = 4;
    expect_rejected(bmptest::build_bmp(spec), "uses colour index 7");
}

// --- Inputs that never end or declare more than they hold: refused at once, in little memory. ---

TEST_F(BadInput, EndlessInputsAreRefusedAtOnce)
{
    for (const char* endless : {"/dev/zero", "/dev/urandom"}) {
        SCOPED_TRACE(endless);
        for (const fs::path& program : samples_) {
            const Outcome outcome = run_program(program, reading(endless), inputs_, logs_);
            EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how << outcome.err;
            EXPECT_NE(outcome.err.find("not a regular file"), std::string::npos) << outcome.err;
            EXPECT_LT(outcome.peak_memory_kb, 512 * 1024) << program.filename() << " read it";
        }
    }
}

TEST_F(BadInput, InputIsAFifoWithNoWriter)
{
    ASSERT_EQ(::mkfifo((inputs_ / "fifo.bmp").c_str(), 0600), 0);
    expect_failure(reading(inputs_ / "fifo.bmp"), kFailure, "FIFO");
}

TEST_F(BadInput, HugeDeclaredSizeOverASparseFile)
{
    // 30000x30000 (2.7 GB of pixels) declared, and the file really that long, but sparse: the
    // header alone refuses it, nothing of the 2.7 GB is read.
    auto bytes = valid_bmp();
    patch32(bytes, kWidthField, 30000);
    patch32(bytes, kHeightField, 30000);
    const fs::path input = write_input("huge.bmp", bytes);
    fs::resize_file(input, 54 + std::uint64_t{30000} * 90000);
    for (const fs::path& program : samples_) {
        const Outcome outcome = run_program(program, reading(input), inputs_, logs_);
        EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how << outcome.err;
        EXPECT_NE(outcome.err.find("image too large"), std::string::npos) << outcome.err;
        EXPECT_LT(outcome.peak_memory_kb, 512 * 1024) << program.filename();
    }
}

}  // namespace
