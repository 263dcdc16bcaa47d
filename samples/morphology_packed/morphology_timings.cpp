// SPDX-License-Identifier: Apache-2.0
#include "samples/morphology_packed/morphology_timings.hpp"

#include <cstdint>
#include <iomanip>
#include <vector>

namespace sdk {

void print_first_run(std::ostream& log, const MorphologyFilter& morphology,
                     const std::vector<StepTiming>& steps, bool banded)
{
    log << "Packed: " << morphology.words_per_row() << " words of 32 pixels a row (row pitch "
        << morphology.row_pitch() << " bytes)\nFirst run (includes first-launch costs"
        << (banded ? ", the last band" : "") << "):\n";
    step_table(steps).print(log);
}

void report_median_steps(std::ostream& log, MorphologyFilter& morphology,
                         const Binarisation& binarisation, MorphologyOperation operation,
                         const Roi& roi, unsigned iterations)
{
    if (iterations == 0) return;
    std::vector<std::vector<StepTiming>> runs;
    for (unsigned i = 0; i < iterations; ++i)
        runs.push_back(step_timings(morphology.run(binarisation, operation, roi)));
    const auto medians = median_step_timings(runs);
    log << "Median of each step over " << iterations << " runs:\n";
    step_table(medians).print(log);
    log << "Median ns per pixel:" << std::fixed << std::setprecision(4);
    for (const auto& step : medians)
        log << "  " << step.name << " "
            << static_cast<double>(step.end_ns - step.start_ns) /
                   static_cast<double>(morphology.pixel_count());
    log << "\n";
    log.unsetf(std::ios::floatfield);
}

}  // namespace sdk
