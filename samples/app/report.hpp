// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/imageio/image.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/profiling.hpp"
#include "common/runtime/transfers.hpp"

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>

namespace sdk {

// What every sample prints first: the device, the image's size and the sample's own setting
// (`details`: variant, border, weights), and how images reach the device and why.
void print_setup(std::ostream& out, const OpenClContext& cl, const Image& image,
                 const std::string& details, const MemoryChoice& memory);

// With -n N (N > 0): one warm-up run, then N runs of `run` timed by their events, and the
// statistics line. Does nothing for N = 0.
void report_repeated_runs(std::ostream& out, unsigned iterations,
                          const std::function<cl::Event()>& run, std::uint64_t bytes_moved);

// "Kernel time over 20 runs in a row (device clock): median 0.412 ms (min 0.401, max 0.530),
// 5.73 GB/s": the same kernel launched again and again, each to completion, timed by its events.
void print_kernel_statistics(std::ostream& out, unsigned iterations, const Statistics& ms,
                             std::uint64_t bytes_moved);

// The Arm Mali SDK tutorials' comparison with "C code running on a CPU": the kernel's first launch
// and the whole pipeline against the single-threaded C++ reference, with the speed-ups.
void print_cpu_comparison(std::ostream& out, double kernel_ms, double end_to_end_ms,
                          double reference_ms);

}  // namespace sdk
