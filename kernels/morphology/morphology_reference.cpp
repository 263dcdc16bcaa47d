#include "kernels/morphology/morphology_reference.hpp"

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
        {"square", MorphologyShape::square}, {"diamond", MorphologyShape::diamond}};
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

bool in_structuring_element(MorphologyShape shape, int dx, int dy)
{
    if (shape == MorphologyShape::square) return std::abs(dx) <= 1 && std::abs(dy) <= 1;
    return std::abs(dx) + std::abs(dy) <= 2;
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

constexpr int kLargestReach = 2;  // no element reaches further than 2 pixels from its centre

void check_region(const Image& mask, const Roi& roi)
{
    if (mask.channels != 1 || mask.pixels.size() != mask.width * mask.height)
        throw std::invalid_argument("the morphology reference takes a 1-channel mask");
    if (roi.width == 0 || roi.height == 0 || roi.x > mask.width || roi.y > mask.height ||
        roi.width > mask.width - roi.x || roi.height > mask.height - roi.y)
        throw std::invalid_argument("the region of interest must be non-empty and inside the mask");
}

// Dilation and erosion differ only in how the neighbourhood combines (any foreground / all
// foreground) and in what lies outside the region (background / foreground).
Image apply(const Image& mask, MorphologyShape shape, const Roi& roi, bool erode)
{
    check_region(mask, roi);
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
            for (int dy = -kLargestReach; dy <= kLargestReach; ++dy) {
                for (int dx = -kLargestReach; dx <= kLargestReach; ++dx) {
                    if (!in_structuring_element(shape, dx, dy)) continue;
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

Image dilate_reference(const Image& mask, MorphologyShape shape, const Roi& roi)
{
    return apply(mask, shape, roi, false);
}

Image erode_reference(const Image& mask, MorphologyShape shape, const Roi& roi)
{
    return apply(mask, shape, roi, true);
}

Image morphology_reference(const Image& mask, MorphologyOperation operation, MorphologyShape shape,
                           const Roi& roi)
{
    switch (operation) {
    case MorphologyOperation::dilate: return dilate_reference(mask, shape, roi);
    case MorphologyOperation::erode: return erode_reference(mask, shape, roi);
    case MorphologyOperation::close:
        return erode_reference(dilate_reference(mask, shape, roi), shape, roi);
    case MorphologyOperation::open:
        return dilate_reference(erode_reference(mask, shape, roi), shape, roi);
    }
    throw std::invalid_argument("unknown morphology operation");
}

std::string roi_text(const Roi& roi)
{
    return std::to_string(roi.x) + "," + std::to_string(roi.y) + "," + std::to_string(roi.width) +
           "," + std::to_string(roi.height);
}

}  // namespace sdk
