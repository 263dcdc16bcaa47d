// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/names.hpp"
#include "common/imageio/image.hpp"

#include <cstddef>
#include <map>
#include <string>

namespace sdk {

// [Border modes]
// What a filter reads for pixels outside the image (OpenCV's names):
//   replicate   aaa|abcd|ddd   the edge pixel repeated
//   reflect101  cb|abcd|cb     mirrored about the edge pixel, which is not repeated
//   constant    00|abcd|00     zero
//   none        the Mali SDK's behaviour: only pixels whose whole window lies inside the image
//               are computed; the others are 0.
enum class Border { replicate, reflect101, constant, none };
// [Border modes]

const std::map<std::string, Border>& border_names();
inline std::string border_name(Border border)
{
    return name_of(border_names(), border);
}
// The mode by name, as kernels/border.cl expects it: "-DBORDER_REFLECT101".
std::string border_build_option(Border border);

// The coordinate to read in place of `i` on an axis of `n` pixels, however far outside `i` lies
// (a 5x5 window reaches two), or -1 when the border supplies zero (constant and none).
std::ptrdiff_t border_coordinate(std::ptrdiff_t i, std::ptrdiff_t n, Border border);

// Pixel (x, y) of a 1-channel image, or the border's substitute where (x, y) lies outside it
// (0 for constant and none): the one read the C++ references are written with, as
// read_pixel_with_border in kernels/border.cl is the kernels' edge paths'.
int pixel_with_border(const Image& image, std::ptrdiff_t x, std::ptrdiff_t y, Border border);

// Whether a filter whose window reaches `reach` pixels each way (1 for 3x3) computes pixel (x, y)
// of `image`: always, except with Border::none, which computes only the pixels whose whole window
// lies inside the image and leaves the others 0.
bool computed_with_border(const Image& image, std::ptrdiff_t x, std::ptrdiff_t y,
                          std::ptrdiff_t reach, Border border);

}  // namespace sdk
