#include "runtime/pipeline_timer.hpp"

#include <iomanip>

namespace sdk {

void PipelineTimer::add(const std::string& name, std::uint64_t bytes,
                        std::chrono::nanoseconds duration)
{
    const double ms = static_cast<double>(duration.count()) / 1e6;
    // A step repeated (once per band) adds up in its first line: the table stays one screen.
    for (auto& step : steps_)
        if (step.name == name) {
            step.bytes += bytes;
            step.ms += ms;
            return;
        }
    steps_.push_back({name, bytes, ms});
}

double PipelineTimer::total_ms() const
{
    double total = 0;
    for (const auto& step : steps_) total += step.ms;
    return total;
}

double PipelineTimer::step_ms(const std::string& name) const
{
    for (const auto& step : steps_)
        if (step.name == name) return step.ms;
    return 0;
}

void PipelineTimer::print(std::ostream& out) const
{
    const double total = total_ms();
    out << "End to end, on the host's clock:\n"
        << "  " << std::left << std::setw(30) << "step" << std::right << std::setw(11) << "ms"
        << std::setw(12) << "MB/s" << std::setw(8) << "share" << "\n";
    out << std::fixed;
    for (const auto& step : steps_) {
        out << "  " << std::left << std::setw(30) << step.name << std::right << std::setw(11)
            << std::setprecision(3) << step.ms << std::setw(12) << std::setprecision(1);
        if (step.bytes > 0 && step.ms > 0)
            out << static_cast<double>(step.bytes) / (step.ms * 1e3);
        else
            out << "-";
        out << std::setw(7) << std::setprecision(0) << (total > 0 ? 100 * step.ms / total : 0)
            << "%\n";
    }
    out << "  " << std::left << std::setw(30) << "total" << std::right << std::setw(11)
        << std::setprecision(3) << total << "\n";
    out.unsetf(std::ios::floatfield);
}

}  // namespace sdk
