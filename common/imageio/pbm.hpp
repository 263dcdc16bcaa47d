// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/imageio/image.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace sdk {

// A 1-bit image packed 8 pixels to a byte, the most significant bit the leftmost pixel (PBM's
// order, and the blog's), 1 = foreground. Row y starts at byte y * row_pitch; row_pitch is at
// least ceil(width / 8), and a device layout may pad rows further (morphology packs to 4 bytes).
struct PackedBitmap {
    std::size_t width = 0;
    std::size_t height = 0;
    std::size_t row_pitch = 0;
    std::vector<std::uint8_t> bits;  // row_pitch * height bytes
};

// Packs a 1-channel mask (non-zero = 1) with `row_pitch` bytes a row, 0 meaning the tightest,
// ceil(width / 8); padding bits and bytes are 0. Throws std::invalid_argument for a mask whose
// pixel count does not match its size or a row pitch too small for the width.
PackedBitmap pack_bitmap(const Image& mask, std::size_t row_pitch = 0);

// Binary PBM (P4): "P4\n<width> <height>\n", then each row's ceil(width / 8) bytes with the
// bits past the width cleared (PBM leaves them unspecified; zero keeps files reproducible).
// Throws std::invalid_argument for an empty or inconsistent bitmap.
std::vector<std::uint8_t> encode_pbm(const PackedBitmap& bitmap);

// Encodes and writes via write_file_atomically (which throws FileError on failure).
void write_pbm(const std::filesystem::path& path, const PackedBitmap& bitmap);

}  // namespace sdk
