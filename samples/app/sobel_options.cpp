// SPDX-License-Identifier: Apache-2.0
#include "samples/app/sobel_options.hpp"

#include "samples/app/cli.hpp"
#include "samples/app/compare.hpp"
#include "samples/app/report.hpp"
#include "samples/app/sample_io.hpp"
#include "samples/app/verdict.hpp"
#include "common/imageio/image_file.hpp"

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
    app.add_flag("--save-gradients", options.save_gradients,
                 "also write |dX| and |dY| as OUTPUT-dX.bmp and OUTPUT-dY.bmp (.png for a PNG OUTPUT)");
    add_compare_option(app, options.compare);
    app.add_flag("--host-conversions", options.host_conversions,
                 "decode the file, compute the luminance and the magnitude on the host, as the "
                 "Arm Mali SDK tutorials do (for comparison)");
}

SobelChoice choose_sobel_kernel(const SobelOptions& options, const OpenClContext& cl,
                                Border border, std::size_t width, std::size_t rows,
                                std::ostream& log)
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

void run_with_host_conversions(DeviceRun& run, SobelFilter& sobel,
                               const std::function<void()>& run_sobel, SobelHostCopies* copies)
{
    const std::uint64_t pixels = std::uint64_t{run.width()} * run.height();
    const Image luminance = load_luminance(run.options.input, &run.pipeline);
    run.pipeline.time("upload luminance", luminance.pixels.size(), [&] { sobel.upload(luminance); });
    run_sobel();
    if (copies) add_band(*copies, sobel, run.plan.bands.front());
    const auto gradients =
        run.pipeline.time("download dX, dY", 2 * pixels, [&] { return sobel.download(); });
    const auto magnitude = run.pipeline.time("magnitude on the host", 3 * pixels,
                                             [&] { return gradient_magnitude(gradients); });
    run.pipeline.time("write " + run.options.output.filename().string(), pixels, [&] {
        write_image(run.options.output, Image{run.width(), run.height(), 1, magnitude});
    });
}

void report_sobel_verdict(std::ostream& log, const OpenClContext& cl, Border border,
                          SobelFilter& sobel, unsigned iterations, const SobelOptions& options)
{
    // Each variant in --work-group's shape, else in its default (32x8 within its limits).
    const std::optional<WorkGroupShape> shape = named_work_group(options.tuning);
    std::vector<VariantTime> times;
    bool host_clock = false;
    for (const VariantMedian& variant : time_sobel_variants(cl, border, sobel, iterations, shape)) {
        times.push_back({memory_name(variant.variant), variant.median_ms});
        host_clock = host_clock || variant.host_clock;
    }
    log << verdict_line(cl.device_name(), times, host_clock) << "\n";
}

void report_sobel_timings(DeviceRun& run, SobelFilter& sobel, const SobelOptions& options)
{
    const unsigned iterations = run.options.iterations;
    report_repeated_runs(run.log, iterations, [&] { return sobel.run(); }, sobel.bytes_moved());
    if (iterations > 0)
        report_sobel_verdict(run.log, run.cl, run.options.border, sobel, iterations, options);
    if (options.compare) {
        const unsigned rounds = compare_rounds(iterations);
        print_comparison(run.log, run.cl.device_name(), run.width(), run.height(), rounds,
                         compare_sobel_variants(run.cl, run.options.border, sobel, rounds));
    }
}

}  // namespace sdk
