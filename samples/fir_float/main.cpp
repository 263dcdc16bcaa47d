// SPDX-License-Identifier: Apache-2.0
// A KxK FIR filter in floating point (K = 3 .. 15, odd), the Arm Mali SDK tutorial's 3x3 grown:
// each work-item computes 4 outputs along a row with float4 vectors, its pixels read from a
// buffer, a tile in local memory or an image (--variant); weights that are a column times a row
// run as two 1-D passes. Any weights of the size run on the one built program; the kernels are
// in kernels/fir/.
#include "samples/app/cli.hpp"
#include "samples/app/compare.hpp"
#include "samples/app/device_run.hpp"
#include "samples/app/fir_options.hpp"
#include "samples/app/report.hpp"
#include "kernels/fir/fir_filter.hpp"
#include "kernels/fir/fir_outputs.hpp"

#include <iostream>
#include <memory>
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
        // 1. Check the weights first: a typo should cost nothing. Weights summing above 1 are
        //    legal (a sharpening filter) but bright areas then clip at 255 in output.bmp.
        const sdk::FirCoefficients coefficients =
            sdk::parse_fir_coefficients(fir_options.numerators, fir_options.divisor, fir_options.size);
        if (sdk::may_saturate(coefficients))
            std::cerr << "fir_float: warning: the weights sum to " << coefficients.weight_sum()
                      << ", more than 1: outputs may pass 255 and saturate in "
                      << options.output.string() << "\n";

        // 2. Reserve every file the run writes (put in place together at the end, or none),
        //    open the image (a PNG or JPEG starts decoding while the device starts), pick the
        //    device and how images reach it, and how the image is cut: whole when the device can
        //    allocate its buffers, else bands with a halo of K / 2 rows either side (the
        //    window's radius).
        sdk::DeviceRun run(options, {sdk::fir_output_paths(options.output, options.save_raw),
                                     sdk::Decoding::ahead,
                                     static_cast<std::size_t>(coefficients.radius()),
                                     sdk::FirFilter::row_footprint,
                                     {{"--iterations", options.iterations > 0}, {"--compare", compare}}});
        run.print_bands();
        const std::size_t width = run.width();

        // 3. The K*K pass's kernel: where it reads its pixels (a buffer, a tile in local memory
        //    or an image) and its work-group shape, as asked, or with auto the fastest on this
        //    device for this size and K (measured once, then cached). Built for the border and
        //    K (the weights are data, not part of the build), with the conversions. Weights that
        //    are a column times a row skip the K*K pass: two 1-D passes instead.
        const sdk::FirChoice choice = sdk::choose_fir_kernel(
            fir_options, coefficients, run.cl, options.border, width, run.first_band_rows(), run.log);
        auto [fir, conversions] = run.pipeline.time("build kernels", 0, [&] {
            return std::make_pair(std::make_unique<sdk::FirFilter>(run.cl, options.border, coefficients,
                                                                   run.memory.mode, choice.variant),
                                  std::make_unique<sdk::RowConversions>(run.cl));
        });
        if (choice.group_x > 0) fir->set_work_group(choice.group_x, choice.group_y);
        run.print_setup("border " + sdk::border_name(options.border) + ", " +
                        sdk::describe(fir->work_group()) + ", coefficients " + coefficients.to_string());
        run.log << fir->describe_path() << "\n";

        // 4. A band at a time (usually one: the whole image). The floats the kernel reads, made
        //    on the device: the file's rows go there as they are stored (one byte per pixel or
        //    three, not four), become the 8-bit luminance and then floats; the 8-bit images live
        //    on the device only. The filter, then the band's rows of output.bmp: the floats
        //    rounded to 8 bits on the device, laid out as the file's rows and written as they
        //    come back. With --save-raw or --verify each band also adds its rows to the host's
        //    copies of the whole images (step 6).
        const bool host_copies_wanted = options.save_raw || options.verify;
        sdk::FirHostCopies copies;
        if (host_copies_wanted) copies = sdk::fir_host_copies(width, run.height());
        cl::Event kernel;
        run.run_bands(*conversions, [&](const sdk::Band& band, const sdk::DeviceRun::LoadLuminance& load) {
            fir->allocate(width, band.input_rows());
            sdk::load_float_luminance(run, *conversions, *fir, load);
            run.pipeline.time("kernel fir_float", fir->bytes_moved(), [&] {
                kernel = fir->run();
                kernel.wait();
            });
            if (host_copies_wanted) sdk::add_band(copies, *fir, band);
            return sdk::round_to_8bit(run, *conversions, *fir);
        });
        const sdk::EventTimes kernel_times = sdk::event_times(kernel);
        sdk::print_event_times(run.log, kernel_times);
        run.pipeline.print(run.log);

        // 5. With -n, time repeated runs (one run includes first-launch costs a loop does not),
        //    then the verdict: every K*K variant timed in the same rounds on this image, each in
        //    its fastest work-group shape, to answer on this device whether the pixels are best
        //    read from a buffer, local memory or an image.
        if (options.iterations > 0) {
            sdk::print_kernel_statistics(run.log, options.iterations, fir->time_runs(options.iterations),
                                         fir->bytes_moved());
            sdk::report_fir_verdict(run.log, run.cl, options.border, coefficients, *fir,
                                    options.iterations, fir_options);
        }
        //    With --compare, one table: the K*K pass from a buffer, local memory and an image,
        //    against the device copying as many bytes.
        if (compare) {
            const unsigned rounds = sdk::compare_rounds(options.iterations);
            sdk::print_comparison(
                run.log, run.cl.device_name(), width, run.height(), rounds,
                sdk::compare_fir_variants(run.cl, options.border, coefficients, *fir, rounds));
        }

        // 6. What needs the host's copies, only when asked: the exact floats with --save-raw,
        //    and the check against the C++ reference, which also times the "C code running on
        //    a CPU" the seeds compare with, of the whole image however it was cut. Then every
        //    file is put in place together, and --floor reports what any program must move.
        if (options.save_raw) sdk::write_fir_raw(*options.save_raw, copies.luminance, copies.output);
        if (options.verify) {
            const double reference_ms = sdk::verify_fir(run.log, copies.luminance, coefficients,
                                                        options.border, copies.output);
            sdk::print_cpu_comparison(run.log, kernel_times.run_ms, run.pipeline.total_ms(), reference_ms);
        }
        run.finish();
    });
}
