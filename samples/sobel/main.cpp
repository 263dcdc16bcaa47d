// SPDX-License-Identifier: Apache-2.0
// Sobel edge detection, vectorised: each work-item computes 16 outputs along a row (16x1, the
// Arm Mali SDK tutorial's design) or a 16x4 block that loads each input row once and reuses it
// for three output rows (the Qualcomm Adreno post's data-reuse step). Every step from the file's
// rows to output.bmp's rows runs on the device. The kernels are in kernels/sobel/; the naive
// one-pixel-per-work-item version is ../sobel_no_vectors.
#include "samples/app/cli.hpp"
#include "samples/app/device_run.hpp"
#include "samples/app/report.hpp"
#include "samples/sobel/host_conversions.hpp"
#include "samples/sobel/sobel_options.hpp"
#include "samples/sobel/sobel_timings.hpp"
#include "kernels/sobel/sobel_filter.hpp"
#include "kernels/sobel/sobel_outputs.hpp"

#include <memory>
#include <utility>

int main(int argc, char** argv)
{
    CLI::App app{"Sobel edge detection with 16-wide vectors (Mali SDK tutorial, Adreno 16x4 reuse)",
                 "sobel"};
    sdk::CommonOptions common;  // each run (each photo of a batch) gets its own copy: `options`
    sdk::add_common_options(app, common);
    sdk::SobelOptions asked;  // the technique's own options
    sdk::add_sobel_options(app, asked);

    // The technique, run once for the image, or once per photo of a batch.
    const auto technique = [&](const sdk::CommonOptions& options) {
        // 1. Reserve every file the run writes, open the image, pick the device, and plan how
        //    the image is cut: whole, or bands with a 1-row halo either side (Sobel's radius).
        sdk::DeviceRun run(
            options,
            {sdk::sobel_output_paths(options.output, asked.save_gradients, options.save_raw),
             asked.host_conversions ? sdk::Decoding::when_read : sdk::Decoding::ahead,
             1,
             sdk::SobelFilter::row_footprint,
             {{"--host-conversions", asked.host_conversions},
              {"--iterations", options.iterations > 0},
              {"--compare", asked.compare}}});

        // 2. The kernel: the one asked for, or with auto the fastest on this device for images
        //    of this size (measured the first time a size class is seen, then cached). A step
        //    of its own: a first run's measurements can outlast everything else.
        const sdk::SobelChoice choice = run.pipeline.time("choose the kernel", 0, [&] {
            return sdk::choose_sobel_kernel(asked, run.cl, options.border, run.width(),
                                            run.first_band_rows(), run.log);
        });

        // 3. Build it for the border mode, with the conversions between the file's rows and
        //    the images the kernels read and write.
        auto [sobel, conversions] = run.pipeline.time("build kernels", 0, [&] {
            return std::make_pair(std::make_unique<sdk::SobelFilter>(
                                      run.cl, choice.variant, options.border, run.memory.mode),
                                  std::make_unique<sdk::RowConversions>(run.cl));
        });
        // Its work-group: the one --work-group names, run as named or refused; else the chosen
        // shape, shrunk where this kernel runs fewer work-items a group here.
        if (asked.tuning.work_group.empty())
            sobel->fit_work_group(choice.group_x, choice.group_y);
        else
            sobel->set_work_group(choice.group_x, choice.group_y);
        run.print_setup("variant " + sdk::variant_name(choice.variant) + ", " +
                        sdk::describe(sobel->work_group()) + ", border " +
                        sdk::border_name(options.border));
        run.print_bands();

        // 4. A band at a time (usually one: the whole image): the file's rows to the device's
        //    luminance, the gradients and their magnitude (each a kernel), then the band's rows
        //    of the output file. The host's copies only for --save-gradients, --save-raw, --verify.
        cl::Event kernel;
        const auto run_sobel = [&] {
            run.pipeline.time("kernel sobel", sobel->bytes_moved(), [&] {
                kernel = sobel->run();
                kernel.wait();
            });
            run.pipeline.time("kernel sobel_magnitude", 3 * sobel->pixel_count(),
                              [&] { sobel->run_magnitude().wait(); });
        };
        const bool host_copies_wanted = asked.save_gradients || options.save_raw || options.verify;
        sdk::SobelHostCopies copies;
        if (host_copies_wanted) copies = sdk::sobel_host_copies(run.width(), run.height());
        if (!asked.host_conversions) {
            run.run_bands(*conversions,
                          [&](const sdk::Band& band, const sdk::DeviceRun::LoadLuminance& load) {
                              sobel->allocate(run.width(), band.input_rows());
                              load(sobel->luminance_buffer(), sobel->row_pitch());
                              run_sobel();
                              if (host_copies_wanted) sdk::add_band(copies, *sobel, band);
                              return sdk::BandResult{sobel->magnitude_buffer(), sobel->row_pitch()};
                          });
        } else {  // the Mali tutorials' way, for comparison: conversions on the host
            sdk::run_with_host_conversions(run, *sobel, run_sobel,
                                           host_copies_wanted ? &copies : nullptr);
        }
        sdk::print_event_times(run.log, sdk::event_times(kernel),
                               run.pipeline.step_ms("kernel sobel"));

        // 5. With -n, repeated runs and the verdict (buffer, local memory or image?); with
        //    --compare, every variant against the device copying as many bytes.
        sdk::report_sobel_timings(run, *sobel, asked);

        // 6. Only when asked, from the host's copies of the whole image: the gradient images,
        //    the raw arrays, and the check against the C++ reference.
        if (asked.save_gradients)
            sdk::write_gradient_images(options.output, run.width(), run.height(), copies.gradients);
        if (options.save_raw)
            sdk::write_sobel_raw(*options.save_raw, copies.luminance, copies.gradients,
                                 copies.magnitude);
        if (options.verify) {
            const double reference_ms = sdk::verify_sobel(run.log, copies.luminance, options.border,
                                                          copies.gradients, copies.magnitude);
            sdk::print_cpu_comparison(run.log, sdk::event_times(kernel).run_ms,
                                      run.pipeline.total_ms(), reference_ms);
        }

        // 7. Put every file in place together. The table of the steps from the program's start
        //    follows once the run's objects are released (with --floor, what any program must
        //    move).
        run.finish(asked.save_gradients ? " and its -dX, -dY images" : "");
    };

    // Parse the command line and run the technique. Once it has returned, its objects released
    // and the device stopped with them, a single run prints its table; then the process ends at
    // once, the operating system freeing what is left (end_process, samples/app/messages.hpp).
    sdk::end_process(sdk::run_sample(app, argc, argv, common, technique));
}
