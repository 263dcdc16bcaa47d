// Sobel edge detection, vectorised: each work-item computes 16 outputs along a row (16x1, the
// Arm Mali SDK tutorial's design) or a 16x4 block that loads each input row once and reuses it
// for three output rows (the Qualcomm Adreno post's data-reuse step).
// The whole run is built around what the user waits for, file in to file out: the file's pixel
// rows go to the device as stored, the luminance, the gradients, the magnitude and the output
// file's rows are all computed there, and output.bmp is written from what comes back.
// The kernels are in sobel.cl; the naive one-pixel-per-work-item version is ../sobel_no_vectors.
#include "samples/app/cli.hpp"
#include "samples/app/compare.hpp"
#include "samples/app/device_io.hpp"
#include "samples/app/report.hpp"
#include "samples/app/run_floor.hpp"
#include "samples/app/sample_io.hpp"
#include "samples/app/tuning_options.hpp"
#include "samples/app/verdict.hpp"
#include "common/imageio/image_file.hpp"
#include "kernels/sobel/sobel_filter.hpp"
#include "kernels/sobel/sobel_outputs.hpp"
#include "kernels/sobel/sobel_tuning.hpp"
#include "common/runtime/pipeline_timer.hpp"

#include <iostream>
#include <memory>
#include <tuple>

int main(int argc, char** argv)
{
    CLI::App app{"Sobel edge detection with 16-wide vectors (Mali SDK tutorial, Adreno 16x4 reuse)",
                 "sobel"};
    sdk::CommonOptions common;  // each run (each photo of a batch) gets its own copy: `options`
    sdk::add_common_options(app, common);
    std::string variant_name = "auto";
    sdk::accept_names(app.add_option("--variant", variant_name,
                                     "kernel: 16x1 (16 outputs per work-item), 16x4 (16x4 block, "
                                     "rows reused), 16x4-packed (16x4, two pixels per 32-bit "
                                     "operation), local (a work-group's tile in local memory), "
                                     "image (read through an image2d_t and a sampler), or auto "
                                     "(the fastest on this device, measured once and cached)"),
                      {"auto", "16x1", "16x4", "16x4-packed", "local", "image"})
        ->capture_default_str();
    sdk::TuningOptions tuning;
    sdk::add_tuning_options(app, tuning,
                            "work-group shape WxH, e.g. 32x8 (default: 32x8, or the tuned one "
                            "with auto)",
                            "with auto: measure the candidates again for this image's size class "
                            "and replace the cached choice");
    bool save_gradients = false;
    app.add_flag("--save-gradients", save_gradients,
                 "also write |dX| and |dY| as OUTPUT-dX.bmp and OUTPUT-dY.bmp (.png for a PNG OUTPUT)");
    bool compare = false;
    sdk::add_compare_option(app, compare);
    bool host_conversions = false;
    app.add_flag("--host-conversions", host_conversions,
                 "decode the file, compute the luminance and the magnitude on the host, as the "
                 "seed tutorials do (for comparison)");

    return sdk::run_sample(app, argc, argv, common, [&](const sdk::CommonOptions& options) {
        std::ostream& log = options.quiet ? sdk::null_stream() : std::cout;
        sdk::PipelineTimer pipeline;

        // 1. Open the image and check its header: its size, and how its pixels are stored. A
        //    PNG or JPEG starts decoding on the host now, on a thread of its own, while the
        //    OpenCL driver and the device start. Every file the run writes is reserved next, to
        //    be put in place together at the end (or not at all): a bad file or output path
        //    fails here, before the device's work.
        const sdk::OpenedImage image =
            pipeline.time("open " + options.input.filename().string(), 0, [&] {
                return sdk::open_image(options.input, host_conversions
                                                          ? sdk::Decoding::when_read
                                                          : sdk::Decoding::ahead);
            });
        sdk::OutputSet outputs = sdk::reserve_outputs(
            options, sdk::sobel_output_paths(options.output, save_gradients, options.save_raw),
            pipeline);

        // 2. Pick the device and how images reach it, and how the image is cut: whole when the
        //    device can allocate its buffers, else in horizontal bands of rows, each run as if
        //    it were the whole image with a 1-row halo either side (Sobel's radius), the halo's
        //    results thrown away (common/runtime/bands.hpp).
        const cl::Device device =
            pipeline.time("find the device", 0, [&] { return sdk::select_device(options.device); });
        const sdk::OpenClContext cl =
            pipeline.time("create context", 0, [&] { return sdk::make_context(device); });
        const sdk::MemoryChoice memory = sdk::choose_memory_mode(options.memory, device);
        const sdk::BandPlan plan = sdk::plan_device_bands(
            image, cl, 1, sdk::SobelFilter::row_footprint(image.width()), options.band_rows);
        sdk::refuse_with_bands(plan, {{"--host-conversions", host_conversions},
                                      {"--iterations", options.iterations > 0},
                                      {"--compare", compare}});

        // 3. The kernel: the one asked for, or with auto the fastest on this device for images
        //    of this size, a band's if the image is cut (measured the first time a size class
        //    is seen, or with --retune, then cached). The pixels come from a buffer, a tile in
        //    local memory or an image; a device without images runs a buffer kernel instead.
        sdk::SobelChoice choice;
        if (variant_name == "auto") {
            const sdk::TuningResult tuned = sdk::choose_sobel_kernel(
                cl, options.border, image.width(), plan.bands.front().input_rows(),
                sdk::tuning_mode(tuning), sdk::announce_to(log));
            choice = tuned.choice;
            sdk::log_tuning(log, "Variant auto", tuned);
        } else {
            if (tuning.retune) throw sdk::UsageError("--retune needs --variant auto");
            std::string note;
            choice.variant = sdk::runnable_sobel_variant(cl, variant_name, image.width(),
                                                         plan.bands.front().input_rows(), note);
            if (!note.empty()) log << "Note: " << note << "\n";
        }
        if (!tuning.work_group.empty())
            std::tie(choice.group_x, choice.group_y) = sdk::parse_work_group(tuning.work_group);

        // 4. Build the kernels: Sobel for the border mode, and the conversions between the
        //    file's rows and the images the kernels read and write.
        auto [sobel, conversions] = pipeline.time("build kernels", 0, [&] {
            return std::make_pair(
                std::make_unique<sdk::SobelFilter>(cl, choice.variant, options.border, memory.mode),
                std::make_unique<sdk::RowConversions>(cl));
        });
        sobel->set_work_group(choice.group_x, choice.group_y);
        sdk::print_setup(log, cl, sdk::Image{image.width(), image.height(), 1, {}},
                         "variant " + sdk::describe(choice) + ", border " +
                             sdk::border_name(options.border),
                         memory);
        if (plan.banded()) log << sdk::describe(plan) << "\n";

        // 5. A band at a time (usually one: the whole image): the luminance on the device, the
        //    file's rows read straight into the memory that moves them there as they are stored
        //    and converted there; the gradients and their magnitude, each a kernel; the band's
        //    rows of output.bmp laid out on the device and written after its header as they come
        //    back (a .png output is downloaded and compressed on the host at the end).
        const std::uint64_t pixels = std::uint64_t{image.width()} * image.height();
        cl::Event kernel;
        const auto run_sobel = [&] {
            pipeline.time("kernel sobel", sobel->bytes_moved(), [&] {
                kernel = sobel->run();
                kernel.wait();
            });
            pipeline.time("kernel sobel_magnitude", 3 * sobel->pixel_count(),
                          [&] { sobel->run_magnitude().wait(); });
        };
        // The host's copies, only when asked for: the gradient images, the raw arrays, the
        // check against the C++ reference (step 7); each band adds its rows.
        const bool host_copies_wanted = save_gradients || options.save_raw || options.verify;
        sdk::SobelHostCopies copies;
        if (host_copies_wanted) copies = sdk::sobel_host_copies(image.width(), image.height());
        if (!host_conversions) {
            sdk::BandReader reader(image, cl, memory.mode, *conversions);
            sdk::BandWriter writer(options.output, image.width(), image.height(), cl, memory.mode,
                                   *conversions);
            for (const sdk::Band& band : writer.in_file_order(plan.bands)) {
                sobel->allocate(image.width(), band.input_rows());
                reader.load_luminance(band, sobel->luminance_buffer(), sobel->row_pitch(), pipeline);
                run_sobel();
                writer.write(band, sobel->magnitude_buffer(), sobel->row_pitch(), pipeline);
                if (host_copies_wanted) sdk::add_band(copies, *sobel, band);
            }
            writer.commit(pipeline);
        } else {
            // To compare: decoded and converted on the host, dX and dY downloaded and the
            // magnitude found on the host.
            const sdk::Image luminance = sdk::load_luminance(options.input, &pipeline);
            pipeline.time("upload luminance", luminance.pixels.size(), [&] { sobel->upload(luminance); });
            run_sobel();
            if (host_copies_wanted) sdk::add_band(copies, *sobel, plan.bands.front());
            const auto gradients = pipeline.time("download dX, dY", 2 * pixels, [&] { return sobel->download(); });
            const auto magnitude = pipeline.time("magnitude on the host", 3 * pixels,
                                                 [&] { return sdk::gradient_magnitude(gradients); });
            pipeline.time("write " + options.output.filename().string(), pixels, [&] {
                sdk::write_image(options.output, sdk::Image{image.width(), image.height(), 1, magnitude});
            });
        }
        sdk::print_event_times(log, sdk::event_times(kernel));
        pipeline.print(log);

        // 6. With -n, time repeated runs: one run includes first-launch costs a loop does not.
        //    Then the verdict: every variant timed the same way on this image, to answer on this
        //    device whether the pixels are best read from a buffer, local memory or an image.
        sdk::report_repeated_runs(log, options.iterations, [&] { return sobel->run(); },
                                  sobel->bytes_moved());
        if (options.iterations > 0) {
            std::vector<sdk::VariantTime> times;  // each in --work-group's shape, else 32x8
            const sdk::WorkGroupShape asked{choice.group_x, choice.group_y};
            for (const auto& [variant, median_ms] : sdk::time_sobel_variants(
                     cl, options.border, *sobel, options.iterations,
                     tuning.work_group.empty() ? sdk::WorkGroupShape{32, 8} : asked))
                times.push_back({sdk::memory_name(variant), median_ms});
            log << sdk::verdict_line(cl.device_name(), times) << "\n";
        }
        //    With --compare, the seeds' table: the scalar kernel and every variant, against the
        //    device copying as many bytes.
        if (compare) {
            const unsigned rounds = sdk::compare_rounds(options.iterations);
            sdk::print_comparison(log, cl.device_name(), image.width(), image.height(), rounds,
                                  sdk::compare_sobel_variants(cl, options.border, *sobel, rounds));
        }

        // 7. What needs the host's copies, only when asked: the gradient images, the raw arrays,
        //    and the check against the C++ reference (which also times the seeds' "C code
        //    running on a CPU"), all of the whole image, however it was cut.
        if (save_gradients) sdk::write_gradient_images(options.output, image.width(), image.height(), copies.gradients);
        if (options.save_raw)
            sdk::write_sobel_raw(*options.save_raw, copies.luminance, copies.gradients, copies.magnitude);
        if (options.verify) {
            const double reference_ms = sdk::verify_sobel(log, copies.luminance, options.border,
                                                          copies.gradients, copies.magnitude);
            sdk::print_cpu_comparison(log, sdk::event_times(kernel).run_ms, pipeline.total_ms(),
                                      reference_ms);
        }

        // 8. Every file complete: put them all in place together.
        sdk::write_trace(options, pipeline, cl);  // --trace: the timeline of this run
        outputs.commit();
        log << "Wrote " << sdk::printable(options.output.string()) << (save_gradients ? " and its -dX, -dY images\n" : "\n");

        // 9. With --floor: what any program must move for this job, measured now on this
        //    machine, against which the steps above are read (samples/app/run_floor.hpp).
        if (options.floor) sdk::report_floor(log, cl, options.input, options.output, pipeline);
    });
}
