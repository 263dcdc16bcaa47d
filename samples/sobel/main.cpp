// Sobel edge detection, vectorised: each work-item computes 16 outputs along a row (16x1, the
// Arm Mali SDK tutorial's design) or a 16x4 block that loads each input row once and reuses it
// for three output rows (the Qualcomm Adreno post's data-reuse step).
// The kernels are in sobel.cl; the naive one-pixel-per-work-item version is ../sobel_no_vectors.
#include "app/cli.hpp"
#include "filters/sobel/sobel_filter.hpp"
#include "filters/sobel/sobel_outputs.hpp"
#include "filters/sobel/sobel_tuning.hpp"
#include "runtime/pipeline_timer.hpp"
#include "app/sample_io.hpp"
#include "app/timing.hpp"

#include <tuple>
#include <iostream>

int main(int argc, char** argv)
{
    CLI::App app{"Sobel edge detection with 16-wide vectors (Mali SDK tutorial, Adreno 16x4 reuse)",
                 "sobel"};
    sdk::CommonOptions options;
    sdk::add_common_options(app, options);
    std::string variant_name = "auto";
    app.add_option("--variant", variant_name,
                   "kernel: 16x1 (16 outputs per work-item), 16x4 (16x4 block, rows reused), "
                   "16x4-packed (16x4, two pixels per 32-bit operation), or auto (the fastest "
                   "on this device, measured once and cached)")
        ->check(CLI::IsMember({"auto", "16x1", "16x4", "16x4-packed"}))
        ->capture_default_str();
    std::string work_group;
    app.add_option("--work-group", work_group,
                   "work-group shape WxH, e.g. 32x8 (default: 32x8, or the tuned one with auto)")
        ->check(sdk::work_group_validator());
    bool magnitude_on_device = false;
    app.add_flag("--magnitude-on-device", magnitude_on_device,
                 "compute output.bmp's magnitude in a kernel instead of on the host");

    return sdk::run_sample(app, argc, argv, options, [&] {
        std::ostream& log = options.quiet ? sdk::null_stream() : std::cout;
        sdk::PipelineTimer pipeline;

        // 1. Read the image and turn it into the 8-bit luminance the filter works on.
        const sdk::Image luminance =
            sdk::load_luminance(options.input, sdk::sobel_output_paths(options.output), &pipeline);
        const std::uint64_t pixels = luminance.pixels.size();

        // 2. Pick the device, how images reach it, and the kernel: the one asked for, or with
        //    auto the fastest on this device (measured the first time, then cached).
        const sdk::OpenClContext cl = sdk::make_context(options.device);
        const sdk::MemoryChoice memory = sdk::choose_memory_mode(options.memory, cl.device);
        sdk::SobelChoice choice;
        if (variant_name == "auto") {
            const sdk::TuningResult tuned = sdk::choose_sobel_kernel(cl, options.border);
            choice = tuned.choice;
            log << "Variant auto: " << sdk::describe(choice)
                << (tuned.from_cache ? " (from the tuning cache " : " (fastest of the candidates; cached in ")
                << sdk::tuning_cache_path().string() << ")\n";
        } else {
            choice.variant = sdk::sobel_variant_named(variant_name);
        }
        if (!work_group.empty()) std::tie(choice.group_x, choice.group_y) = sdk::parse_work_group(work_group);

        // 3. Build the kernel for the chosen border mode.
        sdk::SobelFilter sobel(cl, choice.variant, options.border, memory.mode);
        sobel.set_work_group(choice.group_x, choice.group_y);
        log << "Device: " << cl.device_name() << "\nImage: " << luminance.width << "x"
            << luminance.height << ", variant " << sdk::describe(choice) << ", border "
            << sdk::border_name(options.border) << "\nMemory: "
            << sdk::memory_mode_name(memory.mode) << ", because " << memory.reason << "\n";

        // 4. Upload, run once and read dX and dY back: each step timed end to end.
        sdk::SobelRun run = sdk::upload_run_download(sobel, luminance, memory.mode, pipeline);

        // 5. The magnitude image, on the device if asked, else from dX and dY on the host.
        std::vector<std::uint8_t> magnitude;
        if (magnitude_on_device) {
            pipeline.time("kernel sobel_magnitude", 3 * pixels, [&] { sobel.run_magnitude().wait(); });
            magnitude = pipeline.time("download magnitude", pixels,
                                      [&] { return sobel.download_magnitude(); });
        } else {
            magnitude = pipeline.time("magnitude on the host", 3 * pixels,
                                      [&] { return sdk::gradient_magnitude(run.gradients); });
        }
        const sdk::EventTimes kernel_times = sdk::event_times(run.kernel);
        sdk::print_event_times(log, kernel_times);
        pipeline.print(log);

        // 6. With -n, time repeated runs: one run includes first-launch costs a loop does not.
        if (options.iterations > 0) {
            const auto ms = sdk::time_kernel(options.iterations, [&] { return sobel.run(); });
            sdk::print_kernel_statistics(log, options.iterations, ms, sobel.bytes_moved());
        }

        // 7. Write the images (and raw arrays), then check them against the C++ reference,
        //    which also times the "C code running on a CPU" the seeds compare with.
        sdk::write_sobel_outputs(options.output, options.save_raw, luminance, run.gradients, magnitude);
        log << "Wrote " << options.output.string() << " and its -dX, -dY images\n";
        if (options.verify) {
            const double reference_ms =
                sdk::verify_sobel(log, luminance, options.border, run.gradients, magnitude);
            sdk::print_cpu_comparison(log, kernel_times.run_ms, pipeline.total_ms(), reference_ms);
        }
    });
}
