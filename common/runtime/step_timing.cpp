// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/step_timing.hpp"

#include "common/runtime/errors.hpp"

#include <algorithm>
#include <stdexcept>

namespace sdk {

std::vector<StepTiming> step_timings(const std::vector<PipelineStep>& steps)
{
    std::vector<StepTiming> timings;
    for (const auto& step : steps) {
        while_doing("reading profiling information for " + step.name, [&] {
            step.event.wait();  // times exist only once the command has finished
            const cl_ulong end = step.event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
            cl_ulong start = step.event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
            if (step.start_event()) {
                // A mapped transfer starts with its map. NVIDIA's driver reports no usable
                // times for a blocking map (0 or past the unmap), so keep the unmap's own then.
                const cl_ulong map_start =
                    step.start_event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
                if (map_start != 0 && map_start <= start) start = map_start;
            }
            timings.push_back({step.name, start, end, step.bytes});
        });
    }
    return timings;
}

namespace {
std::uint64_t median(std::vector<std::uint64_t> values)
{
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}
}  // namespace

std::vector<StepTiming> median_step_timings(const std::vector<std::vector<StepTiming>>& runs)
{
    if (runs.empty()) return {};
    auto difference = [](std::uint64_t from, std::uint64_t to) {
        return to > from ? to - from : 0;
    };
    std::vector<StepTiming> medians;
    std::uint64_t previous_end = 0;
    for (std::size_t i = 0; i < runs.front().size(); ++i) {
        std::vector<std::uint64_t> gaps;
        std::vector<std::uint64_t> durations;
        for (const auto& run : runs) {
            if (run.size() != runs.front().size() || run[i].name != runs.front()[i].name)
                throw std::invalid_argument("median_step_timings needs runs of the same steps");
            gaps.push_back(i == 0 ? 0 : difference(run[i - 1].end_ns, run[i].start_ns));
            durations.push_back(difference(run[i].start_ns, run[i].end_ns));
        }
        const std::uint64_t start = previous_end + median(gaps);
        previous_end = start + median(durations);
        medians.push_back({runs.front()[i].name, start, previous_end, runs.front()[i].bytes});
    }
    return medians;
}

StepTable step_table(const std::vector<StepTiming>& steps)
{
    StepTable table;
    for (const auto& step : steps) table.add(step.name, step.start_ns, step.end_ns, step.bytes);
    return table;
}

}  // namespace sdk
