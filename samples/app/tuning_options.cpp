// SPDX-License-Identifier: Apache-2.0
#include "samples/app/tuning_options.hpp"

#include "samples/app/option_values.hpp"
#include "common/runtime/errors.hpp"

namespace sdk {

void add_tuning_options(CLI::App& app, TuningOptions& options, const std::string& work_group_help,
                        const std::string& retune_help)
{
    app.add_option("--work-group", options.work_group, work_group_help)
        ->type_name("WxH")
        ->check(work_group_validator());
    app.add_flag("--retune", options.retune, retune_help);
}

Tuning tuning_mode(const TuningOptions& options)
{
    return options.retune ? Tuning::retune : Tuning::use_cache;
}

std::optional<WorkGroupShape> named_work_group(const TuningOptions& options)
{
    if (options.work_group.empty()) return std::nullopt;
    const auto [x, y] = parse_work_group(options.work_group);
    return WorkGroupShape{x, y};
}

void refuse_retune_with_work_group(const TuningOptions& options)
{
    if (options.retune && !options.work_group.empty())
        throw UsageError(
            "--retune measures the work-group shapes and --work-group names one: "
            "give one of them");
}

TuningAnnouncer announce_to(std::ostream& log)
{
    return [&log](const std::string& line) { log << line << std::endl; };
}

WorkGroupShape chosen_work_group(
    const TuningOptions& options, std::ostream& log,
    const std::function<Tuned<WorkGroupShape>(Tuning, const TuningAnnouncer&)>& tune)
{
    refuse_retune_with_work_group(options);
    if (const auto named = named_work_group(options)) return *named;
    const Tuned<WorkGroupShape> tuned = tune(tuning_mode(options), announce_to(log));
    log_tuning(log, "Tuned", tuned);
    return tuned.choice;
}

}  // namespace sdk
