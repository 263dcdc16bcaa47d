// SPDX-License-Identifier: Apache-2.0
#include "samples/morphology_packed/element_option.hpp"

#include "common/runtime/errors.hpp"
#include "kernels/morphology/structuring_element.hpp"

#include <stdexcept>

namespace sdk {

namespace {

// A number of 1 to 3 digits, nothing else: no sign, no spaces.
bool parse_side(const std::string& text, int& side)
{
    if (text.empty() || text.size() > 3) return false;
    side = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return false;
        side = side * 10 + (c - '0');
    }
    return true;
}

}  // namespace

StructuringElement element_from_options(MorphologyShape shape, const std::string& size)
{
    if (shape == MorphologyShape::square || shape == MorphologyShape::diamond) {
        if (!size.empty())
            throw UsageError(
                "--size is for the rectangle, cross and ellipse; the square is "
                "always 3x3 and the diamond 5x5");
        return StructuringElement(shape);
    }
    if (size.empty()) return StructuringElement(shape);
    const std::string usage = "--size takes WxH with W and H odd, 1 to " +
                              std::to_string(kLargestElementSide) + ", e.g. 31x31, not '" + size +
                              "'";
    const auto separator = size.find('x');
    int width = 0;
    int height = 0;
    if (separator == std::string::npos || !parse_side(size.substr(0, separator), width) ||
        !parse_side(size.substr(separator + 1), height))
        throw UsageError(usage);
    try {
        return StructuringElement(shape, width, height);
    } catch (const std::invalid_argument&) {
        throw UsageError(usage);
    }
}

}  // namespace sdk
