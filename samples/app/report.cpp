// SPDX-License-Identifier: Apache-2.0
#include "samples/app/report.hpp"

#include <iomanip>
#include <vector>

namespace sdk {

void print_setup(std::ostream& out, const OpenClContext& cl, const Image& image,
                 const std::string& details, const MemoryChoice& memory)
{
    out << "Device: " << cl.device_name() << "\nImage: " << image.width << "x" << image.height
        << ", " << details << "\nMemory: " << memory_mode_name(memory.mode) << ", because "
        << memory.reason << "\n";
}

void report_repeated_runs(std::ostream& out, unsigned iterations,
                          const std::function<cl::Event()>& run, std::uint64_t bytes_moved)
{
    if (iterations == 0) return;
    print_kernel_statistics(out, iterations, time_kernel(iterations, run), bytes_moved);
}

void print_kernel_statistics(std::ostream& out, unsigned iterations, const Statistics& ms,
                             std::uint64_t bytes_moved)
{
    out << "Kernel time over " << iterations << " runs in a row ("
        << (ms.host_clock ? "host clock, launch and wait: this device reports no profiling times"
                          : "device clock")
        << "): median " << std::fixed << std::setprecision(4) << ms.median << " ms (min " << ms.min
        << ", max " << ms.max << "), " << std::setprecision(2)
        << gigabytes_per_second(bytes_moved, ms.median) << " GB/s\n";
    out.unsetf(std::ios::floatfield);
}

void print_cpu_comparison(std::ostream& out, double kernel_ms, double end_to_end_ms,
                          double reference_ms)
{
    auto speedup = [&](double ms) { return ms > 0 ? reference_ms / ms : 0.0; };
    out << std::fixed << std::setprecision(3) << "C++ reference on one CPU thread: " << reference_ms
        << " ms; kernel's first launch ";
    // A device that reports no profiling times (zero) gets no ratio.
    if (kernel_ms > 0)
        out << kernel_ms << " ms (" << std::setprecision(1) << speedup(kernel_ms) << "x)";
    else
        out << "time not reported by this device";
    out << ", end to end " << std::setprecision(3) << end_to_end_ms << " ms ("
        << std::setprecision(1) << speedup(end_to_end_ms) << "x)\n";
    out.unsetf(std::ios::floatfield);
}

}  // namespace sdk
