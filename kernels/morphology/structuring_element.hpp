// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/imageio/image.hpp"
#include "kernels/morphology/morphology_reference.hpp"

#include <vector>

namespace sdk {

// The structuring elements as masks, and as the kernels see them: row by row, each row a run
// of pixels centred on the element's middle column.

// The largest width and height of a rectangle, cross or ellipse: a row's reach (31 pixels each
// side) then never leaves the words either side of the one being dilated.
constexpr int kLargestElementSide = 63;

// OpenCV's getStructuringElement(shape, Size(width, height)) with the anchor at the centre, for
// MorphologyShape::rectangle, cross or ellipse: a width x height Image of 1 and 0. Written from
// OpenCV's documented rule, not its code; tests/kernels/morphology/opencv_ellipses.txt holds
// OpenCV's own ellipses to check it against.
Image opencv_element_mask(MorphologyShape shape, int width, int height);

// The element's mask: the square's and the diamond's by their definitions, the others
// OpenCV's.
Image element_mask(const StructuringElement& element);

// Each row's reach, top row first: how many pixels its run extends either side of the centre
// column. Every element here is symmetric, each row a centred run (which the kernels rely on:
// morphology_runs.cl); throws std::logic_error for a mask that is not.
std::vector<int> row_reaches(const Image& element);

// Rows above and below the centre row.
inline int vertical_reach(const StructuringElement& element)
{
    return element.height / 2;
}

}  // namespace sdk
