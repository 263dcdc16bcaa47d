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
// The values are what kernels see as -DBORDER=N (filters/border.cl).
enum class Border { replicate = 0, reflect101 = 1, constant = 2, none = 3 };
// [Border modes]

const std::map<std::string, Border>& border_names();
std::string border_name(Border border);
std::string border_build_option(Border border);  // "-DBORDER=1"

// The coordinate to read in place of `i` on an axis of `n` pixels (one step outside at most),
// or -1 when the border supplies zero (constant and none).
std::ptrdiff_t border_coordinate(std::ptrdiff_t i, std::ptrdiff_t n, Border border);

}  // namespace sdk
