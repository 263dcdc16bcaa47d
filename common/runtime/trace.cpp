// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/trace.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/json_text.hpp"

#include <chrono>

namespace sdk {

namespace {

std::string microseconds(std::int64_t ns)
{
    return json_number(static_cast<double>(ns) / 1e3);
}

std::int64_t nanoseconds_since(std::chrono::steady_clock::time_point origin,
                               std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t - origin).count();
}

std::int64_t steady_ns(std::chrono::steady_clock::time_point t)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

std::string command_type_name(cl_command_type type)
{
    switch (type) {
        case CL_COMMAND_NDRANGE_KERNEL:
            return "kernel";
        case CL_COMMAND_WRITE_BUFFER:
            return "write buffer";
        case CL_COMMAND_READ_BUFFER:
            return "read buffer";
        case CL_COMMAND_READ_BUFFER_RECT:
            return "read buffer rectangle";
        case CL_COMMAND_WRITE_BUFFER_RECT:
            return "write buffer rectangle";
        case CL_COMMAND_MAP_BUFFER:
            return "map buffer";
        case CL_COMMAND_UNMAP_MEM_OBJECT:
            return "unmap";
        case CL_COMMAND_FILL_BUFFER:
            return "fill buffer";
        case CL_COMMAND_MARKER:
            return "marker";
        default:
            return "command " + std::to_string(type);
    }
}

}  // namespace

std::string chrome_trace_json(const std::string& process_name,
                              const std::vector<TraceTrack>& tracks,
                              const std::string& metadata_json)
{
    std::string out = "{\"traceEvents\": [\n";
    out +=
        "{\"ph\": \"M\", \"pid\": 1, \"tid\": 0, \"name\": \"process_name\", \"args\": "
        "{\"name\": " +
        json_string(process_name) + "}}";
    for (std::size_t t = 0; t < tracks.size(); ++t) {
        const std::string tid = std::to_string(t + 1);
        const TraceTrack& track = tracks[t];
        std::string args = "{\"name\": " + json_string(track.name);
        if (!track.args_json.empty()) args += ", \"track\": " + track.args_json;
        out += ",\n{\"ph\": \"M\", \"pid\": 1, \"tid\": " + tid +
               ", \"name\": \"thread_name\", \"args\": " + args + "}}";
        // Perfetto orders tracks by this index: host first, then the queues.
        out += ",\n{\"ph\": \"M\", \"pid\": 1, \"tid\": " + tid +
               ", \"name\": \"thread_sort_index\", \"args\": {\"sort_index\": " + tid + "}}";
        for (const TraceEvent& event : track.events) {
            const std::int64_t duration =
                event.end_ns > event.start_ns ? event.end_ns - event.start_ns : 0;
            out += ",\n{\"ph\": \"X\", \"pid\": 1, \"tid\": " + tid +
                   ", \"name\": " + json_string(event.name) +
                   ", \"cat\": " + json_string(event.category) +
                   ", \"ts\": " + microseconds(event.start_ns) +
                   ", \"dur\": " + microseconds(duration) +
                   ", \"args\": " + (event.args_json.empty() ? "{}" : event.args_json) + "}";
        }
    }
    out += "\n],\n\"displayTimeUnit\": \"ms\",\n\"otherData\": " +
           (metadata_json.empty() ? std::string("{}") : metadata_json) + "\n}\n";
    return out;
}

TraceTrack host_track(const PipelineTimer& pipeline)
{
    TraceTrack track{"host", "{\"clock\": \"steady_clock\"}", {}};
    for (const auto& step : pipeline.steps())
        track.events.push_back({step.name, "host", nanoseconds_since(pipeline.origin(), step.start),
                                nanoseconds_since(pipeline.origin(), step.end),
                                "{\"bytes\": " + std::to_string(step.bytes) + "}"});
    return track;
}

std::optional<TraceEvent> device_event(const std::string& name, const std::string& command,
                                       const DeviceTimes& times, const ClockMapping& clock,
                                       std::int64_t origin_ns)
{
    if (times.ended == 0) return std::nullopt;
    const bool start_known = times.started != 0 && times.started <= times.ended;
    const std::uint64_t started = start_known ? times.started : times.ended;
    std::string args = "{\"command\": " + json_string(command);
    if (!start_known) args += ", \"start\": \"not reported by the driver (0 or after the end)\"";
    // How long the command waited on the host's side and the device's before it ran.
    if (start_known && times.queued != 0 && times.queued <= started)
        args += ", \"queued_us_before_start\": " +
                microseconds(static_cast<std::int64_t>(started - times.queued));
    if (start_known && times.submitted != 0 && times.submitted <= started)
        args += ", \"submitted_us_before_start\": " +
                microseconds(static_cast<std::int64_t>(started - times.submitted));
    args += ", \"device_start_ns\": " + std::to_string(started) +
            ", \"device_end_ns\": " + std::to_string(times.ended) + "}";
    return TraceEvent{name, "device", clock.to_host(started) - origin_ns,
                      clock.to_host(times.ended) - origin_ns, args};
}

std::string run_trace_json(const PipelineTimer& pipeline, const OpenClContext& cl)
{
    std::vector<TraceTrack> tracks{host_track(pipeline)};
    std::string metadata = "{\"host_clock\": \"std::chrono::steady_clock, 0 = the run's start\"";
    if (cl.commands) {
        cl.commands->calibrate(cl.device, cl.queue);
        const ClockMapping clock = cl.commands->clock_mapping();
        const std::string clock_json = "{\"method\": " + json_string(clock.method) +
                                       ", \"offset_ns\": " + std::to_string(clock.offset_ns) +
                                       ", \"error_us\": " + microseconds(clock.error_ns) + "}";
        TraceTrack queue{"device queue", clock_json, {}};
        const std::int64_t origin_ns = steady_ns(pipeline.origin());
        for (const auto& command : cl.commands->commands()) {
            while_doing("reading profiling information for " + command.name, [&] {
                command.event.wait();
                const DeviceTimes times{
                    command.event.getProfilingInfo<CL_PROFILING_COMMAND_QUEUED>(),
                    command.event.getProfilingInfo<CL_PROFILING_COMMAND_SUBMIT>(),
                    command.event.getProfilingInfo<CL_PROFILING_COMMAND_START>(),
                    command.event.getProfilingInfo<CL_PROFILING_COMMAND_END>()};
                const std::string type =
                    command_type_name(command.event.getInfo<CL_EVENT_COMMAND_TYPE>());
                if (auto event = device_event(command.name, type, times, clock, origin_ns))
                    queue.events.push_back(*event);
            });
        }
        tracks.push_back(queue);
        metadata += ", \"device\": " + json_string(cl.device_name()) + ", \"clock\": " + clock_json;
    }
    return chrome_trace_json("OpenCL run", tracks, metadata + "}");
}

}  // namespace sdk
