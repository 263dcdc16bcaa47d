// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/profiling.hpp"

#include <CLI/CLI.hpp>

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

namespace sdk {

// --compare, for the samples whose technique has variants (sobel, fir_float); its rounds are -n's
// when given, else kDefaultCompareRounds.
constexpr unsigned kDefaultCompareRounds = 20;
void add_compare_option(CLI::App& app, bool& compare);
unsigned compare_rounds(unsigned iterations);

// The table the Arm Mali SDK tutorials are about, measured on the user's own device and image: each
// way of running the filter (`rows`, the yardstick copy last), its median kernel time, its
// speed-up over the first row (the scalar kernel, for Sobel), its GB/s and that as a share of
// the device copying as many bytes.
//
//   Compared on <device>, 512x512, 20 runs each, taking turns:
//     kernel          median ms   speed-up    GB/s   share of copy
//     no_vectors          0.612       1.0x     1.3              4%
//     16x4                0.070       8.7x    11.2             34%
//     device copy         0.024          -    33.0            100%
void print_comparison(std::ostream& out, const std::string& device, std::size_t width,
                      std::size_t height, unsigned rounds, const std::vector<RunMedian>& rows);

}  // namespace sdk
