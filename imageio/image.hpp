#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace sdk {

// Pixels held top-down (row 0 = top of the picture), rows tightly packed, no padding.
struct Image {
    std::size_t width = 0;
    std::size_t height = 0;
    int channels = 1;                  // 1 = 8-bit grey, 3 = RGB (R, G, B byte order)
    std::vector<std::uint8_t> pixels;  // width * height * channels bytes
};

// Thrown for an unreadable, malformed or unsupported image file; what() is one line naming the
// file and the reason.
class ImageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace sdk
