#pragma once
#include "runtime/profiling.hpp"

#include <cstdint>
#include <functional>
#include <ostream>

namespace sdk {

// "kernel time over 20 runs: median 0.412 ms (min 0.401, max 0.530), 5.73 GB/s"
void print_kernel_statistics(std::ostream& out, unsigned iterations, const Statistics& ms,
                             std::uint64_t bytes_moved);

// The seeds' comparison with "C code running on a CPU": the kernel alone and the whole pipeline
// against the single-threaded C++ reference, with the speed-ups.
void print_cpu_comparison(std::ostream& out, double kernel_ms, double end_to_end_ms,
                          double reference_ms);

}  // namespace sdk
