// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "common/imageio/image.hpp"
#include "common/imageio/input_file.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace sdk {

// Image files whatever their format: the format is recognised by the file's first bytes, never
// by its name (a JPEG saved as photo.png is still read); the output's format is chosen by its
// extension (-o edges.png).

enum class ImageFormat { bmp, png, jpeg };

// The format whose signature `prefix` starts with. Throws ImageError naming `name` ("not a BMP,
// PNG or JPEG file") for any other.
ImageFormat detect_image_format(const std::uint8_t* prefix, std::size_t size,
                                const std::string& name);
// The same from the file's first bytes (a read error is an ImageError too).
ImageFormat detect_image_format(const InputFile& file);

// Decodes a file of any of the formats: 1 channel for grey images, 3 (RGB) for colour ones.
// Throws ImageError naming the file, one line, for anything unreadable, malformed or unsupported.
Image read_image(const InputFile& file);
Image read_image(const std::filesystem::path& path);
// For a caller that wants grey: what read_image gives, except that a YCbCr JPEG (every camera's)
// gives the luminance its encoder stored, 1 channel (JpegDecoding::luminance_only: no chroma
// decoded, no colour conversion there and back; the pixels of OpenCV's imread(IMREAD_GRAYSCALE)).
// luminance() of the decoded RGB differs in a few pixels, where that conversion rounds or clips,
// by a few levels, and costs more time (docs/history.md).
Image read_image_for_luminance(const InputFile& file);
Image read_image_for_luminance(const std::filesystem::path& path);
// That, made 1 channel: luminance() of each pixel of an RGB image (luminance.hpp).
Image read_luminance(const InputFile& file);
// read_luminance's pixels as they are decoded, for a caller that moves rows on while later ones
// are: `storage(header)` is asked, before any pixel, where the rows go (header.height rows of
// header.width bytes, one after the other); `decoded(rows)` is called each time the first `rows`
// rows are in place, with a growing count, the last the height. JPEG and non-interlaced PNG rows
// come a few at a time (a parallel JPEG decoder's as its bands join up); an interlaced PNG (its
// last pass writes every row), an RGB-coded JPEG and a BMP all at the end.
struct LuminanceRows {
    std::function<std::uint8_t*(const ImageHeader&)> storage;
    std::function<void(std::size_t rows)> decoded;
};
void read_luminance_rows(const InputFile& file, const LuminanceRows& rows);

// read_image for a file held in memory (tests, the fuzzer).
Image decode_image(const std::uint8_t* data, std::size_t size, const std::string& name);

// True when `path` ends in .png, in any case: write_image writes it as PNG.
bool is_png_path(const std::filesystem::path& path);

// Writes `image` as PNG when `path` ends in .png, else as BMP, as a whole or not at all (a
// temporary renamed into place). Throws FileError when it cannot be written.
void write_image(const std::filesystem::path& path, const Image& image);

}  // namespace sdk
