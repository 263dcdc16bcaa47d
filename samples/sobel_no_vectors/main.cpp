// SPDX-License-Identifier: Apache-2.0
// Sobel edge detection, naive: one work-item per output pixel and nine scalar byte loads.
// Compare its timings with ../sobel (16 outputs per work-item with vector loads): the gap is what
// vectorisation buys on your device. The kernel is in sobel_no_vectors.cl.
#include "samples/app/cli.hpp"
#include "samples/app/device_io.hpp"
#include "kernels/sobel/sobel_filter.hpp"
#include "kernels/sobel/sobel_outputs.hpp"
#include "common/runtime/pipeline_timer.hpp"
#include "samples/app/sample_io.hpp"
#include "samples/app/report.hpp"
#include "samples/app/device_run.hpp"
#include "common/codecs/codec_choice.hpp"
#include "common/imageio/image_file.hpp"

#include <iostream>

int main(int argc, char** argv)
{
    CLI::App app{"Sobel edge detection, one pixel per work-item (no vectors)", "sobel_no_vectors"};
    sdk::CommonOptions common;  // each run (each photo of a batch) gets its own copy: `options`
    sdk::add_common_options(app, common, sdk::BorderOption::offered, sdk::BandsOption::not_offered);
    bool save_gradients = false;
    app.add_flag(
        "--save-gradients", save_gradients,
        "also write |dX| and |dY| as OUTPUT-dX.bmp and OUTPUT-dY.bmp (.png for a PNG OUTPUT)");

    return sdk::run_sample(app, argc, argv, common, [&](const sdk::CommonOptions& options) {
        std::ostream& log = options.quiet ? sdk::null_stream() : std::cout;
        sdk::PipelineTimer pipeline;

        // 1. Open the image (a PNG or JPEG starts decoding on a thread of its own, while the
        //    OpenCL driver and the device start), then reserve the files the run writes (all are
        //    put in place together at the end, or none).
        if (options.band_rows != 0)
            throw sdk::UsageError(
                "--band-rows: sobel_no_vectors runs the whole image, as the "
                "Arm Mali SDK tutorials do (bands are in sobel, fir_float and morphology_packed)");
        const sdk::OpenedImage image =
            pipeline.time("open " + options.input.filename().string(), 0,
                          [&] { return sdk::open_image(options.input, sdk::Decoding::ahead); });
        sdk::OutputSet outputs = sdk::reserve_outputs(
            options, sdk::sobel_output_paths(options.output, save_gradients, options.save_raw),
            pipeline);

        // 2. Pick the device and how images reach it, and build the kernel for the border; then
        //    the 8-bit luminance the filter works on, whole, on the host.
        const sdk::OpenClContext cl = sdk::make_context(options.device);
        const sdk::MemoryChoice memory = sdk::choose_memory_mode(options.memory, cl.device);
        // A PNG output compressed on the host or the device; JPEGs are decoded on the host here.
        sdk::choose_codecs(options.codecs, options.device, cl, memory.mode, log,
                           sdk::JpegIdctUse::not_offered, [&] {
                               if (image.decoding) image.decoding->wait_until_finished();
                           });
        sdk::SobelFilter sobel(cl, sdk::SobelVariant::no_vectors, options.border, memory.mode);
        const sdk::Image luminance = sdk::host_luminance(image, pipeline);
        sdk::print_setup(log, cl, luminance,
                         "one pixel per work-item, " + sdk::describe(sobel.work_group()) +
                             ", border " + sdk::border_name(options.border),
                         memory);

        // 3. Upload, run once and read dX and dY back: each step timed end to end.
        const sdk::SobelRun run = sdk::upload_run_download(sobel, luminance, memory.mode, pipeline);
        const auto magnitude =
            pipeline.time("magnitude on the host", 3 * luminance.pixels.size(),
                          [&] { return sdk::gradient_magnitude(run.gradients); });
        const sdk::EventTimes kernel_times = sdk::event_times(run.kernel);
        sdk::print_event_times(log, kernel_times, pipeline.step_ms("kernel"));
        pipeline.print(log);

        // 4. With -n, time repeated runs.
        sdk::report_repeated_runs(
            log, options.iterations, [&] { return sobel.run(); }, sobel.bytes_moved());

        // 5. Write the images (and raw arrays), check them against the C++ reference, then put
        //    every file in place together; with --floor, what any program must move for this
        //    job, measured now on this machine, against which the steps above are read.
        sdk::write_image(options.output,
                         sdk::Image{luminance.width, luminance.height, 1, magnitude});
        if (save_gradients)
            sdk::write_gradient_images(options.output, luminance.width, luminance.height,
                                       run.gradients);
        if (options.save_raw)
            sdk::write_sobel_raw(*options.save_raw, luminance, run.gradients, magnitude);
        if (options.verify) {
            const double reference_ms =
                sdk::verify_sobel(log, luminance, options.border, run.gradients, magnitude);
            sdk::print_cpu_comparison(log, kernel_times.run_ms, pipeline.total_ms(), reference_ms);
        }
        sdk::finish_run(options, log, pipeline, cl, outputs,
                        save_gradients ? " and its -dX, -dY images" : "");
    });
}
