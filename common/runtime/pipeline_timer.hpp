// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace sdk {

// Where a sample's end-to-end time goes, step by step, on the host's clock: reading the file,
// RGB to luminance, upload (or map and unmap), each kernel, download. The Arm Mali SDK tutorials
// warn that start-up and transfers can outweigh the kernel on small images; this table shows by how
// much. Each timed step must finish its work before it returns (wait for its events).
class PipelineTimer {
public:
    // The table starts now, or at `origin` (a sample's first run: the process's start).
    PipelineTimer() = default;
    explicit PipelineTimer(std::chrono::steady_clock::time_point origin) : origin_(origin) {}

    template <typename Step>
    decltype(auto) time(const std::string& name, std::uint64_t bytes, Step&& step)
    {
        const auto start = std::chrono::steady_clock::now();
        struct Record {  // records the step even when it returns a value
            PipelineTimer& timer;
            const std::string& name;
            std::uint64_t bytes;
            std::chrono::steady_clock::time_point start;
            ~Record() { timer.add(name, bytes, start, std::chrono::steady_clock::now()); }
        } record{*this, name, bytes, start};
        return std::forward<Step>(step)();
    }

    // A name already in the table adds to its step (a run in bands repeats each band's steps).
    void add(const std::string& name, std::uint64_t bytes, std::chrono::nanoseconds duration);
    void add(const std::string& name, std::uint64_t bytes,
             std::chrono::steady_clock::time_point start,
             std::chrono::steady_clock::time_point end);
    double total_ms() const;                        // the steps' times added up
    double step_ms(const std::string& name) const;  // 0 when no such step
    // From the origin to the last step's end: the steps and the host's work between them.
    double span_ms() const;
    // step, ms, MB/s of the bytes it moves, share of the span; "between the steps", what the
    // span holds beside them (the reports and checks printed between steps, the host's own
    // bookkeeping); then the span as the total.
    void print(std::ostream& out) const;

    // The steps as timed, for the trace (--trace): when each began and ended on steady_clock.
    struct Step {
        std::string name;
        std::uint64_t bytes;
        double ms;
        std::chrono::steady_clock::time_point start;
        std::chrono::steady_clock::time_point end;
    };
    const std::vector<Step>& steps() const { return steps_; }
    // The start of the table (when the timer was made, or the origin given): time 0 of the trace.
    std::chrono::steady_clock::time_point origin() const { return origin_; }

private:
    std::vector<Step> steps_;
    std::chrono::steady_clock::time_point origin_ = std::chrono::steady_clock::now();
};

// A batch of photos (samples/app/batch.hpp) sums its photos' steps: while a thread has an
// observer, every step a PipelineTimer records on that thread is also handed to it. Empty: none.
using StepObserver = std::function<void(const PipelineTimer::Step&)>;
void observe_steps_on_this_thread(StepObserver observer);

}  // namespace sdk
