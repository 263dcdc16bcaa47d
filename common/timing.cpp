#include "timing.hpp"

#include <iomanip>
#include <vector>

namespace sdk {

Statistics time_kernel(unsigned iterations, const std::function<cl::Event()>& enqueue)
{
    enqueue().wait();
    std::vector<double> run_ms;
    run_ms.reserve(iterations);
    for (unsigned i = 0; i < iterations; ++i) {
        cl::Event event = enqueue();
        event.wait();
        run_ms.push_back(event_times(event).run_ms);
    }
    return summarize(run_ms);
}

void print_kernel_statistics(std::ostream& out, unsigned iterations, const Statistics& ms,
                             std::uint64_t bytes_moved)
{
    out << "Kernel time over " << iterations << " runs: median " << std::fixed
        << std::setprecision(4) << ms.median << " ms (min " << ms.min << ", max " << ms.max
        << "), " << std::setprecision(2) << gigabytes_per_second(bytes_moved, ms.median)
        << " GB/s\n";
    out.unsetf(std::ios::floatfield);
}

}  // namespace sdk
