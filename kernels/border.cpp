// SPDX-License-Identifier: Apache-2.0
#include "kernels/border.hpp"

#include <stdexcept>

namespace sdk {

const std::map<std::string, Border>& border_names()
{
    static const std::map<std::string, Border> names{{"replicate", Border::replicate},
                                                     {"reflect101", Border::reflect101},
                                                     {"constant", Border::constant},
                                                     {"none", Border::none}};
    return names;
}

std::string border_build_option(Border border)
{
    switch (border) {
        case Border::replicate:
            return "-DBORDER_REPLICATE";
        case Border::reflect101:
            return "-DBORDER_REFLECT101";
        case Border::constant:
            return "-DBORDER_CONSTANT";
        case Border::none:
            return "-DBORDER_NONE";
    }
    throw std::invalid_argument("unknown border mode " + std::to_string(static_cast<int>(border)));
}

std::ptrdiff_t border_coordinate(std::ptrdiff_t i, std::ptrdiff_t n, Border border)
{
    if (i >= 0 && i < n) return i;
    switch (border) {
        case Border::replicate:
            return i < 0 ? 0 : n - 1;
        case Border::reflect101: {
            if (n == 1) return 0;
            // Mirroring about both edges repeats with period 2n-2: fold i into one period, then the
            // second half of the period is the first read backwards. (kernels/border.cl does the
            // same.)
            const std::ptrdiff_t period = 2 * n - 2;
            std::ptrdiff_t j = i % period;
            if (j < 0) j += period;
            return j < n ? j : period - j;
        }
        case Border::constant:
        case Border::none:
            break;
    }
    return -1;
}

int pixel_with_border(const Image& image, std::ptrdiff_t x, std::ptrdiff_t y, Border border)
{
    const auto width = static_cast<std::ptrdiff_t>(image.width);
    const auto bx = border_coordinate(x, width, border);
    const auto by = border_coordinate(y, static_cast<std::ptrdiff_t>(image.height), border);
    if (bx < 0 || by < 0) return 0;
    return image.pixels[static_cast<std::size_t>(by * width + bx)];
}

bool computed_with_border(const Image& image, std::ptrdiff_t x, std::ptrdiff_t y,
                          std::ptrdiff_t reach, Border border)
{
    if (border != Border::none) return true;
    return x >= reach && y >= reach && x + reach < static_cast<std::ptrdiff_t>(image.width) &&
           y + reach < static_cast<std::ptrdiff_t>(image.height);
}

}  // namespace sdk
