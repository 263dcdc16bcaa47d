// SPDX-License-Identifier: Apache-2.0
// Sobel edge detection, vectorised: each work-item computes 16 outputs along a row (16x1, the
// Arm Mali SDK tutorial's design) or a 16x4 block that loads each input row once and reuses it
// for three output rows (the Qualcomm Adreno post's data-reuse step).
// The whole run is built around what the user waits for, file in to file out: the file's pixel
// rows go to the device as stored, the luminance, the gradients, the magnitude and the output
// file's rows are all computed there, and output.bmp is written from what comes back.
// The kernels are in sobel.cl; the naive one-pixel-per-work-item version is ../sobel_no_vectors.
#include "samples/app/cli.hpp"
#include "samples/app/compare.hpp"
#include "samples/app/device_run.hpp"
#include "samples/app/report.hpp"
#include "samples/app/sobel_options.hpp"
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

    return sdk::run_sample(app, argc, argv, common, [&](const sdk::CommonOptions& options) {
        // 1. Reserve every file the run writes (put in place together at the end, or not at
        //    all), open the image (a PNG or JPEG starts decoding while the device starts), pick
        //    the device and how images reach it, and how the image is cut: whole when the device
        //    can allocate its buffers, else bands with a 1-row halo either side (Sobel's radius).
        sdk::DeviceRun run(options,
                           {sdk::sobel_output_paths(options.output, asked.save_gradients, options.save_raw),
                            asked.host_conversions ? sdk::Decoding::when_read : sdk::Decoding::ahead,
                            1, sdk::SobelFilter::row_footprint,
                            {{"--host-conversions", asked.host_conversions},
                             {"--iterations", options.iterations > 0},
                             {"--compare", asked.compare}}});

        // 2. The kernel: the one asked for, or with auto the fastest on this device for images
        //    of this size, a band's if the image is cut (measured the first time a size class
        //    is seen, or with --retune, then cached). The pixels come from a buffer, a tile in
        //    local memory or an image; a device without images runs a buffer kernel instead.
        const sdk::SobelChoice choice = sdk::choose_sobel_kernel(
            asked, run.cl, options.border, run.width(), run.first_band_rows(), run.log);

        // 3. Build the kernels: Sobel for the border mode, and the conversions between the
        //    file's rows and the images the kernels read and write.
        auto [sobel, conversions] = run.pipeline.time("build kernels", 0, [&] {
            return std::make_pair(
                std::make_unique<sdk::SobelFilter>(run.cl, choice.variant, options.border, run.memory.mode),
                std::make_unique<sdk::RowConversions>(run.cl));
        });
        sobel->set_work_group(choice.group_x, choice.group_y);
        run.print_setup("variant " + sdk::describe(choice) + ", border " + sdk::border_name(options.border));
        run.print_bands();

        // 4. A band at a time (usually one: the whole image): the luminance on the device, the
        //    file's rows read straight into the memory that moves them there as they are stored
        //    and converted there; the gradients and their magnitude, each a kernel; the band's
        //    rows of output.bmp laid out on the device and written after its header as they come
        //    back (a .png output is downloaded and compressed on the host at the end). The
        //    host's copies (gradient images, raw arrays, --verify) only when asked for.
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
            run.run_bands(*conversions, [&](const sdk::Band& band, const sdk::DeviceRun::LoadLuminance& load) {
                sobel->allocate(run.width(), band.input_rows());
                load(sobel->luminance_buffer(), sobel->row_pitch());
                run_sobel();
                if (host_copies_wanted) sdk::add_band(copies, *sobel, band);
                return sdk::BandResult{sobel->magnitude_buffer(), sobel->row_pitch()};
            });
        } else {
            sdk::run_with_host_conversions(run, *sobel, run_sobel, host_copies_wanted ? &copies : nullptr);
        }
        sdk::print_event_times(run.log, sdk::event_times(kernel));
        run.pipeline.print(run.log);

        // 5. With -n, time repeated runs: one run includes first-launch costs a loop does not.
        //    Then the verdict: every variant timed the same way on this image, to answer on this
        //    device whether the pixels are best read from a buffer, local memory or an image.
        //    With --compare, the seeds' table: the scalar kernel and every variant, against the
        //    device copying as many bytes.
        sdk::report_repeated_runs(run.log, options.iterations, [&] { return sobel->run(); },
                                  sobel->bytes_moved());
        if (options.iterations > 0)
            sdk::report_sobel_verdict(run.log, run.cl, options.border, *sobel, options.iterations, asked);
        if (asked.compare) {
            const unsigned rounds = sdk::compare_rounds(options.iterations);
            sdk::print_comparison(run.log, run.cl.device_name(), run.width(), run.height(), rounds,
                                  sdk::compare_sobel_variants(run.cl, options.border, *sobel, rounds));
        }

        // 6. What needs the host's copies, only when asked: the gradient images, the raw arrays,
        //    and the check against the C++ reference (which also times the seeds' "C code
        //    running on a CPU"), all of the whole image, however it was cut.
        if (asked.save_gradients)
            sdk::write_gradient_images(options.output, run.width(), run.height(), copies.gradients);
        if (options.save_raw)
            sdk::write_sobel_raw(*options.save_raw, copies.luminance, copies.gradients, copies.magnitude);
        if (options.verify) {
            const double reference_ms = sdk::verify_sobel(run.log, copies.luminance, options.border,
                                                          copies.gradients, copies.magnitude);
            sdk::print_cpu_comparison(run.log, sdk::event_times(kernel).run_ms,
                                      run.pipeline.total_ms(), reference_ms);
        }

        // 7. Every file complete: put them all in place together; with --floor, what any
        //    program must move for this job, measured now, against which the steps are read.
        run.finish(asked.save_gradients ? " and its -dX, -dY images" : "");
    });
}
