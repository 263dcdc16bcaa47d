// SPDX-License-Identifier: Apache-2.0
#include "samples/app/compare.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace sdk {

void add_compare_option(CLI::App& app, bool& compare)
{
    app.add_flag("--compare", compare,
                 "after the run, time every variant (and the scalar kernel, for Sobel) on this "
                 "image, taking turns, -n times (default 20), and print one table: median kernel "
                 "ms, speed-up, GB/s and share of the device's copy bandwidth");
}

unsigned compare_rounds(unsigned iterations)
{
    return iterations > 0 ? iterations : kDefaultCompareRounds;
}

void print_comparison(std::ostream& out, const std::string& device, std::size_t width,
                      std::size_t height, unsigned rounds, const std::vector<RunMedian>& rows)
{
    if (rows.size() < 2) throw std::invalid_argument("print_comparison: no kernel and yardstick");
    const RunMedian& first = rows.front();
    const RunMedian& copy = rows.back();
    const double copy_gbps = gigabytes_per_second(copy.bytes_moved, copy.median_ms);
    const bool host_clock =
        std::any_of(rows.begin(), rows.end(), [](const RunMedian& row) { return row.host_clock; });
    out << "Compared on " << device << ", " << width << "x" << height << ", " << rounds
        << " runs each, taking turns"
        << (host_clock ? " (host clock, launch and wait: this device reports no profiling times)"
                       : "")
        << ":\n";
    char line[160];
    std::snprintf(line, sizeof line, "  %-14s %10s %10s %8s %15s\n", "kernel", "median ms",
                  "speed-up", "GB/s", "share of copy");
    out << line;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const RunMedian& row = rows[i];
        const double gbps = gigabytes_per_second(row.bytes_moved, row.median_ms);
        char speed_up[32] = "-";
        if (i + 1 < rows.size() && row.median_ms > 0)
            std::snprintf(speed_up, sizeof speed_up,
                          first.median_ms >= row.median_ms ? "%.1fx" : "%.2fx",
                          first.median_ms / row.median_ms);
        char share[32] = "-";
        if (copy_gbps > 0) std::snprintf(share, sizeof share, "%.0f%%", 100 * gbps / copy_gbps);
        std::snprintf(line, sizeof line, "  %-14s %10.3f %10s %8.1f %15s\n", row.name.c_str(),
                      row.median_ms, speed_up, gbps, share);
        out << line;
    }
}

}  // namespace sdk
