// SPDX-License-Identifier: Apache-2.0
// The PBM (P4) writer and the bit packing it shares with the morphology sample.
#include "common/imageio/file_io.hpp"
#include "common/imageio/pbm.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace sdk {
namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes with_header(const std::string& header, const Bytes& rows)
{
    Bytes file(header.begin(), header.end());
    file.insert(file.end(), rows.begin(), rows.end());
    return file;
}

// 10x2: row 0 is 1011 0001 | 11, row 1 is 0000 0000 | 01.
const Image kMask{10, 2, 1, {1, 0, 1, 1, 0, 0, 0, 1, 1, 1,  //
                             0, 0, 0, 0, 0, 0, 0, 0, 0, 1}};

TEST(PackBitmap, MostSignificantBitIsTheLeftmostPixel)
{
    const PackedBitmap bitmap = pack_bitmap(kMask);
    EXPECT_EQ(bitmap.width, 10u);
    EXPECT_EQ(bitmap.height, 2u);
    EXPECT_EQ(bitmap.row_pitch, 2u);
    EXPECT_EQ(bitmap.bits, (Bytes{0xB1, 0xC0, 0x00, 0x40}));
}

TEST(PackBitmap, WiderRowPitchIsZeroPadded)
{
    Image mask = kMask;
    mask.pixels[0] = 255;  // any non-zero value is foreground
    const PackedBitmap bitmap = pack_bitmap(mask, 4);
    EXPECT_EQ(bitmap.row_pitch, 4u);
    EXPECT_EQ(bitmap.bits, (Bytes{0xB1, 0xC0, 0, 0, 0x00, 0x40, 0, 0}));
}

TEST(PackBitmap, RefusesInconsistentInput)
{
    EXPECT_THROW(pack_bitmap(kMask, 1), std::invalid_argument);  // 10 pixels need 2 bytes
    Image wrong = kMask;
    wrong.pixels.pop_back();
    EXPECT_THROW(pack_bitmap(wrong), std::invalid_argument);
    wrong = kMask;
    wrong.channels = 3;
    EXPECT_THROW(pack_bitmap(wrong), std::invalid_argument);
}

TEST(EncodePbm, ExactBytesOfASmallImage)
{
    EXPECT_EQ(encode_pbm(pack_bitmap(kMask)), with_header("P4\n10 2\n", {0xB1, 0xC0, 0x00, 0x40}));
}

TEST(EncodePbm, DropsRowPaddingAndClearsBitsPastTheWidth)
{
    // A device row pitch of 4 bytes, with junk in every bit and byte past the 10 pixels.
    const PackedBitmap bitmap{10, 2, 4, {0xB1, 0xFF, 0xEE, 0xEE, 0x00, 0x7F, 0xEE, 0xEE}};
    EXPECT_EQ(encode_pbm(bitmap), with_header("P4\n10 2\n", {0xB1, 0xC0, 0x00, 0x40}));
}

TEST(EncodePbm, WholeBytesAndASinglePixel)
{
    EXPECT_EQ(encode_pbm(PackedBitmap{16, 1, 2, {0xFF, 0x81}}),
              with_header("P4\n16 1\n", {0xFF, 0x81}));
    EXPECT_EQ(encode_pbm(PackedBitmap{1, 1, 1, {0xFF}}), with_header("P4\n1 1\n", {0x80}));
    EXPECT_EQ(encode_pbm(PackedBitmap{1, 1, 4, {0x7F, 1, 2, 3}}), with_header("P4\n1 1\n", {0x00}));
}

TEST(EncodePbm, RefusesEmptyOrInconsistentBitmaps)
{
    EXPECT_THROW(encode_pbm(PackedBitmap{0, 1, 1, {0}}), std::invalid_argument);
    EXPECT_THROW(encode_pbm(PackedBitmap{1, 0, 1, {}}), std::invalid_argument);
    EXPECT_THROW(encode_pbm(PackedBitmap{10, 2, 1, {0, 0}}), std::invalid_argument);
    EXPECT_THROW(encode_pbm(PackedBitmap{10, 2, 2, {0, 0, 0}}), std::invalid_argument);
}

TEST(WritePbm, WritesTheEncodedFile)
{
    char folder_template[] = "/tmp/sdk-pbm-test-XXXXXX";
    ASSERT_NE(mkdtemp(folder_template), nullptr);
    const std::filesystem::path folder = folder_template;
    write_pbm(folder / "mask.pbm", pack_bitmap(kMask));
    EXPECT_EQ(read_file(folder / "mask.pbm"), encode_pbm(pack_bitmap(kMask)));
    EXPECT_THROW(write_pbm(folder / "missing" / "mask.pbm", pack_bitmap(kMask)), FileError);
    std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace sdk
