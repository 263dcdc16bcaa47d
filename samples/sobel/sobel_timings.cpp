// SPDX-License-Identifier: Apache-2.0
#include "samples/sobel/sobel_timings.hpp"

#include "samples/app/compare.hpp"
#include "samples/app/report.hpp"
#include "samples/app/verdict.hpp"

#include <optional>
#include <vector>

namespace sdk {

void report_sobel_verdict(std::ostream& log, const OpenClContext& cl, Border border,
                          SobelFilter& sobel, unsigned iterations, const SobelOptions& options)
{
    // Each variant in --work-group's shape, else in its default (32x8 within its limits).
    const std::optional<WorkGroupShape> shape = named_work_group(options.tuning);
    std::vector<VariantTime> times;
    bool host_clock = false;
    for (const VariantMedian& variant : time_sobel_variants(cl, border, sobel, iterations, shape)) {
        times.push_back({memory_name(variant.variant), variant.median_ms});
        host_clock = host_clock || variant.host_clock;
    }
    log << verdict_line(cl.device_name(), times, host_clock) << "\n";
}

void report_sobel_timings(DeviceRun& run, SobelFilter& sobel, const SobelOptions& options)
{
    const unsigned iterations = run.options.iterations;
    report_repeated_runs(
        run.log, iterations, [&] { return sobel.run(); }, sobel.bytes_moved());
    if (iterations > 0)
        report_sobel_verdict(run.log, run.cl, run.options.border, sobel, iterations, options);
    if (options.compare) {
        const unsigned rounds = compare_rounds(iterations);
        print_comparison(run.log, run.cl.device_name(), run.width(), run.height(), rounds,
                         compare_sobel_variants(run.cl, run.options.border, sobel, rounds));
    }
}

}  // namespace sdk
