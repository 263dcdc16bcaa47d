// SPDX-License-Identifier: Apache-2.0
#include "kernels/convert/convert_reference.hpp"

#include "common/imageio/luminance.hpp"

#include <algorithm>
#include <stdexcept>

namespace sdk {

Image luminance_from_bmp_rows(const std::uint8_t* rows, const BmpLayout& layout)
{
    if (layout.storage == BmpStorage::other)
        throw std::invalid_argument("luminance_from_bmp_rows: rows that need decoding");
    Image image{layout.width, layout.height, 1, {}};
    image.pixels.resize(layout.width * layout.height);
    for (std::size_t y = 0; y < layout.height; ++y) {
        const std::size_t stored = layout.top_down ? y : layout.height - 1 - y;
        const std::uint8_t* in = rows + stored * layout.stride;
        std::uint8_t* out = image.pixels.data() + y * layout.width;
        for (std::size_t x = 0; x < layout.width; ++x)
            out[x] = layout.storage == BmpStorage::grey8
                         ? in[x]
                         : luminance(in[3 * x + 2], in[3 * x + 1], in[3 * x]);  // B, G, R
    }
    return image;
}

std::vector<std::uint8_t> bmp_rows_from_grey(const Image& grey)
{
    if (grey.channels != 1 || grey.pixels.size() != grey.width * grey.height)
        throw std::invalid_argument("bmp_rows_from_grey: not an 8-bit image of its size");
    const std::size_t stride = bmp_grey_stride(grey.width);
    std::vector<std::uint8_t> rows(stride * grey.height, 0);
    for (std::size_t y = 0; y < grey.height; ++y)
        std::copy_n(grey.pixels.data() + y * grey.width, grey.width,
                    rows.data() + (grey.height - 1 - y) * stride);
    return rows;
}

}  // namespace sdk
