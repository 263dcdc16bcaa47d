// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/pbm.hpp"

#include "common/imageio/file_io.hpp"

#include <stdexcept>
#include <string>

namespace sdk {
namespace {

std::size_t tight_pitch(std::size_t width)
{
    return (width + 7) / 8;
}

}  // namespace

PackedBitmap pack_bitmap(const Image& mask, std::size_t row_pitch)
{
    if (mask.channels != 1 || mask.pixels.size() != mask.width * mask.height)
        throw std::invalid_argument("pack_bitmap takes a 1-channel mask of width * height pixels");
    if (row_pitch == 0) row_pitch = tight_pitch(mask.width);
    if (row_pitch < tight_pitch(mask.width))
        throw std::invalid_argument("row pitch of " + std::to_string(row_pitch) +
                                    " bytes is too small for " + std::to_string(mask.width) +
                                    " pixels");
    PackedBitmap bitmap{mask.width, mask.height, row_pitch,
                        std::vector<std::uint8_t>(row_pitch * mask.height, 0)};
    for (std::size_t y = 0; y < mask.height; ++y)
        for (std::size_t x = 0; x < mask.width; ++x)
            if (mask.pixels[y * mask.width + x] != 0)
                bitmap.bits[y * row_pitch + x / 8] |= static_cast<std::uint8_t>(0x80u >> (x % 8));
    return bitmap;
}

std::vector<std::uint8_t> encode_pbm(const PackedBitmap& bitmap)
{
    const std::size_t row_bytes = tight_pitch(bitmap.width);
    if (bitmap.width == 0 || bitmap.height == 0)
        throw std::invalid_argument("cannot encode an empty image as PBM");
    if (bitmap.row_pitch < row_bytes || bitmap.bits.size() != bitmap.row_pitch * bitmap.height)
        throw std::invalid_argument("packed bitmap of " + std::to_string(bitmap.bits.size()) +
                                    " bytes does not match " + std::to_string(bitmap.width) + "x" +
                                    std::to_string(bitmap.height) + " pixels with a row pitch of " +
                                    std::to_string(bitmap.row_pitch));
    const std::string header =
        "P4\n" + std::to_string(bitmap.width) + " " + std::to_string(bitmap.height) + "\n";
    std::vector<std::uint8_t> file(header.begin(), header.end());
    file.reserve(header.size() + row_bytes * bitmap.height);
    // The last byte keeps only the pixels of the row: the top (width % 8) bits, or all 8.
    const unsigned used_bits = bitmap.width % 8 == 0 ? 8 : static_cast<unsigned>(bitmap.width % 8);
    const auto last_byte_mask = static_cast<std::uint8_t>(0xFFu << (8 - used_bits));
    for (std::size_t y = 0; y < bitmap.height; ++y) {
        const auto row = bitmap.bits.begin() + static_cast<std::ptrdiff_t>(y * bitmap.row_pitch);
        file.insert(file.end(), row, row + static_cast<std::ptrdiff_t>(row_bytes));
        file.back() &= last_byte_mask;
    }
    return file;
}

void write_pbm(const std::filesystem::path& path, const PackedBitmap& bitmap)
{
    const std::vector<std::uint8_t> file = encode_pbm(bitmap);
    write_file_atomically(path, file.data(), file.size());
}

}  // namespace sdk
