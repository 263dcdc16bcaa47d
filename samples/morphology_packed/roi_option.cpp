// SPDX-License-Identifier: Apache-2.0
#include "samples/morphology_packed/roi_option.hpp"

#include "common/runtime/errors.hpp"

namespace sdk {

Roi parse_roi(const std::string& text)
{
    const std::string usage =
        "--roi takes X,Y,W,H in pixels (W and H at least 1), not '" + text + "'";
    std::size_t values[4] = {};
    std::size_t at = 0;
    for (int i = 0; i < 4; ++i) {
        const std::size_t end = i < 3 ? text.find(',', at) : text.size();
        if (end == std::string::npos || end == at || end - at > 9) throw UsageError(usage);
        std::size_t value = 0;
        for (std::size_t k = at; k < end; ++k) {
            if (text[k] < '0' || text[k] > '9') throw UsageError(usage);
            value = value * 10 + static_cast<std::size_t>(text[k] - '0');
        }
        values[i] = value;
        at = end + 1;
    }
    if (values[2] == 0 || values[3] == 0) throw UsageError(usage);
    return Roi{values[0], values[1], values[2], values[3]};
}

void check_roi_inside(const Roi& roi, const Image& image)
{
    // At most 9 digits each (parse_roi), so the sums cannot overflow.
    if (roi.x + roi.width > image.width || roi.y + roi.height > image.height)
        throw UsageError("--roi " + roi_text(roi) + " does not lie inside the " +
                         std::to_string(image.width) + "x" + std::to_string(image.height) +
                         " image");
}

Roi region_to_process(const std::string& text, std::size_t width, std::size_t height)
{
    if (text.empty()) return whole_image(width, height);
    const Roi roi = parse_roi(text);
    check_roi_inside(roi, Image{width, height, 1, {}});
    return roi;
}

}  // namespace sdk
