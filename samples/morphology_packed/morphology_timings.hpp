// SPDX-License-Identifier: Apache-2.0
#pragma once
// morphology_packed's reports: the first run's steps, and with -n their medians.
#include "kernels/morphology/morphology_filter.hpp"
#include "kernels/morphology/morphology_reference.hpp"
#include "common/runtime/step_timing.hpp"

#include <ostream>
#include <vector>

namespace sdk {

// The first run's report: the packed row's words and pitch, then each step's times from its
// event (the first run includes first-launch costs; of the last band when the image is cut).
void print_first_run(std::ostream& log, const MorphologyFilter& morphology,
                     const std::vector<StepTiming>& steps, bool banded);

// -n: the median of each step over `iterations` more runs (the first was the warm-up), and of
// each step's nanoseconds per pixel.
void report_median_steps(std::ostream& log, MorphologyFilter& morphology,
                         const Binarisation& binarisation, MorphologyOperation operation,
                         const Roi& roi, unsigned iterations);

}  // namespace sdk
