// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "samples/app/tuning_options.hpp"
#include "kernels/morphology/morphology_filter.hpp"
#include "kernels/morphology/morphology_reference.hpp"

#include <CLI/CLI.hpp>
#include <string>

namespace sdk {

// morphology_packed's own options: what is foreground (--threshold, --invert), the structuring
// element (--shape, --size), the operation (--op), the region (--roi) and the passes'
// work-group shape (--work-group, --retune).
struct MorphologyOptions {
    unsigned threshold = 128;
    bool invert = false;
    MorphologyShape shape = MorphologyShape::diamond;
    std::string size;  // empty: not given
    MorphologyOperation operation = MorphologyOperation::close;
    std::string region;  // empty: the whole image
    TuningOptions tuning;

    Binarisation binarisation() const;
};
void add_morphology_options(CLI::App& app, MorphologyOptions& options);

}  // namespace sdk
