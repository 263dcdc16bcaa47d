// SPDX-License-Identifier: Apache-2.0
#include "kernels/morphology/structuring_element.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <utility>

namespace sdk {

namespace {

bool has_size_option(MorphologyShape shape)
{
    return shape != MorphologyShape::square && shape != MorphologyShape::diamond;
}

int own_side(MorphologyShape shape)
{
    return shape == MorphologyShape::diamond ? 5 : 3;
}

// The columns [first, end) of row `row` that OpenCV's element covers. Its rule: a rectangle
// covers every column; a cross the anchor's row and column; an ellipse with semi-axes
// c = width / 2 and r = height / 2 covers, in the row dy = row - r, the columns within
// round(c * sqrt((r^2 - dy^2) / r^2)) of the centre, 0 when r is 0 (a 1-row ellipse is its
// centre pixel). A 1x1 element of any shape is the rectangle.
std::pair<int, int> opencv_row(MorphologyShape shape, int width, int height, int row)
{
    const int centre_x = width / 2;
    if (shape == MorphologyShape::rectangle || (width == 1 && height == 1)) return {0, width};
    if (shape == MorphologyShape::cross)
        return row == height / 2 ? std::pair{0, width} : std::pair{centre_x, centre_x + 1};
    const int r = height / 2;
    const int dy = row - r;
    // The fraction is a product with 1 / r^2, not a quotient, as OpenCV computes it: the two can
    // round differently in the last bit, and the mask must match OpenCV's exactly.
    const double inverse_r2 = r == 0 ? 0.0 : 1.0 / (static_cast<double>(r) * r);
    const double half_width =
        centre_x * std::sqrt(static_cast<double>(r * r - dy * dy) * inverse_r2);
    const int reach = static_cast<int>(std::lround(half_width));
    return {std::max(centre_x - reach, 0), std::min(centre_x + reach + 1, width)};
}

}  // namespace

StructuringElement::StructuringElement(MorphologyShape named)
    : StructuringElement(named, own_side(named), own_side(named))
{
}

StructuringElement::StructuringElement(MorphologyShape named, int columns, int rows)
    : shape(named), width(columns), height(rows)
{
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    if (!has_size_option(shape) && (width != own_side(shape) || height != own_side(shape)))
        throw std::invalid_argument("the " + shape_name(shape) + " has no size but its own, not " +
                                    size);
    if (width < 1 || height < 1 || width > kLargestElementSide || height > kLargestElementSide ||
        width % 2 == 0 || height % 2 == 0)
        throw std::invalid_argument("a structuring element's width and height are odd, 1 to " +
                                    std::to_string(kLargestElementSide) + ", not " + size);
}

std::string element_name(const StructuringElement& element)
{
    if (!has_size_option(element.shape)) return shape_name(element.shape);
    return shape_name(element.shape) + " " + std::to_string(element.width) + "x" +
           std::to_string(element.height);
}

Image opencv_element_mask(MorphologyShape shape, int width, int height)
{
    if (!has_size_option(shape))
        throw std::invalid_argument("OpenCV has no " + shape_name(shape) + " element");
    Image mask{static_cast<std::size_t>(width), static_cast<std::size_t>(height), 1,
               std::vector<std::uint8_t>(static_cast<std::size_t>(width * height), 0)};
    for (int row = 0; row < height; ++row) {
        const auto [first, end] = opencv_row(shape, width, height, row);
        for (int x = first; x < end; ++x)
            mask.pixels[static_cast<std::size_t>(row * width + x)] = 1;
    }
    return mask;
}

Image element_mask(const StructuringElement& element)
{
    if (has_size_option(element.shape))
        return opencv_element_mask(element.shape, element.width, element.height);
    const int side = element.width;
    const int radius = side / 2;
    Image mask{static_cast<std::size_t>(side), static_cast<std::size_t>(side), 1,
               std::vector<std::uint8_t>(static_cast<std::size_t>(side * side), 0)};
    for (int dy = -radius; dy <= radius; ++dy)
        for (int dx = -radius; dx <= radius; ++dx) {
            const bool inside =
                element.shape == MorphologyShape::square || std::abs(dx) + std::abs(dy) <= 2;
            mask.pixels[static_cast<std::size_t>((dy + radius) * side + dx + radius)] = inside;
        }
    return mask;
}

bool in_structuring_element(const StructuringElement& element, int dx, int dy)
{
    const int x = dx + element.width / 2;
    const int y = dy + element.height / 2;
    if (x < 0 || y < 0 || x >= element.width || y >= element.height) return false;
    return element_mask(element).pixels[static_cast<std::size_t>(y * element.width + x)] != 0;
}

std::vector<int> row_reaches(const Image& element)
{
    const int width = static_cast<int>(element.width);
    const int centre = width / 2;
    std::vector<int> reaches;
    for (std::size_t y = 0; y < element.height; ++y) {
        const std::uint8_t* row = element.pixels.data() + y * element.width;
        int reach = 0;
        while (reach < centre && row[centre + reach + 1]) ++reach;
        for (int x = 0; x < width; ++x)
            if ((row[x] != 0) != (std::abs(x - centre) <= reach))
                throw std::logic_error("row " + std::to_string(y) +
                                       " of the element is not a run centred on its middle");
        reaches.push_back(reach);
    }
    return reaches;
}

}  // namespace sdk
