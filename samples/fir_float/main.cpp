// A 3x3 FIR filter in floating point, the Arm Mali SDK tutorial's: each work-item computes 4
// outputs along a row with float4 vectors, one aligned load and two neighbours per input row.
// Any weights (--coefficients, --divisor) run on the one built kernel, which is in fir_float.cl.
#include "runtime/pipeline_timer.hpp"
#include "app/cli.hpp"
#include "filters/fir/fir_filter.hpp"
#include "filters/fir/fir_outputs.hpp"
#include "app/sample_io.hpp"
#include "app/report.hpp"

#include <iostream>
#include <string>

int main(int argc, char** argv)
{
    CLI::App app{"3x3 FIR filter in float with 4-wide vectors (Mali SDK tutorial)", "fir_float"};
    sdk::CommonOptions options;
    sdk::add_common_options(app, options);
    std::string numerators = sdk::kDefaultFirNumerators;
    app.add_option("--coefficients", numerators,
                   "the 3x3 weights' numerators, row-major, row 0 for the row above: a,b,c,d,e,f,"
                   "g,h,i (integers or decimals, negative allowed)")
        ->capture_default_str();
    double divisor = 256;
    app.add_option("--divisor", divisor, "the weights' common divisor (not 0)")
        ->capture_default_str();

    return sdk::run_sample(app, argc, argv, options, [&] {
        std::ostream& log = options.quiet ? sdk::null_stream() : std::cout;

        // 1. Check the weights first: a typo should cost nothing. Weights summing above 1 are
        //    legal (a sharpening filter) but bright areas then clip at 255 in output.bmp.
        const sdk::FirCoefficients coefficients = sdk::parse_fir_coefficients(numerators, divisor);
        if (sdk::may_saturate(coefficients))
            std::cerr << "fir_float: warning: the weights sum to " << coefficients.weight_sum()
                      << ", more than 1: outputs may pass 255 and saturate in "
                      << options.output.string() << "\n";

        // 2. Reserve the files the run writes (all are put in place together at the end, or none),
        //    then read the image and turn it into the 8-bit luminance the filter works on.
        sdk::OutputSet outputs =
            sdk::reserve_outputs(options, sdk::fir_output_paths(options.output, options.save_raw));
        sdk::PipelineTimer pipeline;
        const sdk::Image luminance = sdk::load_luminance(options.input, &pipeline);
        const std::uint64_t pixels = luminance.pixels.size();

        // 3. Pick the device and how images reach it, and build the kernel for the border
        //    mode; the weights are kernel arguments, not part of the build.
        const sdk::OpenClContext cl = sdk::make_context(options.device);
        const sdk::MemoryChoice memory = sdk::choose_memory_mode(options.memory, cl.device);
        sdk::FirFilter fir(cl, options.border, coefficients, memory.mode);
        log << "Device: " << cl.device_name() << "\nImage: " << luminance.width << "x"
            << luminance.height << ", border " << sdk::border_name(options.border)
            << ", coefficients " << coefficients.to_string() << "\nMemory: "
            << sdk::memory_mode_name(memory.mode) << ", because " << memory.reason << "\n";

        // 4. Upload (as floats), run once and read the float output back, each step timed.
        const std::string how = memory.mode == sdk::MemoryMode::map ? " (map)" : " (copy)";
        pipeline.time("upload floats" + how, 4 * pixels, [&] { fir.upload(luminance); });
        cl::Event kernel;
        pipeline.time("kernel fir_float", fir.bytes_moved(), [&] {
            kernel = fir.run();
            kernel.wait();
        });
        const std::vector<float> output =
            pipeline.time("download floats" + how, 4 * pixels, [&] { return fir.download(); });
        const sdk::EventTimes kernel_times = sdk::event_times(kernel);
        sdk::print_event_times(log, kernel_times);
        pipeline.print(log);

        // 5. With -n, time repeated runs: one run includes first-launch costs a loop does not.
        if (options.iterations > 0) {
            const auto ms = sdk::time_kernel(options.iterations, [&] { return fir.run(); });
            sdk::print_kernel_statistics(log, options.iterations, ms, fir.bytes_moved());
        }

        // 6. Write output.bmp, rounded and clamped to 8 bits, and with --save-raw the exact
        //    floats; check them against the C++ reference, which also times the "C code
        //    running on a CPU" the seeds compare with; then put every file in place together.
        sdk::write_fir_outputs(options.output, options.save_raw, luminance, output);
        if (options.verify) {
            const double reference_ms =
                sdk::verify_fir(log, luminance, coefficients, options.border, output);
            sdk::print_cpu_comparison(log, kernel_times.run_ms, pipeline.total_ms(), reference_ms);
        }
        outputs.commit();
        log << "Wrote " << options.output.string() << "\n";
    });
}
