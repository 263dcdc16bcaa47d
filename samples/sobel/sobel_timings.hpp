// SPDX-License-Identifier: Apache-2.0
#pragma once
// sobel's reports: what -n and --compare measure after the run, and the verdict.
#include "samples/sobel/sobel_options.hpp"
#include "samples/app/device_run.hpp"
#include "kernels/sobel/sobel_filter.hpp"

#include <ostream>

namespace sdk {

// -n: every variant timed the same way on `sobel`'s image (in --work-group's shape, else 32x8),
// then the one-line verdict (samples/app/verdict.hpp).
void report_sobel_verdict(std::ostream& log, const OpenClContext& cl, Border border,
                          SobelFilter& sobel, unsigned iterations, const SobelOptions& options);

// After the run, what the user asked to measure: with -n, repeated runs timed by their events
// (one run includes first-launch costs a loop does not) and the verdict; with --compare, the
// Mali tutorials' table (the scalar kernel and every variant, against the device copying as many
// bytes).
void report_sobel_timings(DeviceRun& run, SobelFilter& sobel, const SobelOptions& options);

}  // namespace sdk
