// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>
#include <vector>

namespace sdk {

// The answer to "buffers, images or local memory?" for one filter, measured on the user's own
// device and image: each way of reading the pixels timed over the same runs, then one line.
struct VariantTime {
    std::string name;  // as the user would say it: "local memory", "image", "buffer 16x4"
    double median_ms = 0;
};

// "verdict on <device>: local memory fastest (0.41 ms), image 1.3x, buffer 16x4 1.1x (medians, the
// variants launched in turns, device clock)": the
// fastest with its median, every other as how many times slower, slowest last (a tie keeps the
// order given). `host_clock`: the device reports no profiling times, and the medians are the
// host's (time_run), which the line says. Throws std::invalid_argument for no variants or a
// median that is not a positive finite number, which no timing can give.
std::string verdict_line(const std::string& device, std::vector<VariantTime> times,
                         bool host_clock = false);

}  // namespace sdk
