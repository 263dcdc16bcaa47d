// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "samples/app/tuning_options.hpp"
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
FirCoefficients checked_coefficients(const FirOptions& options,
                                     const std::filesystem::path& output);

// The variant and work-group shape for a `width` x `rows` image (a band's rows, if the image is
// cut): the ones asked for, or with auto the fastest here (measured the first time a size class
// is seen, or with --retune, then cached; the log says which). A variant the device cannot run
// becomes buffer, with a note. --retune without auto is a usage error. Separable weights skip
// the K*K pass, so auto measures nothing for them: buffer in 32x8 (or --work-group's shape).
FirChoice choose_fir_kernel(const FirOptions& options, const FirCoefficients& coefficients,
                            const OpenClContext& cl, Border border, std::size_t width,
                            std::size_t rows, std::ostream& log);

}  // namespace sdk
