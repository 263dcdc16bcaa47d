// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "samples/app/tuning_options.hpp"
#include "kernels/sobel/sobel_filter.hpp"
#include "kernels/sobel/sobel_outputs.hpp"
#include "kernels/sobel/sobel_tuning.hpp"

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>

namespace sdk {

// sobel's own options: which kernel runs (--variant, with --work-group and --retune), the
// gradient images (--save-gradients), the Mali tutorials' table (--compare) and their host-side
// conversions (--host-conversions).
struct SobelOptions {
    std::string variant = "auto";
    TuningOptions tuning;
    bool save_gradients = false;
    bool compare = false;
    bool host_conversions = false;
};
void add_sobel_options(CLI::App& app, SobelOptions& options);

// The variant and work-group shape for a `width` x `rows` image (a band's rows, if the image is
// cut): the ones asked for, or with auto the fastest here (measured the first time a size class
// is seen, or with --retune, then cached; the log says which). A variant the device cannot run
// becomes a buffer one, with a note. --retune without auto is a usage error.
SobelChoice choose_sobel_kernel(const SobelOptions& options, const OpenClContext& cl, Border border,
                                std::size_t width, std::size_t rows, std::ostream& log);

}  // namespace sdk
