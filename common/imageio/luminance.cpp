// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/luminance.hpp"

#include <stdexcept>
#include <string>

namespace sdk {

void luminance_row(const std::uint8_t* rgb, std::uint8_t* grey, std::size_t width)
{
    for (std::size_t x = 0; x < width; ++x, rgb += 3) grey[x] = luminance(rgb[0], rgb[1], rgb[2]);
}

Image to_luminance(const Image& image)
{
    if (image.channels != 1 && image.channels != 3) {
        throw std::invalid_argument("to_luminance: " + std::to_string(image.channels) +
                                    " channels (supported: 1, 3)");
    }
    const std::size_t count = image.width * image.height;
    const bool overflow = image.width != 0 && count / image.width != image.height;
    if (overflow || image.pixels.size() / static_cast<std::size_t>(image.channels) != count ||
        image.pixels.size() % static_cast<std::size_t>(image.channels) != 0) {
        throw std::invalid_argument("to_luminance: " + std::to_string(image.width) + "x" +
                                    std::to_string(image.height) + " image has " +
                                    std::to_string(image.pixels.size()) + " pixel bytes");
    }
    if (image.channels == 1) {
        return image;
    }
    Image grey;
    grey.width = image.width;
    grey.height = image.height;
    grey.channels = 1;
    grey.pixels.resize(count);
    luminance_row(image.pixels.data(), grey.pixels.data(), count);
    return grey;
}

}  // namespace sdk
