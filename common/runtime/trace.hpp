// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/command_log.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/pipeline_timer.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sdk {

// A timeline of the whole run (--trace) as Chrome's trace-event JSON, which Perfetto
// (ui.perfetto.dev) and chrome://tracing open: the host's steps on one track, the device's
// commands on one track per queue, all on the host's clock (steady_clock), 0 = the run's start.

// One bar: times in nanoseconds from the run's start; `args_json` is a JSON object or empty.
struct TraceEvent {
    std::string name;
    std::string category;
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
    std::string args_json;
};

struct TraceTrack {
    std::string name;
    std::string args_json;  // said on the track's name (metadata) event; a JSON object or empty
    std::vector<TraceEvent> events;
};

// {"traceEvents": [...], "displayTimeUnit": "ms", "otherData": metadata}: a metadata event
// naming the process and each track (tid 1, 2, ... in order), then each event as a complete
// event ("ph": "X", microseconds). A negative duration is written as 0.
std::string chrome_trace_json(const std::string& process_name,
                              const std::vector<TraceTrack>& tracks,
                              const std::string& metadata_json);

// The PipelineTimer's steps, as the step table names them.
TraceTrack host_track(const PipelineTimer& pipeline);

// A command's four profiling timestamps (device clock, ns).
struct DeviceTimes {
    std::uint64_t queued = 0;
    std::uint64_t submitted = 0;
    std::uint64_t started = 0;
    std::uint64_t ended = 0;
};

// A device command as a bar on the host's clock (`origin_ns`: the run's start, steady_clock).
// No bar when the driver gave no end time; a start of 0 or after the end (NVIDIA's blocking
// maps) becomes a bar of no length at the end, which says so in its args.
std::optional<TraceEvent> device_event(const std::string& name, const std::string& command,
                                       const DeviceTimes& times, const ClockMapping& clock,
                                       std::int64_t origin_ns);

// The whole run: the pipeline's steps and, when `cl` logged them, its commands (their events
// waited for and read now; the clocks matched once more first).
std::string run_trace_json(const PipelineTimer& pipeline, const OpenClContext& cl);

}  // namespace sdk
