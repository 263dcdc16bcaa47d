// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "common/imageio/image.hpp"
#include "common/imageio/input_file.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace sdk {

// PNG files, read through libpng, written by our own encoder (png_writer.hpp). Every PNG is read:
// 1, 2, 4, 8 and 16 bits per sample; grey, grey with alpha, RGB, RGBA and palette; interlaced or
// not. Grey (with or without alpha) gives a 1-channel Image, the others RGB. Alpha (an alpha
// channel or a tRNS chunk) is dropped, not blended with any background; 16-bit samples keep their
// high byte (v >> 8), as OpenCV's imread does; gamma and colour profile chunks are ignored.
// Anything malformed, truncated or unsupported throws ImageError naming the file, one line; nothing
// libpng says reaches stderr.

// The 8 bytes every PNG file starts with.
bool has_png_signature(const std::uint8_t* prefix, std::size_t size);

// Reads the chunks up to the pixel data and checks the declared size against the pixel limit
// (check_image_limits) and against what a file this long can hold at all, without decoding.
ImageHeader read_png_header(const InputFile& file);

// Decodes the whole file, read in place (never all held in memory).
Image read_png(const InputFile& file);

// The same decoding a run of rows at a time, for a caller that moves rows on while later ones
// are decoded: `started` gets the header before any pixel, then `rows(first, count, pixels)`
// each run in order, `count` rows of width * channels bytes in memory reused for the next run.
// An interlaced file comes as one run at the end: its last pass writes every row.
struct PngRuns {
    std::size_t rows_per_run = 64;
    std::function<void(const ImageHeader&)> started;
    std::function<void(std::size_t first, std::size_t count, const std::uint8_t* pixels)> rows;
};
void read_png_runs(const InputFile& file, const PngRuns& runs);

// Decodes a PNG held in memory; never reads outside [data, data + size).
Image decode_png(const std::uint8_t* data, std::size_t size, const std::string& name);

// Encodes a 1-channel image as 8-bit grey and a 3-channel one as 8-bit RGB, compressed fast on
// all cores (png_writer.hpp). Throws std::invalid_argument for an inconsistent or oversized Image.
std::vector<std::uint8_t> encode_png(const Image& image);

// Encodes straight into the file through AtomicFile: all or nothing. Throws FileError when the
// file cannot be written.
void write_png(const std::filesystem::path& path, const Image& image);

}  // namespace sdk
