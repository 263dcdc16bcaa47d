#pragma once

#include "imageio/image.hpp"

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

// Reads and decodes a BMP file; an unreadable file is reported as ImageError too.
Image read_bmp(const std::filesystem::path& path);

// Encodes a 1-channel image as 8 bit with a grey palette and a 3-channel image as 24 bit,
// bottom-up with a BITMAPINFOHEADER. Throws std::invalid_argument for an inconsistent Image
// (wrong channel count, empty, pixel count not matching, larger than decode_bmp accepts).
std::vector<std::uint8_t> encode_bmp(const Image& image);

// Encodes and writes via write_file_atomically (which throws FileError on failure).
void write_bmp(const std::filesystem::path& path, const Image& image);

}  // namespace sdk
