// SPDX-License-Identifier: Apache-2.0
#include "samples/fir_float/fir_options.hpp"

#include "samples/app/option_values.hpp"
#include "samples/app/compare.hpp"
#include "samples/fir_float/coefficients_file.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/program.hpp"
#include "kernels/fir/fir_separable.hpp"

#include <iostream>
#include <optional>

namespace sdk {

void add_fir_options(CLI::App& app, FirOptions& options)
{
    app.add_option("--size", options.size, "the window is K x K pixels, K odd from 3 to 15")
        ->type_name("K")
        ->capture_default_str();
    app.add_option("--coefficients", options.numerators,
                   "the KxK weights' numerators, K*K of them, row-major, row 0 for the window's "
                   "top row (integers or decimals, negative allowed; the default is 3x3), "
                   "or @FILE to read them from a file (assets/fir/ holds examples). "
                   "Weights that are a column times a row run as two 1-D passes")
        ->type_name("a,b,c,...|@FILE")
        ->capture_default_str();
    app.add_option("--divisor", options.divisor, "the weights' common divisor, a number (not 0)")
        ->type_name("D")
        ->capture_default_str();
    accept_names(app.add_option("--variant", options.variant,
                                "the KxK pass reads its pixels from: buffer (global memory), "
                                "local (a work-group's tile in local memory), image (an "
                                "image2d_t through a sampler), or auto (the fastest on this "
                                "device for this size and K, measured once and cached)"),
                 {"auto", "buffer", "local", "image"})
        ->capture_default_str();
    add_tuning_options(app, options.tuning, kVariantWorkGroupHelp,
                       "with auto: measure the candidates again for this image's size class "
                       "and K and replace the cached choice");
    add_compare_option(app, options.compare);
}

FirCoefficients checked_coefficients(const FirOptions& options, const std::filesystem::path& output)
{
    check_fir_size(options.size);  // before a file's count is held against it
    FirCoefficients coefficients = parse_fir_coefficients(
        coefficients_text(options.numerators, options.size, executable_directory()),
        options.divisor, options.size);
    if (may_saturate(coefficients))
        std::cerr << "fir_float: warning: the weights sum to " << coefficients.weight_sum()
                  << ", more than 1: outputs may pass 255 and saturate in " << output.string()
                  << "\n";
    return coefficients;
}

FirChoice choose_fir_kernel(const FirOptions& options, const FirCoefficients& coefficients,
                            const OpenClContext& cl, Border border, std::size_t width,
                            std::size_t rows, std::ostream& log)
{
    FirChoice choice;
    refuse_retune_with_work_group(options.tuning);
    const std::optional<WorkGroupShape> named = named_work_group(options.tuning);
    if (options.variant == "auto") {
        // Separable weights: the separable paths compete (two passes, or one kernel with the
        // row sums in local memory), not the K*K kernels they skip.
        const FirWeights weights =
            separate(coefficients) ? FirWeights::separable : FirWeights::full_window;
        const FirTuningResult tuned = choose_fir_kernel(
            cl, border, options.size, width, rows,
            named ? Tuning::cache_only : tuning_mode(options.tuning), weights, announce_to(log));
        choice = tuned.choice;
        log_variant_auto(log, tuned, fir_variant_name(choice.variant), named);
    } else {
        if (options.tuning.retune) throw UsageError("--retune needs --variant auto");
        choice.variant = fir_variant_named(options.variant);
        const std::string why_not = fir_variant_unavailable(cl, choice.variant, width, rows);
        if (!why_not.empty()) {
            log << "Note: " << why_not << ": variant " << options.variant << " runs as buffer\n";
            choice.variant = FirVariant::buffer;
        }
    }
    if (named) {
        choice.group_x = named->x;
        choice.group_y = named->y;
        // auto may pick the local variant, whose groups have a width of their own: it runs the
        // height asked for (as the verdict does); asked for by name, another width is refused.
        const WorkGroupShape runs =
            shape_run_by(choice.variant, WorkGroupShape{choice.group_x, choice.group_y});
        if (options.variant == "auto" && runs.x != choice.group_x) {
            log << "Note: the local variant's work-groups are " << kLocalGroupWidth
                << " wide: work-group " << runs.x << "x" << runs.y << "\n";
            choice.group_x = runs.x;
        }
    } else if (options.variant == "local") {
        choice.group_x = choice.group_y = 0;  // its own default, which fits the device
    }
    return choice;
}

}  // namespace sdk
