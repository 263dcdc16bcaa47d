// A KxK FIR filter in floating point (K = 3 .. 15, odd), the Arm Mali SDK tutorial's 3x3 grown:
// each work-item computes 4 outputs along a row with float4 vectors, its pixels read from a
// buffer, a tile in local memory or an image (--variant); weights that are a column times a row
// run as two 1-D passes. Any weights of the size run on the one built program; the kernels are
// in kernels/fir/.
#include "samples/app/cli.hpp"
#include "samples/app/compare.hpp"
#include "samples/app/device_io.hpp"
#include "samples/app/fir_options.hpp"
#include "samples/app/report.hpp"
#include "samples/app/run_floor.hpp"
#include "samples/app/sample_io.hpp"
#include "kernels/fir/fir_filter.hpp"
#include "kernels/fir/fir_outputs.hpp"
#include "common/runtime/pipeline_timer.hpp"

#include <iostream>
#include <memory>
#include <string>
#include <utility>

int main(int argc, char** argv)
{
    CLI::App app{"KxK FIR filter in float with 4-wide vectors (Mali SDK tutorial)", "fir_float"};
    sdk::CommonOptions common;  // each run (each photo of a batch) gets its own copy: `options`
    sdk::add_common_options(app, common);
    sdk::FirOptions fir_options;
    sdk::add_fir_options(app, fir_options);
    bool compare = false;
    sdk::add_compare_option(app, compare);

    return sdk::run_sample(app, argc, argv, common, [&](const sdk::CommonOptions& options) {
        std::ostream& log = options.quiet ? sdk::null_stream() : std::cout;

        // 1. Check the weights first: a typo should cost nothing. Weights summing above 1 are
        //    legal (a sharpening filter) but bright areas then clip at 255 in output.bmp.
        const sdk::FirCoefficients coefficients =
            sdk::parse_fir_coefficients(fir_options.numerators, fir_options.divisor, fir_options.size);
        if (sdk::may_saturate(coefficients))
            std::cerr << "fir_float: warning: the weights sum to " << coefficients.weight_sum()
                      << ", more than 1: outputs may pass 255 and saturate in "
                      << options.output.string() << "\n";

        // 2. Open the image: its header gives its size. A PNG or JPEG starts decoding on the
        //    host now, on a thread of its own, while the OpenCL driver and the device start. Then
        //    reserve the files the run writes (all are put in place together at the end, or none).
        sdk::PipelineTimer pipeline;
        const sdk::OpenedImage image =
            pipeline.time("open " + options.input.filename().string(), 0, [&] {
                return sdk::open_image(options.input, sdk::Decoding::ahead);
            });
        sdk::OutputSet outputs = sdk::reserve_outputs(
            options, sdk::fir_output_paths(options.output, options.save_raw), pipeline);
        const std::size_t width = image.width();
        const std::size_t height = image.height();

        // 3. Pick the device and how images reach it, and how the image is cut: whole when the
        //    device can allocate its buffers, else in horizontal bands of rows, each run as if
        //    it were the whole image with a halo of K / 2 rows either side (the window's
        //    radius), the halo's results thrown away (common/runtime/bands.hpp).
        const cl::Device device =
            pipeline.time("find the device", 0, [&] { return sdk::select_device(options.device); });
        const sdk::OpenClContext cl =
            pipeline.time("create context", 0, [&] { return sdk::make_context(device); });
        const sdk::MemoryChoice memory = sdk::choose_memory_mode(options.memory, cl.device);
        const sdk::BandPlan plan =
            sdk::plan_device_bands(image, cl, static_cast<std::size_t>(coefficients.radius()),
                                   sdk::FirFilter::row_footprint(width), options.band_rows);
        sdk::refuse_with_bands(plan, {{"--iterations", options.iterations > 0}, {"--compare", compare}});
        if (plan.banded()) log << sdk::describe(plan) << "\n";

        // 4. The K*K pass's kernel: where it reads its pixels (a buffer, a tile in local memory
        //    or an image) and its work-group shape, as asked, or with auto the fastest on this
        //    device for this size and K (measured once, then cached). Built for the border and
        //    K (the weights are data, not part of the build), with the conversions. Weights that
        //    are a column times a row skip the K*K pass: two 1-D passes instead.
        const sdk::FirChoice choice = sdk::choose_fir_kernel(
            fir_options, coefficients, cl, options.border, width, plan.bands.front().input_rows(),
            log);
        auto [fir, conversions] = pipeline.time("build kernels", 0, [&] {
            return std::make_pair(std::make_unique<sdk::FirFilter>(cl, options.border, coefficients,
                                                                   memory.mode, choice.variant),
                                  std::make_unique<sdk::RowConversions>(cl));
        });
        if (choice.group_x > 0) fir->set_work_group(choice.group_x, choice.group_y);
        sdk::print_setup(log, cl, sdk::Image{width, height, 1, {}},
                         "border " + sdk::border_name(options.border) + ", " +
                             sdk::describe(fir->work_group()) +
                             ", coefficients " + coefficients.to_string(),
                         memory);
        log << fir->describe_path() << "\n";

        // 5. A band at a time (usually one: the whole image). The floats the kernel reads, made
        //    on the device: the file's rows go there as they are stored (one byte per pixel or
        //    three, not four), become the 8-bit luminance and then floats; the 8-bit images live
        //    on the device only. The filter, then the band's rows of output.bmp: the floats
        //    rounded to 8 bits on the device, laid out as the file's rows and written as they
        //    come back. With --save-raw or --verify each band also adds its rows to the host's
        //    copies of the whole images (step 7).
        const bool host_copies_wanted = options.save_raw || options.verify;
        sdk::FirHostCopies copies;
        if (host_copies_wanted) copies = sdk::fir_host_copies(width, height);
        sdk::BandReader reader(image, cl, memory.mode, *conversions);
        sdk::BandWriter writer(options.output, width, height, cl, memory.mode, *conversions);
        cl::Event kernel;
        for (const sdk::Band& band : writer.in_file_order(plan.bands)) {
            const std::size_t rows = band.input_rows();
            const std::uint64_t band_pixels = std::uint64_t{width} * rows;
            fir->allocate(width, rows);
            const cl::Buffer luminance_bytes = sdk::create_image_buffer(
                cl, sdk::MemoryMode::copy, CL_MEM_READ_WRITE, band_pixels, "the 8-bit luminance");
            reader.load_luminance(band, luminance_bytes, width, pipeline);
            pipeline.time("kernel luminance to float", band_pixels + 4 * band_pixels, [&] {
                conversions->to_float(luminance_bytes, width, rows, width, fir->luminance_buffer(),
                                      fir->float_pitch()).wait();
            });
            pipeline.time("kernel fir_float", fir->bytes_moved(), [&] {
                kernel = fir->run();
                kernel.wait();
            });
            const cl::Buffer result_bytes = sdk::create_image_buffer(
                cl, sdk::MemoryMode::copy, CL_MEM_READ_WRITE, band_pixels, "the 8-bit result");
            pipeline.time("kernel float to 8 bits", 4 * band_pixels + band_pixels, [&] {
                conversions->to_8bit(fir->output_buffer(), fir->float_pitch(), width, rows,
                                     result_bytes, width).wait();
            });
            writer.write(band, result_bytes, width, pipeline);
            if (host_copies_wanted) sdk::add_band(copies, *fir, band);
        }
        writer.commit(pipeline);
        const sdk::EventTimes kernel_times = sdk::event_times(kernel);
        sdk::print_event_times(log, kernel_times);
        pipeline.print(log);

        // 6. With -n, time repeated runs (one run includes first-launch costs a loop does not),
        //    then the verdict: every K*K variant timed in the same rounds on this image, each in
        //    its fastest work-group shape, to answer on this device whether the pixels are best
        //    read from a buffer, local memory or an image.
        if (options.iterations > 0) {
            sdk::print_kernel_statistics(log, options.iterations, fir->time_runs(options.iterations),
                                         fir->bytes_moved());
            sdk::report_fir_verdict(log, cl, options.border, coefficients, *fir,
                                    options.iterations, fir_options);
        }
        //    With --compare, one table: the K*K pass from a buffer, local memory and an image,
        //    against the device copying as many bytes.
        if (compare) {
            const unsigned rounds = sdk::compare_rounds(options.iterations);
            sdk::print_comparison(
                log, cl.device_name(), width, height, rounds,
                sdk::compare_fir_variants(cl, options.border, coefficients, *fir, rounds));
        }

        // 7. What needs the host's copies, only when asked: the exact floats with --save-raw,
        //    and the check against the C++ reference, which also times the "C code running on
        //    a CPU" the seeds compare with, of the whole image however it was cut. Then every
        //    file is put in place together.
        if (options.save_raw) sdk::write_fir_raw(*options.save_raw, copies.luminance, copies.output);
        if (options.verify) {
            const double reference_ms = sdk::verify_fir(log, copies.luminance, coefficients,
                                                        options.border, copies.output);
            sdk::print_cpu_comparison(log, kernel_times.run_ms, pipeline.total_ms(), reference_ms);
        }
        sdk::write_trace(options, pipeline, cl);  // --trace: the timeline of this run
        outputs.commit();
        log << "Wrote " << sdk::printable(options.output.string()) << "\n";

        // 8. With --floor: what any program must move for this job, measured now on this
        //    machine, against which the steps above are read (samples/app/run_floor.hpp).
        if (options.floor) sdk::report_floor(log, cl, options.input, options.output, pipeline);
    });
}
