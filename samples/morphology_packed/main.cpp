// SPDX-License-Identifier: Apache-2.0
// Binary morphology on bit-packed images, after the 2013 blog posts "OpenCL - Dilation and
// Erosion in packed bit" and "OpenCL - Connecting pixels": the luminance is binarised and packed
// 32 pixels to a word on the device, dilated and eroded a whole word per work-item with a 3x3
// square, the blog's 13-pixel diamond, or OpenCV's rectangle, cross or ellipse of any odd size up
// to 63x63, and unpacked for display; every step is timed from its event, as the blog's table
// does. The kernels are in morphology_packed.cl.
#include "samples/app/cli.hpp"
#include "samples/app/device_run.hpp"
#include "samples/morphology_packed/element_option.hpp"
#include "samples/morphology_packed/morphology_options.hpp"
#include "samples/morphology_packed/morphology_timings.hpp"
#include "samples/morphology_packed/roi_option.hpp"
#include "kernels/morphology/morphology_filter.hpp"
#include "kernels/morphology/morphology_outputs.hpp"
#include "kernels/morphology/morphology_tuning.hpp"

#include <memory>
#include <string>
#include <utility>

int main(int argc, char** argv)
{
    CLI::App app{
        "Dilation, erosion, closing and opening of a binarised image packed 32 pixels "
        "to a word (packed-bit morphology blog)",
        "morphology_packed"};
    sdk::CommonOptions common;  // each run (each photo of a batch) gets its own copy: `options`
    // No --border: outside the image counts as background for dilation and foreground for
    // erosion, whatever the user might ask.
    sdk::add_common_options(app, common, sdk::BorderOption::not_offered);
    sdk::MorphologyOptions asked;  // the technique's own options
    sdk::add_morphology_options(app, asked);

    // The technique, run once for the image, or once per photo of a batch.
    const auto technique = [&](const sdk::CommonOptions& options) {
        const sdk::StructuringElement element = sdk::element_from_options(asked.shape, asked.size);
        const sdk::MorphologyOperation operation = asked.operation;
        const sdk::Binarisation binarisation = asked.binarisation();

        // 1. Reserve every file the run writes, open the image, pick the device, and plan how
        //    the image is cut: whole, or bands with a halo of the element's radius times the
        //    passes either side. A region (--roi) needs the whole image, and must lie inside it.
        sdk::DeviceRun run(options, {sdk::morphology_output_paths(options.output, options.save_raw),
                                     sdk::Decoding::ahead,
                                     sdk::halo_rows(element, operation),
                                     sdk::MorphologyFilter::row_footprint,
                                     {{"--roi", !asked.region.empty()},
                                      {"--iterations", options.iterations > 0}}});
        const sdk::Roi roi = sdk::region_to_process(asked.region, run.width(), run.height());
        run.print_bands();

        // 2. Build the kernels for the structuring element, with the conversions between the
        //    file's rows and images. The passes' work-group shape: the one asked for, or the
        //    fastest here for a band of this size (measured once, then cached).
        auto [morphology, conversions] = run.pipeline.time("build kernels", 0, [&] {
            return std::make_pair(
                std::make_unique<sdk::MorphologyFilter>(run.cl, element, run.memory.mode),
                std::make_unique<sdk::RowConversions>(run.cl));
        });
        const sdk::WorkGroupShape group = run.pipeline.time("choose the work-group", 0, [&] {
            return sdk::chosen_work_group(
                asked.tuning, run.log, [&](sdk::Tuning mode, const sdk::TuningAnnouncer& announce) {
                    return sdk::choose_morphology_work_group(run.cl, element, run.width(),
                                                             run.first_band_rows(), mode, announce);
                });
        });
        if (asked.tuning.work_group.empty())
            morphology->fit_work_group(group.x, group.y);  // shrunk where the kernels run fewer
        else
            morphology->set_work_group(group.x, group.y);  // as named, or refused
        run.print_setup(sdk::operation_name(operation) + " with the " + sdk::element_name(element) +
                        ", foreground: luminance " + (asked.invert ? "< " : ">= ") +
                        std::to_string(asked.threshold) + ", region " + sdk::roi_text(roi) +
                        ", passes' " + sdk::describe(morphology->work_group()));

        // 3. A band at a time (usually one: the whole image), all on the device: the file's rows
        //    to the luminance; binarise and pack, each morphology pass, unpack, every step timed
        //    by its event; then the band's rows of the output file. The host's copies only for
        //    --save-raw and --verify.
        const bool host_copies_wanted = options.save_raw || options.verify;
        sdk::MorphologyHostCopies copies;
        if (host_copies_wanted) copies = sdk::morphology_host_copies(run.width(), run.height());
        std::vector<sdk::StepTiming> first_run;
        run.run_bands(
            *conversions, [&](const sdk::Band& band, const sdk::DeviceRun::LoadLuminance& load) {
                morphology->allocate(run.width(), band.input_rows());
                load(morphology->luminance_buffer(),
                     run.width());  // rows of width bytes: packing reads bytes
                const sdk::Roi band_roi =
                    run.plan.banded() ? sdk::whole_image(run.width(), band.input_rows()) : roi;
                first_run = sdk::step_timings(morphology->run(binarisation, operation, band_roi));
                if (host_copies_wanted)
                    sdk::add_band(copies, *morphology, band, options.save_raw.has_value());
                return sdk::BandResult{morphology->output_buffer(), run.width()};
            });
        sdk::print_first_run(run.log, *morphology, first_run, run.plan.banded());

        // 4. With -n, the median of each step over N more runs (the first was the warm-up).
        sdk::report_median_steps(run.log, *morphology, binarisation, operation, roi,
                                 options.iterations);

        // 5. Only when asked, from the host's copies of the whole image: the packed input and
        //    result as PBM and the luminance, and the check against the C++ reference. Then
        //    every file is put in place together.
        if (options.save_raw)
            sdk::write_morphology_raw(*options.save_raw, copies.luminance, copies.result);
        if (options.verify)
            sdk::verify_morphology(run.log, copies.luminance, binarisation, operation, element, roi,
                                   copies.result.output);

        // 6. Put every file in place together. The table of the steps from the program's start
        //    follows once the run's objects are released (with --floor, what any program must
        //    move).
        run.finish(options.save_raw ? " and input.pbm, output.pbm, luminance.npy" : "");
    };

    // Parse the command line and run the technique. Once it has returned, its objects released
    // and the device stopped with them, a single run prints its table; then the process ends at
    // once, the operating system freeing what is left (end_process, samples/app/messages.hpp).
    sdk::end_process(sdk::run_sample(app, argc, argv, common, technique));
}
