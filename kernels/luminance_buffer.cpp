// SPDX-License-Identifier: Apache-2.0
#include "kernels/luminance_buffer.hpp"

#include <cstdint>
#include <vector>

namespace sdk {

Image download_luminance(const OpenClContext& cl, MemoryMode memory, const cl::Buffer& luminance,
                         std::size_t width, std::size_t height, std::size_t row_pitch)
{
    Image image{width, height, 1, std::vector<std::uint8_t>(std::uint64_t{width} * height)};
    download_rows(cl, memory, luminance, image.pixels.data(), width, height, row_pitch,
                  "the luminance");
    return image;
}

}  // namespace sdk
