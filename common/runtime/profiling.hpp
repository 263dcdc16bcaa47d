#pragma once
#include "common/runtime/opencl.hpp"

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace sdk {

// The Mali SDK's three figures for one command, from its profiling event (milliseconds):
// queued = submitted - queued, wait = started - submitted, run = ended - started.
struct EventTimes {
    double queued_ms = 0;
    double wait_ms = 0;
    double run_ms = 0;
};

EventTimes event_times(const cl::Event& event);
void print_event_times(std::ostream& out, const EventTimes& times);

// Median, minimum and maximum of repeated measurements.
struct Statistics {
    double median = 0;
    double min = 0;
    double max = 0;
};
Statistics summarize(std::vector<double> samples);

// Runs `enqueue` once to warm up (first launches pay for lazy compilation and allocation), then
// `iterations` times, each to completion, and summarizes the kernel times from their events.
Statistics time_kernel(unsigned iterations, const std::function<cl::Event()>& enqueue);

// A per-step table for a pipeline (upload, kernels, download): start and end relative to the
// first step, duration in ns, and MB/s of the bytes the step moves.
class StepTable {
public:
    // A device command, timed by its event.
    void add(const std::string& step, const cl::Event& event, std::uint64_t bytes);
    // A host step, timed by the caller (nanoseconds on any common clock; steady_clock is fine).
    void add(const std::string& step, std::uint64_t start_ns, std::uint64_t end_ns,
             std::uint64_t bytes);
    void print(std::ostream& out) const;

private:
    struct Step {
        std::string name;
        std::uint64_t start_ns;
        std::uint64_t end_ns;
        std::uint64_t bytes;
    };
    std::vector<Step> steps_;
};

// Bytes per second as GB/s (10^9), the unit bandwidth figures use.
inline double gigabytes_per_second(std::uint64_t bytes, double milliseconds)
{
    return milliseconds > 0 ? static_cast<double>(bytes) / (milliseconds * 1e6) : 0.0;
}

}  // namespace sdk
