// SPDX-License-Identifier: Apache-2.0
#include "kernels/morphology/morphology_reference.hpp"

#include "kernels/morphology/structuring_element.hpp"

#include <cstdlib>
#include <stdexcept>

namespace sdk {

Roi whole_image(std::size_t width, std::size_t height)
{
    return Roi{0, 0, width, height};
}

const std::map<std::string, MorphologyShape>& morphology_shape_names()
{
    static const std::map<std::string, MorphologyShape> names{
        {"square", MorphologyShape::square},
        {"diamond", MorphologyShape::diamond},
        {"rectangle", MorphologyShape::rectangle},
        {"cross", MorphologyShape::cross},
        {"ellipse", MorphologyShape::ellipse}};
    return names;
}

const std::map<std::string, MorphologyOperation>& morphology_operation_names()
{
    static const std::map<std::string, MorphologyOperation> names{
        {"dilate", MorphologyOperation::dilate},
        {"erode", MorphologyOperation::erode},
        {"close", MorphologyOperation::close},
        {"open", MorphologyOperation::open}};
    return names;
}

Image binarise_reference(const Image& luminance, const Binarisation& binarisation)
{
    if (luminance.channels != 1 || luminance.pixels.size() != luminance.width * luminance.height)
        throw std::invalid_argument("binarise_reference takes an 8-bit luminance image");
    Image mask{luminance.width, luminance.height, 1, luminance.pixels};
    for (auto& pixel : mask.pixels) {
        const bool bright = pixel >= binarisation.threshold;
        pixel = bright != binarisation.invert ? 1 : 0;
    }
    return mask;
}

namespace {

void check_region(const Image& mask, const Roi& roi)
{
    if (mask.channels != 1 || mask.pixels.size() != mask.width * mask.height)
        throw std::invalid_argument("the morphology reference takes a 1-channel mask");
    if (roi.width == 0 || roi.height == 0 || roi.x > mask.width || roi.y > mask.height ||
        roi.width > mask.width - roi.x || roi.height > mask.height - roi.y)
        throw std::invalid_argument("the region of interest must be non-empty and inside the mask");
}

void check_element(const Image& element)
{
    if (element.channels != 1 || element.pixels.size() != element.width * element.height ||
        element.width % 2 == 0 || element.height % 2 == 0)
        throw std::invalid_argument("a structuring element is a 1-channel mask of odd size");
}

// Dilation and erosion differ only in how the neighbourhood combines (any foreground / all
// foreground) and in what lies outside the region (background / foreground).
Image apply(const Image& mask, const Image& element, const Roi& roi, bool erode)
{
    check_region(mask, roi);
    check_element(element);
    const auto reach_x = static_cast<std::ptrdiff_t>(element.width / 2);
    const auto reach_y = static_cast<std::ptrdiff_t>(element.height / 2);
    const auto left = static_cast<std::ptrdiff_t>(roi.x);
    const auto top = static_cast<std::ptrdiff_t>(roi.y);
    const auto right = left + static_cast<std::ptrdiff_t>(roi.width);
    const auto bottom = top + static_cast<std::ptrdiff_t>(roi.height);
    const auto width = static_cast<std::ptrdiff_t>(mask.width);

    auto at = [&](std::ptrdiff_t x, std::ptrdiff_t y) -> bool {
        if (x < left || x >= right || y < top || y >= bottom) return erode;
        return mask.pixels[static_cast<std::size_t>(y * width + x)] != 0;
    };

    Image result = mask;  // pixels outside the region keep their value
    for (std::ptrdiff_t y = top; y < bottom; ++y) {
        for (std::ptrdiff_t x = left; x < right; ++x) {
            bool any = false;
            bool all = true;
            for (std::ptrdiff_t dy = -reach_y; dy <= reach_y; ++dy) {
                for (std::ptrdiff_t dx = -reach_x; dx <= reach_x; ++dx) {
                    const auto cell = static_cast<std::size_t>(
                        (dy + reach_y) * static_cast<std::ptrdiff_t>(element.width) + dx + reach_x);
                    if (element.pixels[cell] == 0) continue;
                    const bool foreground = at(x + dx, y + dy);
                    any = any || foreground;
                    all = all && foreground;
                }
            }
            result.pixels[static_cast<std::size_t>(y * width + x)] = (erode ? all : any) ? 1 : 0;
        }
    }
    return result;
}

}  // namespace

Image dilate_by_mask(const Image& mask, const Image& element, const Roi& roi)
{
    return apply(mask, element, roi, false);
}

Image erode_by_mask(const Image& mask, const Image& element, const Roi& roi)
{
    return apply(mask, element, roi, true);
}

Image dilate_reference(const Image& mask, const StructuringElement& element, const Roi& roi)
{
    return dilate_by_mask(mask, element_mask(element), roi);
}

Image erode_reference(const Image& mask, const StructuringElement& element, const Roi& roi)
{
    return erode_by_mask(mask, element_mask(element), roi);
}

Image morphology_reference(const Image& mask, MorphologyOperation operation,
                           const StructuringElement& element, const Roi& roi)
{
    const Image cells = element_mask(element);
    switch (operation) {
        case MorphologyOperation::dilate:
            return dilate_by_mask(mask, cells, roi);
        case MorphologyOperation::erode:
            return erode_by_mask(mask, cells, roi);
        case MorphologyOperation::close:
            return erode_by_mask(dilate_by_mask(mask, cells, roi), cells, roi);
        case MorphologyOperation::open:
            return dilate_by_mask(erode_by_mask(mask, cells, roi), cells, roi);
    }
    throw std::invalid_argument("unknown morphology operation");
}

std::string roi_text(const Roi& roi)
{
    return std::to_string(roi.x) + "," + std::to_string(roi.y) + "," + std::to_string(roi.width) +
           "," + std::to_string(roi.height);
}

}  // namespace sdk
