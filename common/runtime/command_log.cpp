// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/command_log.hpp"

#include "common/runtime/errors.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <utility>

namespace sdk {

std::int64_t steady_now_ns()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

ClockMapping mapping_from_markers(const std::vector<MarkerSample>& markers)
{
    if (markers.empty()) return {0, 0, "none (no calibration)"};
    auto low = [](const MarkerSample& m) {
        return m.host_before_ns - static_cast<std::int64_t>(m.device_end_ns);
    };
    auto high = [](const MarkerSample& m) {
        return m.host_after_ns - static_cast<std::int64_t>(m.device_end_ns);
    };
    std::int64_t lo = low(markers.front()), hi = high(markers.front());
    std::int64_t span_lo = lo, span_hi = hi;
    for (const auto& marker : markers) {
        lo = std::max(lo, low(marker));
        hi = std::min(hi, high(marker));
        span_lo = std::min(span_lo, low(marker));
        span_hi = std::max(span_hi, high(marker));
    }
    const std::string count = std::to_string(markers.size()) + " markers";
    if (lo <= hi)
        return {lo + (hi - lo) / 2, (hi - lo + 1) / 2,
                "markers: the END of each of " + count +
                    " lies between the host's clock before its enqueue and after its wait"};
    return {span_lo + (span_hi - span_lo) / 2, (span_hi - span_lo + 1) / 2,
            "markers (" + count + " disagree: the clocks drifted; the span of all of them)"};
}

ClockMapping choose_clock_mapping(const std::optional<HostTimerSample>& host_timer,
                                  const std::vector<MarkerSample>& markers)
{
    ClockMapping by_markers = mapping_from_markers(markers);
    if (!host_timer) {
        by_markers.method += "; the device has no clGetDeviceAndHostTimer";
        return by_markers;
    }
    const HostTimerSample& t = *host_timer;
    const std::int64_t steady_middle =
        t.steady_before_ns + (t.steady_after_ns - t.steady_before_ns) / 2;
    const std::int64_t offset = static_cast<std::int64_t>(t.host_timer_ns - t.device_ns) +
                                steady_middle - static_cast<std::int64_t>(t.host_timer_again_ns);
    const std::int64_t lo = by_markers.offset_ns - by_markers.error_ns;
    const std::int64_t hi = by_markers.offset_ns + by_markers.error_ns;
    if (markers.empty() || offset < lo || offset > hi) {
        if (markers.empty())
            return {offset, (t.steady_after_ns - t.steady_before_ns + 1) / 2,
                    "clGetDeviceAndHostTimer (unchecked)"};
        by_markers.method += "; clGetDeviceAndHostTimer disagreed by " +
                             std::to_string(offset < lo ? lo - offset : offset - hi) + " ns";
        return by_markers;
    }
    return {offset, std::max(offset - lo, hi - offset),
            "clGetDeviceAndHostTimer, within the interval of " + by_markers.method};
}

void CommandLog::record(std::string name, const cl::Event& event)
{
    commands_.push_back({std::move(name), event});
}

namespace {

// clGetDeviceAndHostTimer and clGetHostTimer are OpenCL 2.1: looked up at run time, so the SDK
// still builds and runs against a 1.2 loader, and only called on devices of version 2.1 or
// later. Either may still answer an error (a driver without a host timer): then no sample.
std::optional<HostTimerSample> read_host_timer(const cl::Device& device)
{
    using DeviceAndHost = cl_int (*)(cl_device_id, cl_ulong*, cl_ulong*);
    using HostOnly = cl_int (*)(cl_device_id, cl_ulong*);
    static const auto device_and_host =
        reinterpret_cast<DeviceAndHost>(dlsym(RTLD_DEFAULT, "clGetDeviceAndHostTimer"));
    static const auto host_only = reinterpret_cast<HostOnly>(dlsym(RTLD_DEFAULT, "clGetHostTimer"));
    if (!device_and_host || !host_only) return std::nullopt;
    int major = 0, minor = 0;
    const std::string version = device.getInfo<CL_DEVICE_VERSION>();  // "OpenCL 3.0 ..."
    if (std::sscanf(version.c_str(), "OpenCL %d.%d", &major, &minor) != 2 ||
        major * 10 + minor < 21)
        return std::nullopt;
    HostTimerSample sample;
    cl_ulong device_ns = 0, host_ns = 0, again_ns = 0;
    if (device_and_host(device(), &device_ns, &host_ns) != CL_SUCCESS) return std::nullopt;
    sample.steady_before_ns = steady_now_ns();
    const cl_int again = host_only(device(), &again_ns);
    sample.steady_after_ns = steady_now_ns();
    if (again != CL_SUCCESS || device_ns == 0) return std::nullopt;
    sample.device_ns = device_ns;
    sample.host_timer_ns = host_ns;
    sample.host_timer_again_ns = again_ns;
    return sample;
}

}  // namespace

void CommandLog::calibrate(const cl::Device& device, const cl::CommandQueue& queue)
{
    while_doing("matching the device's clock to the host's", [&] {
        // Three markers: the tightest bounds win, and one slow wake-up does not spoil them.
        for (int i = 0; i < 3; ++i) {
            MarkerSample marker;
            cl::Event event;
            marker.host_before_ns = steady_now_ns();
            queue.enqueueMarkerWithWaitList(nullptr, &event);
            event.wait();
            marker.host_after_ns = steady_now_ns();
            marker.device_end_ns = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
            if (marker.device_end_ns != 0) markers_.push_back(marker);
        }
        if (!host_timer_) host_timer_ = read_host_timer(device);
    });
}

ClockMapping CommandLog::clock_mapping() const
{
    return choose_clock_mapping(host_timer_, markers_);
}

namespace {
std::atomic<bool> log_new_contexts{false};
}

void log_commands_of_new_contexts(bool on)
{
    log_new_contexts = on;
}
bool logging_commands_of_new_contexts()
{
    return log_new_contexts;
}

namespace {
thread_local CommandObserver command_observer;
}

void observe_commands_on_this_thread(CommandObserver observer)
{
    command_observer = std::move(observer);
}

void hand_to_command_observer(const cl::Event& event)
{
    if (command_observer) command_observer(event);
}

double command_ms(const cl::Event& event)
{
    cl_ulong start = 0;
    cl_ulong end = 0;
    if (clGetEventProfilingInfo(event(), CL_PROFILING_COMMAND_START, sizeof start, &start,
                                nullptr) != CL_SUCCESS ||
        clGetEventProfilingInfo(event(), CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr) !=
            CL_SUCCESS ||
        end < start)
        return 0;
    return static_cast<double>(end - start) / 1e6;
}

}  // namespace sdk
