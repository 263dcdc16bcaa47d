// SPDX-License-Identifier: Apache-2.0
#include "samples/app/run_floor.hpp"

#include "common/imageio/file_io.hpp"
#include "common/imageio/input_file.hpp"
#include "common/runtime/errors.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iomanip>

namespace sdk {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

constexpr std::size_t kLinkChunk = std::size_t{64} << 20;

}  // namespace

FloorMeter::FloorMeter(const OpenClContext& cl, const std::filesystem::path& input,
                       const std::filesystem::path& output, std::uint64_t output_bytes)
    : input_(input),
      output_(output),
      read_buffer_(std::filesystem::file_size(input)),
      write_buffer_(output_bytes, 0x5a)  // both touched now: the page faults are not the floor's
{
    if (cl.device.getInfo<CL_DEVICE_HOST_UNIFIED_MEMORY>()) return;
    while_doing("allocating the floor's pinned and device chunks", [&] {
        queue_ = cl.queue;
        pinned_ = cl::Buffer(cl.context, CL_MEM_ALLOC_HOST_PTR, kLinkChunk);
        pinned_host_ =
            queue_.enqueueMapBuffer(pinned_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, kLinkChunk);
        std::memset(pinned_host_, 0x5a, kLinkChunk);
        device_ = cl::Buffer(cl.context, CL_MEM_READ_WRITE, kLinkChunk);
    });
}

FloorMeter::~FloorMeter()
{
    if (!pinned_host_) return;
    try {
        queue_.enqueueUnmapMemObject(pinned_, pinned_host_);
        queue_.finish();
    } catch (...) {  // a destructor does not throw; the context's release frees it anyway
    }
}

FloorParts FloorMeter::measure()
{
    FloorParts parts;
    auto start = Clock::now();
    InputFile(input_).read_at(0, read_buffer_.data(), read_buffer_.size());
    parts.read_ms = ms_since(start);

    // A new file, as a run's output is, beside the real one: same file system, removed again.
    const TemporaryFile file = create_temporary_beside(output_);
    start = Clock::now();
    std::size_t done = 0;
    int error = 0;
    while (done < write_buffer_.size() && error == 0) {
        const ssize_t wrote =
            ::write(file.fd, write_buffer_.data() + done, write_buffer_.size() - done);
        if (wrote > 0)
            done += static_cast<std::size_t>(wrote);
        else if (wrote < 0 && errno != EINTR)
            error = errno;
        else if (wrote == 0)
            error = EIO;
    }
    if (::close(file.fd) != 0 && error == 0) error = errno;
    parts.write_ms = ms_since(start);
    remove_temporary(file.path);
    if (error != 0)
        throw FileError("cannot measure the floor beside " + output_.string() + ": " +
                        std::strerror(error));

    if (pinned_host_) parts.link_ms = time_link();
    return parts;
}

// The input's bytes up and the output's bytes down, chunk after chunk from the same pinned
// memory into the same device chunk: what the link moves at its pinned speed.
double FloorMeter::time_link()
{
    return while_doing("timing the host link", [&] {
        const auto start = Clock::now();
        for (std::size_t offset = 0; offset < read_buffer_.size(); offset += kLinkChunk)
            queue_.enqueueWriteBuffer(device_, CL_FALSE, 0,
                                      std::min(kLinkChunk, read_buffer_.size() - offset),
                                      pinned_host_);
        for (std::size_t offset = 0; offset < write_buffer_.size(); offset += kLinkChunk)
            queue_.enqueueReadBuffer(device_, CL_FALSE, 0,
                                     std::min(kLinkChunk, write_buffer_.size() - offset),
                                     pinned_host_);
        queue_.finish();
        return ms_since(start);
    });
}

void report_floor(std::ostream& log, const OpenClContext& cl, const std::filesystem::path& input,
                  const std::filesystem::path& output, const PipelineTimer& pipeline)
{
    // Measured after the commit, so a floor that cannot be measured (no room beside the output
    // for its scratch copy) is a note, not a failure: the run's output is written, and an exit
    // status of 1 told a script it was not.
    FloorParts floor;
    std::uint64_t output_bytes = 0;
    try {
        output_bytes = std::filesystem::file_size(output);
        FloorMeter meter(cl, input, output, output_bytes);
        meter.measure();  // once to warm: the page cache, the link, the file system's metadata
        floor = meter.measure();
    } catch (const std::exception& error) {
        log << "Floor not measured (the output is written): " << error.what() << "\n";
        return;
    }
    // Start-up: what comes before the first byte can move, the driver's and the build's.
    const double startup_ms = pipeline.step_ms("find the device") +
                              pipeline.step_ms("create context") +
                              pipeline.step_ms("build kernels");
    const double work_ms = pipeline.total_ms() - startup_ms;
    const auto mb = [](std::uint64_t bytes) { return std::to_string((bytes + 500000) / 1000000); };
    const auto line = [&](const std::string& what, double ms) {
        log << "  " << std::left << std::setw(46) << what << std::right << std::setw(9) << ms;
    };
    log << std::fixed << std::setprecision(1)
        << "Floor, measured after the run: what any program must move for this job\n";
    line("read " + input.filename().string() + " (page cache, " +
             mb(std::filesystem::file_size(input)) + " MB)",
         floor.read_ms);
    log << "\n";
    line("write " + mb(output_bytes) + " MB beside " + output.filename().string(), floor.write_ms);
    log << "\n";
    if (floor.link_ms > 0) {
        line("both across the host link (pinned)", floor.link_ms);
        log << "\n";
    }
    line("floor", floor.total_ms());
    log << "\n";
    line("the steps after start-up", work_ms);
    log << std::setprecision(2) << "   " << work_ms / floor.total_ms() << "x floor\n";
    log << std::setprecision(1);
    line("all the steps", pipeline.total_ms());
    log << std::setprecision(2) << "   " << pipeline.total_ms() / floor.total_ms() << "x floor\n";
}

}  // namespace sdk
