// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "samples/app/tuning_options.hpp"
#include "kernels/morphology/morphology_filter.hpp"
#include "kernels/morphology/morphology_reference.hpp"

#include "common/runtime/step_timing.hpp"

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace sdk {

// morphology_packed's own options: what is foreground (--threshold, --invert), the structuring
// element (--shape, --size), the operation (--op), the region (--roi) and the passes'
// work-group shape (--work-group, --retune).
struct MorphologyOptions {
    unsigned threshold = 128;
    bool invert = false;
    MorphologyShape shape = MorphologyShape::diamond;
    std::string size;    // empty: not given
    MorphologyOperation operation = MorphologyOperation::close;
    std::string region;  // empty: the whole image
    TuningOptions tuning;

    Binarisation binarisation() const;
};
void add_morphology_options(CLI::App& app, MorphologyOptions& options);

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
