// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/opencl.hpp"
#include "common/runtime/profiling.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace sdk {

// A command of the pipeline, for the blog's per-step table: its event and the bytes it moves.
struct PipelineStep {
    std::string name;
    cl::Event event;
    std::uint64_t bytes = 0;
    // Set for a mapped transfer: the step runs from this map's start to `event`'s (the unmap's)
    // end.
    cl::Event start_event = cl::Event();
};

// A step's start and end (ns, device clock) and bytes, read from its event once it completed.
struct StepTiming {
    std::string name;
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    std::uint64_t bytes = 0;
};
std::vector<StepTiming> step_timings(const std::vector<PipelineStep>& steps);

// The typical run out of several that took the same steps: each step lasts its median duration
// and starts its median gap (the idle time since the previous step ended) after the previous
// one, the first at 0. Medians of the start times themselves could let a step begin before the
// one it waits for ends. Throws std::invalid_argument when the runs' steps differ.
std::vector<StepTiming> median_step_timings(const std::vector<std::vector<StepTiming>>& runs);

StepTable step_table(const std::vector<StepTiming>& steps);

}  // namespace sdk
