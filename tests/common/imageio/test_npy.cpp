// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/file_io.hpp"
#include "common/imageio/npy.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<std::uint8_t>;

std::string header_text(const Bytes& file)
{
    const std::size_t length = file.at(8) | (file.at(9) << 8);
    return std::string(file.begin() + 10, file.begin() + 10 + static_cast<long>(length));
}

std::size_t data_offset(const Bytes& file)
{
    return 10 + (file.at(8) | (file.at(9) << 8));
}

TEST(Npy, HeaderBytesAreExact)
{
    const Bytes file = sdk::encode_npy(Bytes{1, 2, 3, 4, 5, 6}, 2, 3);
    const std::string dict = "{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }";
    // 10 bytes of preamble + 60 of dict + 1 newline = 71, so spaces pad it to 128 (as NumPy).
    const std::string header = dict + std::string(128 - 10 - dict.size() - 1, ' ') + "\n";
    Bytes expected = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<std::uint8_t>(header.size()),
                      0};
    expected.insert(expected.end(), header.begin(), header.end());
    expected.insert(expected.end(), {1, 2, 3, 4, 5, 6});
    EXPECT_EQ(file, expected);
    EXPECT_EQ(header.size(), 118u);
}

TEST(Npy, DataStartsAtMultipleOf64)
{
    for (std::size_t height : {0, 1, 9, 10, 99, 100, 12345, 1234567}) {
        for (std::size_t width : {0, 1, 7, 1000, 1000000}) {
            if (height * width > 50000000) {
                continue;
            }
            const Bytes file = sdk::encode_npy(Bytes(height * width), height, width);
            const std::string header = header_text(file);
            EXPECT_EQ(data_offset(file) % 64, 0u) << header;
            EXPECT_EQ(header.back(), '\n');
            EXPECT_EQ(file.size(), data_offset(file) + height * width);
            EXPECT_NE(header.find("'shape': (" + std::to_string(height) + ", " +
                                  std::to_string(width) + "), }"),
                      std::string::npos)
                << header;
        }
    }
}

TEST(Npy, Int8IsStoredAsTwosComplement)
{
    const Bytes file = sdk::encode_npy(std::vector<std::int8_t>{-128, -1, 0, 127}, 1, 4);
    EXPECT_EQ(header_text(file).rfind("{'descr': '|i1', 'fortran_order': False, "
                                      "'shape': (1, 4), }",
                                      0),
              0u);
    EXPECT_EQ(Bytes(file.begin() + static_cast<long>(data_offset(file)), file.end()),
              (Bytes{0x80, 0xFF, 0x00, 0x7F}));
}

TEST(Npy, FloatIsLittleEndianBinary32)
{
    const Bytes file = sdk::encode_npy(std::vector<float>{1.0f, -2.5f}, 2, 1);
    EXPECT_EQ(header_text(file).rfind("{'descr': '<f4', 'fortran_order': False, "
                                      "'shape': (2, 1), }",
                                      0),
              0u);
    // 1.0f = 0x3F800000, -2.5f = 0xC0200000.
    EXPECT_EQ(Bytes(file.begin() + static_cast<long>(data_offset(file)), file.end()),
              (Bytes{0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x20, 0xC0}));
}

TEST(Npy, RejectsShapeMismatch)
{
    EXPECT_THROW(sdk::encode_npy(Bytes(5), 2, 3), std::invalid_argument);
    EXPECT_THROW(sdk::encode_npy(std::vector<float>(7), 2, 3), std::invalid_argument);
    EXPECT_THROW(sdk::encode_npy(std::vector<std::int8_t>(1), SIZE_MAX, 2), std::invalid_argument);
}

TEST(Npy, WriteMatchesEncode)
{
    char folder_template[] = "/tmp/sdk-npy-test-XXXXXX";
    ASSERT_NE(mkdtemp(folder_template), nullptr);
    const std::filesystem::path folder = folder_template;
    const std::vector<float> floats = {0.5f, 1.5f, 2.5f, 3.5f};
    const std::vector<std::int8_t> signed_bytes = {-3, 3};
    const Bytes bytes = {9, 8, 7};
    sdk::write_npy(folder / "f.npy", floats, 2, 2);
    sdk::write_npy(folder / "i.npy", signed_bytes, 1, 2);
    sdk::write_npy(folder / "u.npy", bytes, 3, 1);
    EXPECT_EQ(sdk::read_file(folder / "f.npy"), sdk::encode_npy(floats, 2, 2));
    EXPECT_EQ(sdk::read_file(folder / "i.npy"), sdk::encode_npy(signed_bytes, 1, 2));
    EXPECT_EQ(sdk::read_file(folder / "u.npy"), sdk::encode_npy(bytes, 3, 1));
    std::filesystem::remove_all(folder);
}

}  // namespace
