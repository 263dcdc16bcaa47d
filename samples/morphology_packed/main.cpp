// Binary morphology on bit-packed images, after the 2013 blog posts "OpenCL - Dilation and
// Erosion in packed bit" and "OpenCL - Connecting pixels": the luminance is binarised and packed
// 32 pixels to a word on the device, dilated and eroded a whole word per work-item with a 3x3
// square, the blog's 13-pixel diamond (which joins pixels one diagonal step apart), or OpenCV's
// rectangle, cross or ellipse of any odd size up to 63x63 (each row a run built by doubling
// shifts), unpacked for display, and every step is timed from its event, as the blog's table does.
// The kernels are in morphology_packed.cl.
#include "samples/app/cli.hpp"
#include "samples/app/device_io.hpp"
#include "samples/app/element_option.hpp"
#include "samples/app/report.hpp"
#include "samples/app/run_floor.hpp"
#include "samples/app/roi_option.hpp"
#include "kernels/morphology/morphology_filter.hpp"
#include "kernels/morphology/morphology_outputs.hpp"
#include "kernels/morphology/morphology_tuning.hpp"
#include "samples/app/sample_io.hpp"
#include "samples/app/tuning_options.hpp"

#include <iomanip>
#include <iostream>
#include <memory>
#include <utility>

int main(int argc, char** argv)
{
    CLI::App app{"Dilation, erosion, closing and opening of a binarised image packed 32 pixels "
                 "to a word (packed-bit morphology blog)",
                 "morphology_packed"};
    sdk::CommonOptions common;  // each run (each photo of a batch) gets its own copy: `options`
    // No --border: outside the image counts as background for dilation and foreground for
    // erosion, whatever the user might ask.
    sdk::add_common_options(app, common, sdk::BorderOption::not_offered);
    unsigned threshold = 128;
    app.add_option("--threshold", threshold, "foreground where luminance >= T (0 to 255)")
        ->type_name("T")
        ->check(CLI::Range(0u, 255u).description(""))
        ->capture_default_str();
    bool invert = false;
    app.add_flag("--invert", invert,
                 "dark pixels (luminance < T) are the foreground: text on paper");
    sdk::MorphologyShape shape = sdk::MorphologyShape::diamond;
    sdk::accept_names(app.add_option("--shape", shape,
                                     "structuring element: square (3x3), diamond (city-block "
                                     "distance 2), or OpenCV's rectangle, cross or ellipse of "
                                     "--size"),
                      sdk::morphology_shape_names())
        ->default_str("diamond");
    std::string size;
    app.add_option("--size", size,
                   "the rectangle's, cross's or ellipse's WxH, odd, 1 to 63 (default 3x3)")
        ->type_name("WxH")
        ->check(sdk::a_value());
    sdk::MorphologyOperation operation = sdk::MorphologyOperation::close;
    sdk::accept_names(app.add_option("--op", operation,
                                     "dilate, erode, close = erode(dilate), open = dilate(erode)"),
                      sdk::morphology_operation_names())
        ->default_str("close");
    std::string region;
    app.add_option("--roi", region,
                   "process only the region X,Y,W,H in pixels (left, top, width, height); the "
                   "rest is copied")
        ->type_name("X,Y,W,H")
        ->check(sdk::a_value());
    sdk::TuningOptions tuning;
    sdk::add_tuning_options(app, tuning,
                            "the dilate and erode passes' work-group shape WxH, e.g. 16x8 "
                            "(default: the fastest on this device for this image's size class, "
                            "measured once and cached)",
                            "measure the passes' work-group shapes again for this image's size "
                            "class and replace the cached choice");

    return sdk::run_sample(app, argc, argv, common, [&](const sdk::CommonOptions& options) {
        std::ostream& log = options.quiet ? sdk::null_stream() : std::cout;
        const sdk::StructuringElement element = sdk::element_from_options(shape, size);

        // 1. Open the image: its header gives its size, and a region must lie inside. A PNG or
        //    JPEG starts decoding on the host now, while the OpenCL driver and the device start.
        //    Then reserve the files the run writes (all put in place together at the end, or none).
        sdk::PipelineTimer pipeline;
        const sdk::OpenedImage image =
            pipeline.time("open " + options.input.filename().string(), 0, [&] {
                return sdk::open_image(options.input, sdk::Decoding::ahead);
            });
        sdk::OutputSet outputs = sdk::reserve_outputs(
            options, sdk::morphology_output_paths(options.output, options.save_raw), pipeline);
        const sdk::Image size_only{image.width(), image.height(), 1, {}};
        const sdk::Roi roi = region.empty() ? sdk::whole_image(image.width(), image.height())
                                            : sdk::parse_roi(region);
        sdk::check_roi_inside(roi, size_only);
        const sdk::Binarisation binarisation{static_cast<std::uint8_t>(threshold), invert};

        // 2. Pick the device and how images reach it, and build the kernels for the
        //    structuring element and the conversions between the file's rows and images. The
        //    passes' work-group shape is the one asked for, or the fastest on this device for
        //    images of this size (measured the first time a size class is seen, or with
        //    --retune, then cached).
        const cl::Device device =
            pipeline.time("find the device", 0, [&] { return sdk::select_device(options.device); });
        const sdk::OpenClContext cl =
            pipeline.time("create context", 0, [&] { return sdk::make_context(device); });
        const sdk::MemoryChoice memory = sdk::choose_memory_mode(options.memory, cl.device);
        auto [morphology, conversions] = pipeline.time("build kernels", 0, [&] {
            return std::make_pair(std::make_unique<sdk::MorphologyFilter>(cl, element, memory.mode),
                                  std::make_unique<sdk::RowConversions>(cl));
        });

        // 3. How the image is cut: whole when the device can allocate its buffers, else in
        //    horizontal bands of rows, each run as if it were the whole image with a halo of
        //    the element's radius times the passes either side, the halo's results thrown away
        //    (common/runtime/bands.hpp). A region is a whole-image thing: not with bands.
        const sdk::BandPlan plan = sdk::plan_device_bands(
            image, cl, sdk::halo_rows(element, operation),
            sdk::MorphologyFilter::row_footprint(image.width()), options.band_rows);
        sdk::refuse_with_bands(plan, {{"--roi", !region.empty()},
                                      {"--iterations", options.iterations > 0}});
        if (plan.banded()) log << sdk::describe(plan) << "\n";
        // The work-group shape, tuned for the size of what runs: a band (usually the image).
        const sdk::WorkGroupShape group =
            sdk::chosen_work_group(tuning, log, [&](sdk::Tuning mode, const sdk::TuningAnnouncer& announce) {
                return sdk::choose_morphology_work_group(
                    cl, element, image.width(), plan.bands.front().input_rows(), mode, announce);
            });
        morphology->set_work_group(group.x, group.y);
        sdk::print_setup(log, cl, size_only,
                         sdk::operation_name(operation) + " with the " + sdk::element_name(element) +
                             ", foreground: luminance " + (invert ? "< " : ">= ") +
                             std::to_string(threshold) + ", region " + sdk::roi_text(roi) +
                             ", passes' " + sdk::describe(group),
                         memory);

        // 4. A band at a time (usually one: the whole image): the luminance on the device, the
        //    file's rows read straight into the memory that moves them and converted there (rows
        //    of width bytes: the packing reads bytes); the device pipeline, every step timed by
        //    its event: binarise and pack, each morphology pass, unpack; then the band's rows of
        //    output.bmp laid out on the device and written as they come back. With --save-raw or
        //    --verify each band also adds its rows to the host's copies of the whole images.
        const bool host_copies_wanted = options.save_raw || options.verify;
        sdk::MorphologyHostCopies copies;
        if (host_copies_wanted) copies = sdk::morphology_host_copies(image.width(), image.height());
        sdk::BandReader reader(image, cl, memory.mode, *conversions);
        sdk::BandWriter writer(options.output, image.width(), image.height(), cl, memory.mode,
                               *conversions);
        std::vector<sdk::StepTiming> first_run;
        for (const sdk::Band& band : writer.in_file_order(plan.bands)) {
            morphology->allocate(image.width(), band.input_rows());
            reader.load_luminance(band, morphology->luminance_buffer(), image.width(), pipeline);
            const sdk::Roi band_roi =
                plan.banded() ? sdk::whole_image(image.width(), band.input_rows()) : roi;
            first_run = sdk::step_timings(morphology->run(binarisation, operation, band_roi));
            writer.write(band, morphology->output_buffer(), image.width(), pipeline);
            if (host_copies_wanted)
                sdk::add_band(copies, *morphology, band, options.save_raw.has_value());
        }
        writer.commit(pipeline);
        log << "Packed: " << morphology->words_per_row() << " words of 32 pixels a row (row pitch "
            << morphology->row_pitch() << " bytes)\nFirst run (includes first-launch costs"
            << (plan.banded() ? ", the last band" : "") << "):\n";
        sdk::step_table(first_run).print(log);
        pipeline.print(log);

        // 5. With -n, the median of each step over N more runs (the first was the warm-up).
        if (options.iterations > 0) {
            std::vector<std::vector<sdk::StepTiming>> runs;
            for (unsigned i = 0; i < options.iterations; ++i)
                runs.push_back(sdk::step_timings(morphology->run(binarisation, operation, roi)));
            const auto medians = sdk::median_step_timings(runs);
            log << "Median of each step over " << options.iterations << " runs:\n";
            sdk::step_table(medians).print(log);
            log << "Median ns per pixel:" << std::fixed << std::setprecision(4);
            for (const auto& step : medians)
                log << "  " << step.name << " "
                    << static_cast<double>(step.end_ns - step.start_ns) /
                           static_cast<double>(morphology->pixel_count());
            log << "\n";
            log.unsetf(std::ios::floatfield);
        }

        // 6. What needs the host's copies, only when asked: the packed input and result as PBM
        //    and the luminance with --save-raw, and the check against the C++ reference, of the
        //    whole image however it was cut. Then every file is put in place together.
        if (options.save_raw) sdk::write_morphology_raw(*options.save_raw, copies.luminance, copies.result);
        if (options.verify)
            sdk::verify_morphology(log, copies.luminance, binarisation, operation, element, roi,
                                   copies.result.output);
        sdk::write_trace(options, pipeline, cl);  // --trace: the timeline of this run
        outputs.commit();
        log << "Wrote " << sdk::printable(options.output.string())
            << (options.save_raw ? " and input.pbm, output.pbm, luminance.npy" : "") << "\n";

        // 7. With --floor: what any program must move for this job, measured now on this
        //    machine, against which the steps above are read (samples/app/run_floor.hpp).
        if (options.floor) sdk::report_floor(log, cl, options.input, options.output, pipeline);
    });
}
