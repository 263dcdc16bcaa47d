#pragma once
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
std::string border_name(Border border);
// The mode by name, as filters/border.cl expects it: "-DBORDER_REFLECT101".
std::string border_build_option(Border border);

// The coordinate to read in place of `i` on an axis of `n` pixels, however far outside `i` lies
// (a 5x5 window reaches two), or -1 when the border supplies zero (constant and none).
std::ptrdiff_t border_coordinate(std::ptrdiff_t i, std::ptrdiff_t n, Border border);

}  // namespace sdk
