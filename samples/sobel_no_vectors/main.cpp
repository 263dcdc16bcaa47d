// SPDX-License-Identifier: Apache-2.0
// Sobel edge detection, naive: one work-item per output pixel and nine scalar byte loads.
// Compare it with ../sobel (16 outputs per work-item with vector loads): the two mains take the
// same steps and differ only in which kernel runs (`diff` them), so the gap between their
// "kernel sobel" lines is what vectorisation buys on your device. The kernel is
// kernels/sobel/sobel_no_vectors.cl.
#include "samples/app/cli.hpp"
#include "samples/app/device_run.hpp"
#include "samples/app/report.hpp"
#include "kernels/sobel/sobel_filter.hpp"
#include "kernels/sobel/sobel_outputs.hpp"

#include <memory>
#include <utility>

int main(int argc, char** argv)
{
    CLI::App app{"Sobel edge detection, one pixel per work-item (no vectors)", "sobel_no_vectors"};
    sdk::CommonOptions common;  // each run (each photo of a batch) gets its own copy: `options`
    sdk::add_common_options(app, common);
    bool save_gradients = false;  // the technique's one option of its own
    app.add_flag(
        "--save-gradients", save_gradients,
        "also write |dX| and |dY| as OUTPUT-dX.bmp and OUTPUT-dY.bmp (.png for a PNG OUTPUT)");

    // The technique, run once for the image, or once per photo of a batch.
    const auto technique = [&](const sdk::CommonOptions& options) {
        // 1. Reserve every file the run writes, open the image, pick the device, and plan how
        //    the image is cut: whole, or bands with a 1-row halo either side (Sobel's radius).
        sdk::DeviceRun run(
            options, {sdk::sobel_output_paths(options.output, save_gradients, options.save_raw),
                      sdk::Decoding::ahead,
                      1,
                      sdk::SobelFilter::row_footprint,
                      {{"--iterations", options.iterations > 0}}});

        // 2. The kernel: always the naive one, one output pixel per work-item, in 32x8 groups or
        //    the largest that this kernel runs on this device (SobelFilter's fit_work_group).

        // 3. Build it for the border mode, with the conversions between the file's rows and
        //    the images the kernels read and write.
        auto [sobel, conversions] = run.pipeline.time("build kernels", 0, [&] {
            return std::make_pair(
                std::make_unique<sdk::SobelFilter>(run.cl, sdk::SobelVariant::no_vectors,
                                                   options.border, run.memory.mode),
                std::make_unique<sdk::RowConversions>(run.cl));
        });
        run.print_setup("one pixel per work-item, " + sdk::describe(sobel->work_group()) +
                        ", border " + sdk::border_name(options.border));
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
        const bool host_copies_wanted = save_gradients || options.save_raw || options.verify;
        sdk::SobelHostCopies copies;
        if (host_copies_wanted) copies = sdk::sobel_host_copies(run.width(), run.height());
        run.run_bands(*conversions,
                      [&](const sdk::Band& band, const sdk::DeviceRun::LoadLuminance& load) {
                          sobel->allocate(run.width(), band.input_rows());
                          load(sobel->luminance_buffer(), sobel->row_pitch());
                          run_sobel();
                          if (host_copies_wanted) sdk::add_band(copies, *sobel, band);
                          return sdk::BandResult{sobel->magnitude_buffer(), sobel->row_pitch()};
                      });
        sdk::print_event_times(run.log, sdk::event_times(kernel),
                               run.pipeline.step_ms("kernel sobel"));

        // 5. With -n, repeated runs of the kernel.
        sdk::report_repeated_runs(
            run.log, options.iterations, [&] { return sobel->run(); }, sobel->bytes_moved());

        // 6. Only when asked, from the host's copies of the whole image: the gradient images,
        //    the raw arrays, and the check against the C++ reference.
        if (save_gradients)
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
        run.finish(save_gradients ? " and its -dX, -dY images" : "");
    };

    // Parse the command line and run the technique. Once it has returned, its objects released
    // and the device stopped with them, a single run prints its table; then the process ends at
    // once, the operating system freeing what is left (end_process, samples/app/messages.hpp).
    sdk::end_process(sdk::run_sample(app, argc, argv, common, technique));
}
