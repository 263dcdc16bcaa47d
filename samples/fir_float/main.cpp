// SPDX-License-Identifier: Apache-2.0
// A KxK FIR filter in floating point (K = 3 .. 15, odd), the Arm Mali SDK tutorial's 3x3 grown:
// each work-item computes 4 outputs along a row with float4 vectors, its pixels read from a
// buffer, a tile in local memory or an image (--variant); weights that are a column times a row
// run as two 1-D passes. Any weights of the size run on the one built program; the kernels are
// in kernels/fir/.
#include "samples/app/cli.hpp"
#include "samples/app/device_run.hpp"
#include "samples/fir_float/fir_options.hpp"
#include "samples/fir_float/fir_timings.hpp"
#include "samples/fir_float/float_conversions.hpp"
#include "samples/app/report.hpp"
#include "kernels/fir/fir_filter.hpp"
#include "kernels/fir/fir_outputs.hpp"

#include <memory>
#include <utility>

int main(int argc, char** argv)
{
    CLI::App app{"KxK FIR filter in float with 4-wide vectors (Mali SDK tutorial)", "fir_float"};
    sdk::CommonOptions common;  // each run (each photo of a batch) gets its own copy: `options`
    sdk::add_common_options(app, common);
    sdk::FirOptions fir_options;  // the technique's own options
    sdk::add_fir_options(app, fir_options);

    // The technique, run once for the image, or once per photo of a batch.
    const auto technique = [&](const sdk::CommonOptions& options) {
        // 1. Check the weights first: a typo should cost nothing.
        const sdk::FirCoefficients coefficients =
            sdk::checked_coefficients(fir_options, options.output);

        // 2. Reserve every file the run writes, open the image, pick the device, and plan how
        //    the image is cut: whole, or bands with a halo of K / 2 rows either side.
        sdk::DeviceRun run(options, {sdk::fir_output_paths(options.output, options.save_raw),
                                     sdk::Decoding::ahead,
                                     static_cast<std::size_t>(coefficients.radius()),
                                     sdk::FirFilter::row_footprint,
                                     {{"--iterations", options.iterations > 0},
                                      {"--compare", fir_options.compare}}});
        run.print_bands();
        const std::size_t width = run.width();

        // 3. The K*K pass's kernel (where it reads its pixels, its work-group shape): as asked,
        //    or with auto the fastest here for this size and K (measured once, then cached).
        //    Built for the border and K: the weights are data. Separable weights run as two
        //    1-D passes instead.
        const sdk::FirChoice choice = run.pipeline.time("choose the kernel", 0, [&] {
            return sdk::choose_fir_kernel(fir_options, coefficients, run.cl, options.border, width,
                                          run.first_band_rows(), run.log);
        });
        auto [fir, conversions] = run.pipeline.time("build kernels", 0, [&] {
            return std::make_pair(
                std::make_unique<sdk::FirFilter>(run.cl, options.border, coefficients,
                                                 run.memory.mode, choice.variant),
                std::make_unique<sdk::RowConversions>(run.cl));
        });
        // Its work-group: the one --work-group names, run as named or refused; else the chosen
        // shape, shrunk where this kernel runs fewer work-items a group here.
        if (!fir_options.tuning.work_group.empty())
            fir->set_work_group(choice.group_x, choice.group_y);
        else if (choice.group_x > 0)
            fir->fit_work_group(choice.group_x, choice.group_y);
        run.print_setup("border " + sdk::border_name(options.border) + ", " +
                        sdk::describe(fir->work_group()) + ", coefficients " +
                        coefficients.to_string());
        run.log << fir->describe_path() << "\n";

        // 4. A band at a time (usually one: the whole image), all on the device: the file's rows
        //    to the 8-bit luminance and then floats, the filter, the floats rounded to 8 bits
        //    and laid out as the output file's rows. The host's copies only for --save-raw and
        //    --verify.
        const bool host_copies_wanted = options.save_raw || options.verify;
        sdk::FirHostCopies copies;
        if (host_copies_wanted) copies = sdk::fir_host_copies(width, run.height());
        cl::Event kernel;
        run.run_bands(*conversions,
                      [&](const sdk::Band& band, const sdk::DeviceRun::LoadLuminance& load) {
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
        sdk::print_event_times(run.log, kernel_times, run.pipeline.step_ms("kernel fir_float"));

        // 5. With -n, repeated runs and the verdict (buffer, local memory or image?); with
        //    --compare, every variant against the device copying as many bytes.
        sdk::report_fir_timings(run, coefficients, *fir, fir_options);

        // 6. Only when asked, from the host's copies of the whole image: the exact floats, and
        //    the check against the C++ reference. Then every file is put in place together.
        if (options.save_raw)
            sdk::write_fir_raw(*options.save_raw, copies.luminance, copies.output);
        if (options.verify) {
            const double reference_ms = sdk::verify_fir(run.log, copies.luminance, coefficients,
                                                        options.border, copies.output);
            sdk::print_cpu_comparison(run.log, kernel_times.run_ms, run.pipeline.total_ms(),
                                      reference_ms);
        }

        // 7. Put every file in place together. The table of the steps from the program's start
        //    follows once the run's objects are released (with --floor, what any program must
        //    move).
        run.finish();
    };

    // Parse the command line and run the technique. Once it has returned, its objects released
    // and the device stopped with them, a single run prints its table; then the process ends at
    // once, the operating system freeing what is left (end_process, samples/app/messages.hpp).
    sdk::end_process(sdk::run_sample(app, argc, argv, common, technique));
}
