// SPDX-License-Identifier: Apache-2.0
#include "samples/sobel/sobel_options.hpp"

#include "samples/app/messages.hpp"
#include "samples/app/option_values.hpp"
#include "samples/app/compare.hpp"

#include <optional>
#include <vector>

namespace sdk {

void add_sobel_options(CLI::App& app, SobelOptions& options)
{
    accept_names(app.add_option("--variant", options.variant,
                                "kernel: 16x1 (16 outputs per work-item), 16x4 (16x4 block, "
                                "rows reused), 16x4-packed (16x4, two pixels per 32-bit "
                                "operation), local (a work-group's tile in local memory), "
                                "image (read through an image2d_t and a sampler), or auto "
                                "(the fastest on this device, measured once and cached)"),
                 {"auto", "16x1", "16x4", "16x4-packed", "local", "image"})
        ->capture_default_str();
    add_tuning_options(app, options.tuning, kVariantWorkGroupHelp,
                       "with auto: measure the candidates again for this image's size class "
                       "and replace the cached choice");
    app.add_flag(
        "--save-gradients", options.save_gradients,
        "also write |dX| and |dY| as OUTPUT-dX.bmp and OUTPUT-dY.bmp (.png for a PNG OUTPUT)");
    add_compare_option(app, options.compare);
    app.add_flag("--host-conversions", options.host_conversions,
                 "decode the file, compute the luminance and the magnitude on the host, as the "
                 "Arm Mali SDK tutorials do (for comparison)");
}

SobelChoice choose_sobel_kernel(const SobelOptions& options, const OpenClContext& cl, Border border,
                                std::size_t width, std::size_t rows, std::ostream& log)
{
    SobelChoice choice;
    refuse_retune_with_work_group(options.tuning);
    const std::optional<WorkGroupShape> named = named_work_group(options.tuning);
    if (options.variant == "auto") {
        // A shape named: nothing measured, the variant from a finished tuning or the default.
        const TuningResult tuned = choose_sobel_kernel(
            cl, border, width, rows, named ? Tuning::cache_only : tuning_mode(options.tuning),
            announce_to(log));
        choice = tuned.choice;
        log_variant_auto(log, tuned, variant_name(choice.variant), named);
    } else {
        if (options.tuning.retune) throw UsageError("--retune needs --variant auto");
        std::string note;
        choice.variant = runnable_sobel_variant(cl, options.variant, width, rows, note);
        if (!note.empty()) log << "Note: " << note << "\n";
    }
    if (named) {
        choice.group_x = named->x;
        choice.group_y = named->y;
    }
    return choice;
}

}  // namespace sdk
