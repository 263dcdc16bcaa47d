// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sdk {

// Pixels held top-down (row 0 = top of the picture), rows tightly packed, no padding.
struct Image {
    std::size_t width = 0;
    std::size_t height = 0;
    int channels = 1;                  // 1 = 8-bit grey, 3 = RGB (R, G, B byte order)
    std::vector<std::uint8_t> pixels;  // width * height * channels bytes
};

// What a file's header declares, before its pixels are decoded.
struct ImageHeader {
    std::size_t width = 0;
    std::size_t height = 0;
    int channels = 1;  // of the Image its reader returns: 1 (grey) or 3 (RGB)
};

// An image of the declared size, its pixels allocated for a decoder to fill row by row.
inline Image allocate_image(const ImageHeader& header)
{
    return Image{header.width, header.height, header.channels,
                 std::vector<std::uint8_t>(header.width * header.height *
                                           static_cast<std::size_t>(header.channels))};
}

// What a reader decoded around though the image came out whole (a JPEG without its end marker):
// one line naming the file, handed to the function set here. The samples set one that prints it
// on stderr (samples/app/cli.cpp); with none set, the note is dropped. Set before any reading
// starts: readers on several threads call it, each with one whole line.
void set_input_notes(std::function<void(const std::string& line)> notes);
void note_about_input(const std::string& line);

// Thrown for an unreadable, malformed or unsupported image file; what() is one line naming the
// file and the reason.
class ImageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The largest image any reader accepts, whatever the format: it keeps a hostile header from
// making us allocate gigabytes, and is far beyond any image an image filter sample needs.
// 2^28 pixels is 16384x16384, whose 24-bit pixels still fit one OpenCL buffer (2^31 - 1 bytes).
constexpr std::uint64_t kMaxImageSide = 65536;
constexpr std::uint64_t kMaxImagePixels = std::uint64_t{1} << 28;

inline bool within_image_limits(std::uint64_t width, std::uint64_t height)
{
    return width <= kMaxImageSide && height <= kMaxImageSide && width * height <= kMaxImagePixels;
}

// Throws ImageError naming the file when a header declares more than the readers accept.
inline void check_image_limits(std::uint64_t width, std::uint64_t height, const std::string& name)
{
    if (!within_image_limits(width, height))
        throw ImageError(name + ": image too large: " + std::to_string(width) + "x" +
                         std::to_string(height) + " (limit 65536 per side and 2^28 pixels)");
}

}  // namespace sdk
