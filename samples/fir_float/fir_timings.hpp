// SPDX-License-Identifier: Apache-2.0
#pragma once
// fir_float's reports: what -n and --compare measure after the run, and the verdict.
#include "samples/fir_float/fir_options.hpp"
#include "samples/app/device_run.hpp"
#include "kernels/fir/fir_filter.hpp"

#include <ostream>

namespace sdk {

// -n: the K*K variants timed on `fir`'s image (in --work-group's shape, else 32x8), and where
// `fir` runs separable weights its two passes too, then the one-line verdict
// (samples/app/verdict.hpp).
void report_fir_verdict(std::ostream& log, const OpenClContext& cl, Border border,
                        const FirCoefficients& coefficients, FirFilter& fir, unsigned iterations,
                        const FirOptions& options);

// After the run, what the user asked to measure: with -n, repeated runs timed by their events
// and the verdict; with --compare, one table: the K*K pass from a buffer, local memory and an
// image, against the device copying as many bytes.
void report_fir_timings(DeviceRun& run, const FirCoefficients& coefficients, FirFilter& fir,
                        const FirOptions& options);

}  // namespace sdk
