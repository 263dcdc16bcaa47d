// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "common/imageio/image.hpp"
#include "common/imageio/input_file.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace sdk {

// Decodes a Windows BMP held in memory. Supported: BITMAPINFOHEADER, V4 and V5 headers; 1, 4
// and 8 bit palettised (an all-grey palette gives a 1-channel image, any other palette RGB);
// 16 and 32 bit BI_RGB or BI_BITFIELDS; 24 bit; bottom-up and top-down rows. Throws ImageError
// naming `name` for anything malformed or unsupported. Never reads outside [data, data + size).
Image decode_bmp(const std::uint8_t* data, std::size_t size, const std::string& name);

// Where a BMP file keeps its pixels, for readers that move the rows as stored (to the device,
// which converts them) instead of decoding them on the host.
enum class BmpStorage {
    other,  // anything else: decode with decode_bmp
    bgr24,  // 24 bit BI_RGB: B, G, R bytes
    grey8,  // 8 bit whose palette is the identity grey ramp: each byte is the luminance
};
struct BmpLayout {
    std::uint64_t width = 0;
    std::uint64_t height = 0;
    bool top_down = false;           // rows stored top row first (else bottom row first)
    std::uint64_t pixel_offset = 0;  // where the first stored row starts
    std::uint64_t stride = 0;        // bytes from one stored row to the next (padded to 4)
    BmpStorage storage = BmpStorage::other;
};

// Checks a BMP's headers exactly as decode_bmp does, from the first `prefix_size` bytes of a
// file of `file_size` bytes (headers and palette lie in the first 2 KiB), without its pixels:
// the pixel rows are known to lie inside the file. Throws ImageError naming `name` otherwise.
BmpLayout describe_bmp(const std::uint8_t* prefix, std::size_t prefix_size, std::uint64_t file_size,
                       const std::string& name);

// Reads a BMP file's headers (the first 2 KiB, nothing more) and checks them with describe_bmp
// against the file's real size. Throws ImageError naming the file, for a read error too.
BmpLayout read_bmp_layout(const InputFile& file);

// Reads and decodes a BMP file, reading only up to the end of the pixel rows its header
// declares; an unreadable file is reported as ImageError too.
Image read_bmp(const InputFile& file);
Image read_bmp(const std::filesystem::path& path);

// Encodes a 1-channel image as 8 bit with a grey palette and a 3-channel image as 24 bit,
// bottom-up with a BITMAPINFOHEADER. Throws std::invalid_argument for an inconsistent Image
// (wrong channel count, empty, pixel count not matching, larger than decode_bmp accepts).
std::vector<std::uint8_t> encode_bmp(const Image& image);

// What encode_bmp writes for an 8-bit image of this size: its headers and grey palette, and the
// bytes from one stored row to the next. The rows follow the header bottom row first, each
// padded with zeros to the stride (a device kernel can lay them out: kernels/convert).
std::vector<std::uint8_t> bmp_grey_header(std::size_t width, std::size_t height);
std::size_t bmp_grey_stride(std::size_t width);

// Encodes and writes via write_file_atomically (which throws FileError on failure).
void write_bmp(const std::filesystem::path& path, const Image& image);

}  // namespace sdk
