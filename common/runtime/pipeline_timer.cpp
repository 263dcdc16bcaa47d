// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/pipeline_timer.hpp"

#include "common/runtime/errors.hpp"

#include <algorithm>

#include <iomanip>
#include <utility>

namespace sdk {
namespace {
thread_local StepObserver step_observer;
}  // namespace

void observe_steps_on_this_thread(StepObserver observer)
{
    step_observer = std::move(observer);
}

void PipelineTimer::add(const std::string& name, std::uint64_t bytes,
                        std::chrono::nanoseconds duration)
{
    const auto end = std::chrono::steady_clock::now();
    add(name, bytes, end - duration, end);
}

void PipelineTimer::add(const std::string& name, std::uint64_t bytes,
                        std::chrono::steady_clock::time_point start,
                        std::chrono::steady_clock::time_point end)
{
    const auto duration = std::chrono::duration_cast<std::chrono::nanoseconds>(end - start);
    steps_.push_back({name, bytes, static_cast<double>(duration.count()) / 1e6, start, end});
    if (step_observer) step_observer(steps_.back());
}

double PipelineTimer::total_ms() const
{
    double total = 0;
    for (const auto& step : steps_) total += step.ms;
    return total;
}

double PipelineTimer::span_ms() const
{
    if (steps_.empty()) return 0;
    const auto last = std::max_element(steps_.begin(), steps_.end(),
                                       [](const Step& a, const Step& b) { return a.end < b.end; });
    return static_cast<double>(
               std::chrono::duration_cast<std::chrono::nanoseconds>(last->end - origin_).count()) /
           1e6;
}

double PipelineTimer::step_ms(const std::string& name) const
{
    double ms = 0;
    for (const auto& step : steps_)
        if (step.name == name) ms += step.ms;
    return ms;
}

void PipelineTimer::print(std::ostream& out) const
{
    const double total = span_ms();
    out << "End to end, on the host's clock:\n"
        << "  " << std::left << std::setw(30) << "step" << std::right << std::setw(11) << "ms"
        << std::setw(12) << "MB/s" << std::setw(8) << "share"
        << "\n";
    out << std::fixed;
    // A step repeated (once per band) adds up in its first line: the table stays one screen,
    // while steps() keeps every one for the trace.
    std::vector<Step> lines;
    for (const auto& step : steps_) {
        auto same = std::find_if(lines.begin(), lines.end(),
                                 [&](const Step& line) { return line.name == step.name; });
        if (same == lines.end()) {
            lines.push_back(step);
        } else {
            same->bytes += step.bytes;
            same->ms += step.ms;
        }
    }
    for (const auto& step : lines) {
        out << "  " << std::left << std::setw(30) << printable(step.name) << std::right
            << std::setw(11) << std::setprecision(3) << step.ms << std::setw(12)
            << std::setprecision(1);
        if (step.bytes > 0 && step.ms > 0)
            out << static_cast<double>(step.bytes) / (step.ms * 1e3);
        else
            out << "-";
        out << std::setw(7) << std::setprecision(0) << (total > 0 ? 100 * step.ms / total : 0)
            << "%\n";
    }
    const double between = std::max(0.0, total - total_ms());
    out << "  " << std::left << std::setw(30) << "between the steps" << std::right << std::setw(11)
        << std::setprecision(3) << between << std::setw(12) << "-" << std::setw(7)
        << std::setprecision(0) << (total > 0 ? 100 * between / total : 0) << "%\n";
    out << "  " << std::left << std::setw(30) << "total" << std::right << std::setw(11)
        << std::setprecision(3) << total << "\n";
    out.unsetf(std::ios::floatfield);
}

}  // namespace sdk
