// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/opencl.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sdk {

// How a device timestamp (profiling events count nanoseconds on the device's clock) becomes a
// host one (steady_clock's nanoseconds): host = device + offset_ns, within error_ns either way.
struct ClockMapping {
    std::int64_t offset_ns = 0;
    std::int64_t error_ns = 0;
    std::string method;  // how offset and error were found, for the trace's metadata

    std::int64_t to_host(std::uint64_t device_ns) const
    {
        return static_cast<std::int64_t>(device_ns) + offset_ns;
    }
};

// A marker enqueued and waited for: its END timestamp (device clock) lies between the host's
// clock read before the enqueue and after the wait, so each marker bounds the offset to
// [host_before - device_end, host_after - device_end].
struct MarkerSample {
    std::int64_t host_before_ns = 0;
    std::uint64_t device_end_ns = 0;
    std::int64_t host_after_ns = 0;
};

// A reading of clGetDeviceAndHostTimer (OpenCL 2.1): the device's clock and the OpenCL host
// timer at one instant, then the host timer again (clGetHostTimer) between two steady_clock
// reads, because the OpenCL host timer need not be steady_clock.
struct HostTimerSample {
    std::uint64_t device_ns = 0;
    std::uint64_t host_timer_ns = 0;
    std::int64_t steady_before_ns = 0;
    std::uint64_t host_timer_again_ns = 0;
    std::int64_t steady_after_ns = 0;
};

// The offset all markers agree on: the intersection of their intervals, its middle, and half
// its width as the error (every bound is certain, so the true offset lies inside). When the
// intervals do not meet (the clocks drifted apart between markers), the span of them all.
ClockMapping mapping_from_markers(const std::vector<MarkerSample>& markers);

// clGetDeviceAndHostTimer's offset where it lies within the markers' interval (the driver's
// pairing has no stated accuracy, so the markers check it): the error is then its distance to
// the interval's far end, a certain bound. Otherwise the markers' own mapping, saying why.
ClockMapping choose_clock_mapping(const std::optional<HostTimerSample>& host_timer,
                                  const std::vector<MarkerSample>& markers);

// The commands a run enqueued, each with the event that times it, for the trace (--trace).
// Recording keeps the events alive and costs nothing else; their times are read at the end.
class CommandLog {
public:
    struct Command {
        std::string name;
        cl::Event event;
    };

    void record(std::string name, const cl::Event& event);
    const std::vector<Command>& commands() const { return commands_; }

    // Measures the device's clock against the host's (markers, and clGetDeviceAndHostTimer
    // where the device has it). Called when the context is made and when the trace is written,
    // so the mapping covers the whole run.
    void calibrate(const cl::Device& device, const cl::CommandQueue& queue);
    ClockMapping clock_mapping() const;

private:
    std::vector<Command> commands_;
    std::vector<MarkerSample> markers_;
    std::optional<HostTimerSample> host_timer_;
};

// Whether contexts made from now on log their commands (make_context). run_sample turns it on
// for --trace before the sample's body runs; off, nothing is recorded at all.
void log_commands_of_new_contexts(bool on);
bool logging_commands_of_new_contexts();

// A batch of photos splits its device stage into the device's own work and the rest: while a
// thread has an observer, every command an OpenClContext records on that thread (with or without
// a CommandLog) is also handed to it, as it is enqueued. Empty: none.
using CommandObserver = std::function<void(const cl::Event&)>;
void observe_commands_on_this_thread(CommandObserver observer);
void hand_to_command_observer(const cl::Event& event);  // OpenClContext::record calls it

// The device's own time on a command: its profiling events' START to END, in milliseconds; 0
// for a command that did not run to its end (its times are not known then).
double command_ms(const cl::Event& event);

// steady_clock's time in nanoseconds: the host clock of the step table and of the trace.
std::int64_t steady_now_ns();

}  // namespace sdk
