// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/kernel_tuning.hpp"

#include <CLI/CLI.hpp>

#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace sdk {

// The options every tuned sample offers: --work-group WxH (a shape asked for, which the filter
// checks against the kernel's limit on the device) and --retune (measure again, replace the
// cached choice). The help texts say what is tuned.
struct TuningOptions {
    std::string work_group;
    bool retune = false;
};
void add_tuning_options(CLI::App& app, TuningOptions& options, const std::string& work_group_help,
                        const std::string& retune_help);
// --work-group's help where --variant auto tunes the kernel too (sobel, fir_float).
inline constexpr char kVariantWorkGroupHelp[] =
    "work-group shape WxH, e.g. 32x8, run as named or refused; with auto nothing is measured "
    "(default: the tuned shape, or 32x8, shrunk to what the kernel runs on this device)";

// What the options ask of a tuning: --retune measures everything again, else the cache's
// choice, or as much measuring as a run's budget allows (kernels/kernel_tuning.hpp).
Tuning tuning_mode(const TuningOptions& options);

// The shape --work-group names, or nothing where it names none.
std::optional<WorkGroupShape> named_work_group(const TuningOptions& options);
// Refuses (UsageError) --retune with --work-group: one asks to measure, the other names the answer.
void refuse_retune_with_work_group(const TuningOptions& options);

// Prints the tuning's announcement as the run's first line (flushed: it says why the wait).
TuningAnnouncer announce_to(std::ostream& log);

// The log lines of a tuning: what was measured, when it was measured now, then
// "LABEL: CHOICE for SIZE CLASS (where the cache is)".
template <typename Choice>
void log_tuning(std::ostream& log, const std::string& label, const Tuned<Choice>& tuned)
{
    if (!tuned.from_cache) log << describe_measurement(tuned) << "\n";
    log << label << ": " << describe(tuned.choice) << " for " << describe(tuned.size_class) << " "
        << describe_cache_use(tuned) << "\n";
}

// --variant auto's lines: log_tuning's, but where --work-group names a shape the tuner's shape is
// not the one that runs: the line names the variant alone, then the shape as named.
template <typename Choice>
void log_variant_auto(std::ostream& log, const Tuned<Choice>& tuned, const std::string& variant,
                      const std::optional<WorkGroupShape>& named)
{
    if (!named) return log_tuning(log, "Variant auto", tuned);
    if (!tuned.from_cache) log << describe_measurement(tuned) << "\n";
    log << "Variant auto: " << variant << " for " << describe(tuned.size_class) << " "
        << describe_cache_use(tuned) << ", " << describe(*named) << " as named\n";
}

// For a filter whose tuned choice is a work-group shape: the shape --work-group gives, or the
// tuned one (`tune` measures or reads the cache; the log says which). --retune with
// --work-group is a usage error (refuse_retune_with_work_group).
WorkGroupShape chosen_work_group(
    const TuningOptions& options, std::ostream& log,
    const std::function<Tuned<WorkGroupShape>(Tuning, const TuningAnnouncer&)>& tune);

}  // namespace sdk
