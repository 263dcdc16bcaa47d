#pragma once
#include "runtime/opencl.hpp"

#include <cstddef>
#include <string>

namespace sdk {

// [Row pitch]
// On the device, an image's rows start `row_pitch` bytes apart, a multiple of 64: every row then
// begins on a cache-line boundary, and a kernel's 16-byte vector of pixels x0 .. x0+15 (x0 a
// multiple of 16) is aligned, so it moves in one wide access instead of byte by byte. Host
// images stay tightly packed; the rectangular copies below convert between the two layouts.
constexpr std::size_t row_alignment = 64;

inline std::size_t pitch_for(std::size_t row_bytes)
{
    return (row_bytes + row_alignment - 1) / row_alignment * row_alignment;
}
// [Row pitch]

// Copies `height` tight rows of `row_bytes` from host memory into a pitched device buffer.
cl::Event write_pitched(const cl::CommandQueue& queue, const cl::Buffer& buffer, const void* host,
                        std::size_t row_bytes, std::size_t height, std::size_t row_pitch,
                        const std::string& what);

// Copies a pitched device buffer's `height` rows of `row_bytes` into tight host memory; blocks
// until the data is there.
cl::Event read_pitched(const cl::CommandQueue& queue, const cl::Buffer& buffer, void* host,
                       std::size_t row_bytes, std::size_t height, std::size_t row_pitch,
                       const std::string& what);

}  // namespace sdk
