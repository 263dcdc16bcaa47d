// SPDX-License-Identifier: Apache-2.0
#include "samples/fir_float/fir_timings.hpp"

#include "samples/app/compare.hpp"
#include "samples/app/report.hpp"
#include "samples/app/verdict.hpp"
#include "kernels/fir/fir_separable.hpp"

#include <optional>

namespace sdk {

void report_fir_verdict(std::ostream& log, const OpenClContext& cl, Border border,
                        const FirCoefficients& coefficients, FirFilter& fir, unsigned iterations,
                        const FirOptions& options)
{
    // Each variant in its fastest shape, or all in the one --work-group gives.
    const std::optional<WorkGroupShape> shape = named_work_group(options.tuning);
    std::vector<VariantTime> times;
    bool host_clock = false;
    for (const FirVariantMedian& variant :
         time_fir_variants(cl, border, coefficients, fir, iterations, shape)) {
        times.push_back({memory_name(variant.variant) + " " + std::to_string(variant.shape.x) +
                             "x" + std::to_string(variant.shape.y),
                         variant.median_ms});
        host_clock = host_clock || variant.host_clock;
    }
    if (fir.separable()) {
        const bool one_kernel = fir.variant() == FirVariant::local;
        const Statistics separable = fir.time_runs(iterations);
        times.push_back({one_kernel ? "separable kernel in local memory" : "separable passes",
                         separable.median});
        host_clock = host_clock || separable.host_clock;
    }
    log << verdict_line(cl.device_name(), times, host_clock) << "\n";
}

void report_fir_timings(DeviceRun& run, const FirCoefficients& coefficients, FirFilter& fir,
                        const FirOptions& options)
{
    const unsigned iterations = run.options.iterations;
    if (iterations > 0) {
        print_kernel_statistics(run.log, iterations, fir.time_runs(iterations), fir.bytes_moved());
        report_fir_verdict(run.log, run.cl, run.options.border, coefficients, fir, iterations,
                           options);
    }
    if (options.compare) {
        const unsigned rounds = compare_rounds(iterations);
        print_comparison(
            run.log, run.cl.device_name(), run.width(), run.height(), rounds,
            compare_fir_variants(run.cl, run.options.border, coefficients, fir, rounds));
    }
}

}  // namespace sdk
