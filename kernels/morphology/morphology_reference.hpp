// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/names.hpp"
#include "common/imageio/image.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

namespace sdk {

// The binary morphology contract, written as plainly as possible, one pixel at a time; the
// packed kernels (kernels/morphology/morphology_packed.cl) are tested against it bit for bit.
//
// A mask is a 1-channel Image whose pixels are 1 (foreground) or 0 (background).

// [Morphology contract]
// Which pixels are foreground: luminance >= threshold, or with `invert` luminance < threshold
// (dark text on light paper).
struct Binarisation {
    std::uint8_t threshold = 128;
    bool invert = false;
};

// The structuring elements, centred on the pixel:
//   square   the 3x3 block, the 8-neighbourhood (9 pixels)
//   diamond  every pixel within city-block distance 2, |dx| + |dy| <= 2 (13 pixels): the blog's
//            "2 pixel distance" element, which also joins pixels one diagonal step apart
//   rectangle, cross, ellipse  of any odd width and height from 1 to 63: OpenCV's
//            getStructuringElement(MORPH_RECT, MORPH_CROSS, MORPH_ELLIPSE) masks for that size,
//            bit for bit, anchored at the centre (kernels/morphology/structuring_element.hpp)
enum class MorphologyShape { square, diamond, rectangle, cross, ellipse };

// close = erode(dilate(x)), open = dilate(erode(x)), both with the same shape.
enum class MorphologyOperation { dilate, erode, close, open };

// A region of interest in pixels. It is processed as if it were the whole image: pixels outside
// it count as background for dilation and foreground for erosion (like pixels outside the image,
// so neither invents nor removes pixels at its edge), and keep their input value in the output.
struct Roi {
    std::size_t x = 0;
    std::size_t y = 0;
    std::size_t width = 0;
    std::size_t height = 0;
};
// [Morphology contract]

// A shape with its size. A shape alone is the square (3x3), the diamond (5x5), or a 3x3
// rectangle, cross or ellipse. Throws std::invalid_argument for an even size, one outside
// 1..63, or a square or diamond of another size than its own.
struct StructuringElement {
    StructuringElement(MorphologyShape shape = MorphologyShape::diamond);
    StructuringElement(MorphologyShape shape, int width, int height);
    MorphologyShape shape;
    int width;
    int height;
};

// The region covering a whole width x height image.
Roi whole_image(std::size_t width, std::size_t height);
std::string roi_text(const Roi& roi);  // "X,Y,W,H"

const std::map<std::string, MorphologyShape>& morphology_shape_names();
const std::map<std::string, MorphologyOperation>& morphology_operation_names();
inline std::string shape_name(MorphologyShape shape)
{
    return name_of(morphology_shape_names(), shape);
}
inline std::string operation_name(MorphologyOperation operation)
{
    return name_of(morphology_operation_names(), operation);
}

// "square", "diamond", or the shape and its size: "rectangle 31x31".
std::string element_name(const StructuringElement& element);

// Whether the offset (dx, dy) from the centre belongs to the structuring element.
bool in_structuring_element(const StructuringElement& element, int dx, int dy);

// The mask of a luminance image. Throws std::invalid_argument for a non-grey image.
Image binarise_reference(const Image& luminance, const Binarisation& binarisation);

// Dilation and erosion by any structuring element given as its mask: an odd width x height
// grid of 1 (in the element) and 0, centred on the pixel (element_mask() in
// structuring_element.hpp gives the named ones). As in OpenCV, the result at (x, y) is the OR
// (dilation) or AND (erosion) of the pixels at (x + dx, y + dy) for the element's cells (dx, dy),
// not reflected; every named element is symmetric, so it makes no difference there. Each throws
// std::invalid_argument for an empty region or one that does not lie inside the mask, and for an
// element of even size.
Image dilate_by_mask(const Image& mask, const Image& element, const Roi& roi);
Image erode_by_mask(const Image& mask, const Image& element, const Roi& roi);

// The same with a named element.
Image dilate_reference(const Image& mask, const StructuringElement& element, const Roi& roi);
Image erode_reference(const Image& mask, const StructuringElement& element, const Roi& roi);
Image morphology_reference(const Image& mask, MorphologyOperation operation,
                           const StructuringElement& element, const Roi& roi);

}  // namespace sdk
