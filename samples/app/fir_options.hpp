// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "samples/app/device_run.hpp"
#include "samples/app/tuning_options.hpp"
#include "kernels/convert/row_conversions.hpp"
#include "kernels/fir/fir_filter.hpp"
#include "kernels/fir/fir_tuning.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <ostream>
#include <string>

namespace sdk {

// fir_float's own options: the window (--size, --coefficients, --divisor), which K*K kernel
// runs (--variant, with --work-group and --retune) and the variants' table (--compare).
struct FirOptions {
    int size = 3;
    std::string numerators = kDefaultFirNumerators;
    double divisor = 256;
    std::string variant = "auto";
    TuningOptions tuning;
    bool compare = false;
};
void add_fir_options(CLI::App& app, FirOptions& options);

// The weights --coefficients and --divisor give for --size (UsageError when they do not fit), and
// on the standard error a warning when they sum above 1: legal (a sharpening filter), but bright
// areas then clip at 255 in `output`.
FirCoefficients checked_coefficients(const FirOptions& options, const std::filesystem::path& output);

// The variant and work-group shape for a `width` x `rows` image (a band's rows, if the image is
// cut): the ones asked for, or with auto the fastest here (measured the first time a size class
// is seen, or with --retune, then cached; the log says which). A variant the device cannot run
// becomes buffer, with a note. --retune without auto is a usage error. Separable weights skip
// the K*K pass, so auto measures nothing for them: buffer in 32x8 (or --work-group's shape).
FirChoice choose_fir_kernel(const FirOptions& options, const FirCoefficients& coefficients,
                            const OpenClContext& cl, Border border, std::size_t width,
                            std::size_t rows, std::ostream& log);

// -n: the K*K variants timed on `fir`'s image (in --work-group's shape, else 32x8), and where
// `fir` runs separable weights its two passes too, then the one-line verdict
// (samples/app/verdict.hpp).
void report_fir_verdict(std::ostream& log, const OpenClContext& cl, Border border,
                        const FirCoefficients& coefficients, FirFilter& fir,
                        unsigned iterations, const FirOptions& options);

// After the run, what the user asked to measure: with -n, repeated runs timed by their events
// and the verdict; with --compare, one table: the K*K pass from a buffer, local memory and an
// image, against the device copying as many bytes.
void report_fir_timings(DeviceRun& run, const FirCoefficients& coefficients, FirFilter& fir,
                        const FirOptions& options);

// A band's way in and out of the float filter, on the device: the 8-bit luminance `load` puts
// there (the file's rows as they are stored, converted), made the floats `fir` reads; and
// `fir`'s output rounded to 8 bits, where the band's rows of the output file come from. The 8-bit
// images live on the device only; each conversion is a step of `run`'s table.
void load_float_luminance(DeviceRun& run, RowConversions& conversions, FirFilter& fir,
                          const DeviceRun::LoadLuminance& load);
BandResult round_to_8bit(DeviceRun& run, RowConversions& conversions, const FirFilter& fir);

}  // namespace sdk
