// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "samples/app/device_run.hpp"
#include "samples/app/tuning_options.hpp"
#include "kernels/sobel/sobel_filter.hpp"
#include "kernels/sobel/sobel_outputs.hpp"
#include "kernels/sobel/sobel_tuning.hpp"

#include <CLI/CLI.hpp>
#include <functional>
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
SobelChoice choose_sobel_kernel(const SobelOptions& options, const OpenClContext& cl,
                                Border border, std::size_t width, std::size_t rows,
                                std::ostream& log);

// --host-conversions, the Arm Mali SDK tutorials' way, for comparison: the file decoded and converted to the
// luminance on the host, uploaded, `run_sobel` run, dX and dY downloaded and their magnitude
// found on the host, the output written from it. Each step timed in `run.pipeline`; `copies`,
// when given, gets the whole image's rows.
void run_with_host_conversions(DeviceRun& run, SobelFilter& sobel,
                               const std::function<void()>& run_sobel, SobelHostCopies* copies);

// -n: every variant timed the same way on `sobel`'s image (in --work-group's shape, else 32x8),
// then the one-line verdict (samples/app/verdict.hpp).
void report_sobel_verdict(std::ostream& log, const OpenClContext& cl, Border border,
                          SobelFilter& sobel, unsigned iterations, const SobelOptions& options);

// After the run, what the user asked to measure: with -n, repeated runs timed by their events
// (one run includes first-launch costs a loop does not) and the verdict; with --compare, the
// Mali tutorials' table (the scalar kernel and every variant, against the device copying as many bytes).
void report_sobel_timings(DeviceRun& run, SobelFilter& sobel, const SobelOptions& options);

}  // namespace sdk
