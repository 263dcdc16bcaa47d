// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/device.hpp"
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
// The three figures; where the device reports no run time (a zero span: Mesa's rusticl reports
// zero for every profiling time), says so, with `host_ms` (the host's clock around the launch and
// its wait, when known: a negative value is not shown) beside it.
void print_event_times(std::ostream& out, const EventTimes& times, double host_ms = -1);

// One run of device work, to completion, timed: what its events say, or where the device
// reports nothing, the host's clock around `run` (its launch and wait included).
struct RunTime {
    double ms = 0;
    bool host_clock = false;  // the device reported zero: `ms` is the host's
};
// `run` launches, waits and returns the device's time in ms (0 where it reports none).
RunTime time_run(const std::function<double()>& run);

// Median, minimum and maximum of repeated measurements.
struct Statistics {
    double median = 0;
    double min = 0;
    double max = 0;
    bool host_clock = false;  // some came from the host's clock (time_run)
};
Statistics summarize(std::vector<double> samples);

// Runs `enqueue` once to warm up (first launches pay for lazy compilation and allocation), then
// `iterations` times, each to completion, and summarizes the kernel times from their events
// (time_run: the host's clock where the device reports none).
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

// One contestant of a table that compares ways of doing the same work on the device: its name,
// the bytes one run moves (read once and written once, as a copy would), and one run, to
// completion, returning its device time in ms.
struct TimedRun {
    std::string name;
    std::uint64_t bytes_moved = 0;
    std::function<double()> run_ms;
};

// The yardstick a kernel's GB/s is read against: the device copying half of `bytes_moved` from
// one buffer to another (each byte read once and written once: `bytes_moved` in all). A kernel
// that reads its input and writes its output once cannot beat it by much.
TimedRun device_copy(const OpenClContext& cl, std::uint64_t bytes_moved);

// Each of `runs` timed `rounds` times after a warm-up round, taking turns (choose_fastest.hpp), so
// that a slow spell of a shared machine falls on all of them alike: their medians, in order.
struct RunMedian {
    std::string name;
    std::uint64_t bytes_moved = 0;
    double median_ms = 0;
    bool host_clock = false;  // the device reported no times: the host's clock (time_run)
};
std::vector<RunMedian> time_in_turns(const std::vector<TimedRun>& runs, unsigned rounds);

// Bytes per second as GB/s (10^9), the unit bandwidth figures use.
inline double gigabytes_per_second(std::uint64_t bytes, double milliseconds)
{
    return milliseconds > 0 ? static_cast<double>(bytes) / (milliseconds * 1e6) : 0.0;
}

}  // namespace sdk
