// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/profiling.hpp"

#include "common/runtime/choose_fastest.hpp"
#include "common/runtime/errors.hpp"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <memory>
#include <utility>

namespace sdk {

EventTimes event_times(const cl::Event& event)
{
    return while_doing("reading profiling information", [&] {
        const auto queued = event.getProfilingInfo<CL_PROFILING_COMMAND_QUEUED>();
        const auto submitted = event.getProfilingInfo<CL_PROFILING_COMMAND_SUBMIT>();
        const auto started = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
        const auto ended = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
        auto ms = [](cl_ulong from, cl_ulong to) {
            // Some drivers report a submit time before the queued time, and some report
            // counters rather than times (Mesa's rusticl 22: 0, 1, 2, 3 ns): show 0, which
            // print_event_times says is not reported, not nonsense. No command takes 1 ns.
            return to > from + 1 ? static_cast<double>(to - from) / 1e6 : 0.0;
        };
        return EventTimes{ms(queued, submitted), ms(submitted, started), ms(started, ended)};
    });
}

void print_event_times(std::ostream& out, const EventTimes& times, double host_ms)
{
    out << "Profiling information, the first launch (device clock):\n"
        << "  Queued time: " << std::fixed << std::setprecision(4) << times.queued_ms << " ms\n"
        << "  Wait time:   " << times.wait_ms << " ms\n";
    if (times.run_ms > 0) {
        out << "  Run time:    " << times.run_ms << " ms\n";
    } else {
        out << "  Run time:    not reported by this device";
        if (host_ms >= 0) out << " (host clock, launch and wait: " << host_ms << " ms)";
        out << "\n";
    }
    out.unsetf(std::ios::floatfield);
}

RunTime time_run(const std::function<double()>& run)
{
    const auto start = std::chrono::steady_clock::now();
    const double device_ms = run();
    if (device_ms > 0) return {device_ms, false};
    return {
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count(),
        true};
}

Statistics summarize(std::vector<double> samples)
{
    if (samples.empty()) return {};
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    const double median = n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2.0;
    return {median, samples.front(), samples.back()};
}

void StepTable::add(const std::string& step, const cl::Event& event, std::uint64_t bytes)
{
    while_doing("reading profiling information for " + step, [&] {
        steps_.push_back({step, event.getProfilingInfo<CL_PROFILING_COMMAND_START>(),
                          event.getProfilingInfo<CL_PROFILING_COMMAND_END>(), bytes});
    });
}

void StepTable::add(const std::string& step, std::uint64_t start_ns, std::uint64_t end_ns,
                    std::uint64_t bytes)
{
    steps_.push_back({step, start_ns, end_ns, bytes});
}

void StepTable::print(std::ostream& out) const
{
    if (steps_.empty()) return;
    const std::uint64_t origin = steps_.front().start_ns;
    auto relative = [origin](std::uint64_t t) { return t >= origin ? t - origin : 0; };
    out << std::left << std::setw(22) << "step" << std::right << std::setw(14) << "start ns"
        << std::setw(14) << "end ns" << std::setw(14) << "duration ns" << std::setw(12) << "MB/s"
        << "\n";
    std::uint64_t total_ns = 0;
    std::uint64_t last_end = origin;
    for (const auto& step : steps_) {
        const std::uint64_t duration =
            step.end_ns > step.start_ns ? step.end_ns - step.start_ns : 0;
        total_ns += duration;
        last_end = std::max(last_end, step.end_ns);
        out << std::left << std::setw(22) << step.name << std::right << std::setw(14)
            << relative(step.start_ns) << std::setw(14) << relative(step.end_ns) << std::setw(14)
            << duration << std::setw(12) << std::fixed << std::setprecision(1)
            << (duration ? static_cast<double>(step.bytes) * 1e3 / static_cast<double>(duration)
                         : 0.0)
            << "\n";
        out.unsetf(std::ios::floatfield);
    }
    out << std::left << std::setw(22) << "total (sum of steps)" << std::right << std::setw(14) << ""
        << std::setw(14) << "" << std::setw(14) << total_ns << "\n";
}

Statistics time_kernel(unsigned iterations, const std::function<cl::Event()>& enqueue)
{
    enqueue().wait();
    std::vector<double> run_ms;
    run_ms.reserve(iterations);
    bool host_clock = false;
    for (unsigned i = 0; i < iterations; ++i) {
        const RunTime time = time_run([&] {
            cl::Event event = enqueue();
            event.wait();
            return event_times(event).run_ms;
        });
        run_ms.push_back(time.ms);
        host_clock = host_clock || time.host_clock;
    }
    Statistics statistics = summarize(run_ms);
    statistics.host_clock = host_clock;
    return statistics;
}

TimedRun device_copy(const OpenClContext& cl, std::uint64_t bytes_moved)
{
    const std::size_t bytes = std::max<std::uint64_t>(bytes_moved / 2, 1);
    const auto buffers = std::make_shared<std::pair<cl::Buffer, cl::Buffer>>(
        while_doing("allocating the copy yardstick's buffers", [&] {
            return std::make_pair(cl::Buffer(cl.context, CL_MEM_READ_WRITE, bytes),
                                  cl::Buffer(cl.context, CL_MEM_READ_WRITE, bytes));
        }));
    TimedRun copy;
    copy.name = "device copy";
    copy.bytes_moved = 2 * std::uint64_t{bytes};
    copy.run_ms = [cl, buffers, bytes] {
        cl::Event event;
        while_doing("copying between the yardstick's buffers", [&] {
            cl.queue.enqueueCopyBuffer(buffers->first, buffers->second, 0, 0, bytes, nullptr,
                                       &event);
            event.wait();
        });
        return event_times(event).run_ms;
    };
    return copy;
}

std::vector<RunMedian> time_in_turns(const std::vector<TimedRun>& runs, unsigned rounds)
{
    ContestRules rules;
    rules.rounds = rounds;
    std::vector<bool> host_clock(runs.size(), false);
    const std::vector<double> medians = choose_fastest(
                                            runs.size(),
                                            [&](std::size_t i) {
                                                const RunTime time = time_run(runs[i].run_ms);
                                                if (time.host_clock) host_clock[i] = true;
                                                return time.ms;
                                            },
                                            rules)
                                            .median_ms;
    std::vector<RunMedian> result;
    for (std::size_t i = 0; i < runs.size(); ++i)
        result.push_back({runs[i].name, runs[i].bytes_moved, medians[i], host_clock[i]});
    return result;
}

}  // namespace sdk
