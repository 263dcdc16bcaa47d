#include "app/timing.hpp"

#include <iomanip>
#include <vector>

namespace sdk {

void print_kernel_statistics(std::ostream& out, unsigned iterations, const Statistics& ms,
                             std::uint64_t bytes_moved)
{
    out << "Kernel time over " << iterations << " runs: median " << std::fixed
        << std::setprecision(4) << ms.median << " ms (min " << ms.min << ", max " << ms.max
        << "), " << std::setprecision(2) << gigabytes_per_second(bytes_moved, ms.median)
        << " GB/s\n";
    out.unsetf(std::ios::floatfield);
}

void print_cpu_comparison(std::ostream& out, double kernel_ms, double end_to_end_ms,
                          double reference_ms)
{
    auto speedup = [&](double ms) { return ms > 0 ? reference_ms / ms : 0.0; };
    out << std::fixed << std::setprecision(3) << "C++ reference on one CPU thread: " << reference_ms
        << " ms; kernel " << kernel_ms << " ms (" << std::setprecision(1) << speedup(kernel_ms)
        << "x), end to end " << std::setprecision(3) << end_to_end_ms << " ms ("
        << std::setprecision(1) << speedup(end_to_end_ms) << "x)\n";
    out.unsetf(std::ios::floatfield);
}

}  // namespace sdk
