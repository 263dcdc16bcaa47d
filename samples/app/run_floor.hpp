// SPDX-License-Identifier: Apache-2.0
#pragma once
// The floor under a whole run: what any program must move to do the job, whatever it computes,
// each part the plainest fast way to move it, measured on this machine now. A run is judged
// against it (--floor in the samples, bench's file/ benchmarks), not against the kernel alone.
#include "common/runtime/device.hpp"
#include "common/runtime/pipeline_timer.hpp"

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <vector>

namespace sdk {

struct FloorParts {
    double read_ms = 0;   // the input file read from the page cache
    double write_ms = 0;  // the output's bytes written to a new file beside the output
    double link_ms = 0;   // both crossing the host link from pinned memory (0: shared memory)
    double total_ms() const { return read_ms + write_ms + link_ms; }
};

// Measures the floor for reading `input` and writing `output_bytes` beside `output`, as often as
// asked. The input is read whole with the samples' own reader (InputFile, split over threads)
// into memory touched beforehand; the output's bytes are written in one write() to a temporary
// in the output's folder (its file system), removed again (also on a stopping signal); on a
// device with memory of its own, the same bytes go up and come back through one pinned
// (mapped CL_MEM_ALLOC_HOST_PTR) chunk of 64 MiB, the link's own speed with little memory.
class FloorMeter {
public:
    FloorMeter(const OpenClContext& cl, const std::filesystem::path& input,
               const std::filesystem::path& output, std::uint64_t output_bytes);
    ~FloorMeter();
    FloorMeter(const FloorMeter&) = delete;
    FloorMeter& operator=(const FloorMeter&) = delete;

    FloorParts measure();

private:
    double time_link();

    std::filesystem::path input_;
    std::filesystem::path output_;
    std::vector<unsigned char> read_buffer_;
    std::vector<unsigned char> write_buffer_;
    cl::CommandQueue queue_;
    cl::Buffer pinned_;
    void* pinned_host_ = nullptr;
    cl::Buffer device_;
};

// --floor: after the run, the floor for its input and its main output (`output`, in place),
// printed under the step table with the run's steps after start-up (those after finding the
// device, creating the context and building the kernels) and the whole total against it.
void report_floor(std::ostream& log, const OpenClContext& cl, const std::filesystem::path& input,
                  const std::filesystem::path& output, const PipelineTimer& pipeline);

}  // namespace sdk
