// SPDX-License-Identifier: Apache-2.0
#include "samples/app/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace sdk {

std::string verdict_line(const std::string& device, std::vector<VariantTime> times, bool host_clock)
{
    if (times.empty()) throw std::invalid_argument("a verdict needs at least one variant's time");
    for (const auto& time : times)
        if (!std::isfinite(time.median_ms) || time.median_ms <= 0)
            throw std::invalid_argument("no verdict from a median of " +
                                        std::to_string(time.median_ms) + " ms (" + time.name + ")");
    std::stable_sort(times.begin(), times.end(), [](const VariantTime& a, const VariantTime& b) {
        return a.median_ms < b.median_ms;
    });
    const VariantTime& fastest = times.front();
    std::ostringstream line;
    line.setf(std::ios::fixed);
    // Two significant digits at least, whatever the scale: 0.041 ms, 0.41 ms, 4.10 ms.
    line.precision(fastest.median_ms < 0.1 ? 3 : 2);
    line << "verdict on " << device << ": " << fastest.name << " fastest (" << fastest.median_ms
         << " ms)";
    line.precision(1);
    for (auto time = times.begin() + 1; time != times.end(); ++time)
        line << ", " << time->name << ' ' << time->median_ms / fastest.median_ms << 'x';
    // Not the "Kernel time" line's median: there one kernel runs again and again; here each
    // launch follows another variant's, as in a pipeline of different kernels.
    line << " (medians, the variants launched in turns, "
         << (host_clock ? "host clock, launch and wait: this device reports no profiling times"
                        : "device clock")
         << ")";
    return line.str();
}

}  // namespace sdk
