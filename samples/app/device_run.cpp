// SPDX-License-Identifier: Apache-2.0
#include "samples/app/device_run.hpp"

#include "common/codecs/codec_choice.hpp"
#include "samples/app/messages.hpp"
#include "samples/app/report.hpp"
#include "samples/app/run_floor.hpp"
#include "samples/app/sample_io.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/process_start.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <iostream>
#include <optional>
#include <string>
#include <utility>

namespace sdk {
namespace {

// The run's table (DeviceRun::pipeline): the process's first run starts it at the process's start.
PipelineTimer run_pipeline()
{
    static std::atomic<bool> started{false};
    if (started.exchange(true)) return PipelineTimer();
    PipelineTimer pipeline(process_start());
    pipeline.add("start the program", 0, process_start(), std::chrono::steady_clock::now());
    return pipeline;
}

// Finding the device and creating its context are two steps of the run's table.
OpenClContext start_device(const CommonOptions& options, PipelineTimer& pipeline)
{
    const cl::Device device =
        pipeline.time("find the device", 0, [&] { return select_device(options.device); });
    return pipeline.time("create context", 0, [&] { return make_context(device); });
}

// A PNG output's pixels, allocated now on a thread of its own (DeviceRun::png_pixels).
std::future<std::vector<std::uint8_t>> allocate_png_pixels(const std::filesystem::path& output,
                                                           const OpenedImage& image)
{
    if (!is_png_path(output)) return {};
    const std::size_t bytes = image.width() * image.height();
    return std::async(std::launch::async, [bytes] { return std::vector<std::uint8_t>(bytes); });
}

// A single run's table and last lines, kept from its commit until its objects are released
// (print_finished_run).
struct FinishedRun {
    PipelineTimer pipeline;
    std::ostream* log;
    std::string after_table;  // "Wrote OUTPUT ..."
    std::chrono::steady_clock::time_point released_from;
};

std::optional<FinishedRun>& finished_run()
{
    static std::optional<FinishedRun> run;
    return run;
}

// The epilogue's first half, for every run: --trace's timeline of the run up to here, then the
// renames (output_set.hpp), each output complete and in place, or none.
void commit_run(const CommonOptions& options, PipelineTimer& pipeline, const OpenClContext& cl,
                OutputSet& outputs)
{
    write_trace(options, pipeline, cl);
    pipeline.time("put the outputs in place", 0, [&] { outputs.commit(); });
}

std::string wrote_line(const CommonOptions& options, const std::string& also_wrote)
{
    return "Wrote " + printable(options.output.string()) + also_wrote + "\n";
}

}  // namespace

DeviceRun::DeviceRun(const CommonOptions& run_options, RunSetup setup)
    : options(run_options),
      log(run_options.quiet ? null_stream() : std::cout),
      pipeline(run_pipeline()),
      image(pipeline.time("open " + run_options.input.filename().string(), 0,
                          [&] {
                              // The device is not known yet: the one this selection found
                              // last time, and its cached choice (codec_choice.hpp).
                              return open_image(run_options.input, setup.decoding,
                                                expect_jpeg_idct_on_device(run_options.codecs,
                                                                           run_options.device));
                          })),
      outputs(reserve_outputs(run_options, setup.outputs, pipeline)),
      png_pixels(allocate_png_pixels(run_options.output, image)),
      cl(start_device(run_options, pipeline)),
      memory(choose_memory_mode(run_options.memory, cl.device)),
      plan(plan_device_bands(image, cl, setup.halo, setup.filter_row(image.width()),
                             run_options.band_rows))
{
    for (const WholeImageOption& option : setup.whole_image_options)
        refuse_with_bands(plan, {option});
    // The PNG writer learns whether this device compresses; the IDCT's choice is recorded for
    // the next run that opens a JPEG (or measured, when asked and not cached).
    choose_codecs(options.codecs, options.device, cl, memory.mode, log, [&] {
        if (image.decoding) image.decoding->wait_until_finished();
    });
}

void DeviceRun::print_setup(const std::string& details) const
{
    sdk::print_setup(log, cl, Image{width(), height(), 1, {}}, details, memory);
}

void DeviceRun::print_bands() const
{
    if (plan.banded()) log << describe(plan) << "\n";
}

void DeviceRun::run_bands(
    RowConversions& conversions,
    const std::function<BandResult(const Band& band, const LoadLuminance& load)>& process)
{
    BandReader reader(image, cl, memory.mode, conversions);
    BandWriter writer(options.output, width(), height(), cl, memory.mode, conversions,
                      std::move(png_pixels));
    for (const Band& band : writer.in_file_order(plan.bands)) {
        const BandResult result =
            process(band, [&](const cl::Buffer& luminance, std::size_t row_pitch) {
                reader.load_luminance(band, luminance, row_pitch, pipeline);
            });
        writer.write(band, result.rows, result.row_pitch, pipeline);
    }
    writer.commit(pipeline);
}

void DeviceRun::finish(const std::string& also_wrote)
{
    // A batch's photo, or a run measuring the floor with the device (--floor): all now.
    if (!options.ends_the_process || options.floor) {
        finish_run(options, log, pipeline, cl, outputs, also_wrote);
        if (options.ends_the_process) end_process(0);
        return;
    }
    // A single run: its outputs in place now; its table once the objects the technique made
    // are released (print_finished_run), so that the table covers the driver's stop too.
    commit_run(options, pipeline, cl, outputs);
    finished_run() = FinishedRun{std::move(pipeline), &log, wrote_line(options, also_wrote),
                                 std::chrono::steady_clock::now()};
}

DeviceRun::~DeviceRun()
{
    // A single run that finished is done with the device. Pinned mode's staging chunks, kept for
    // the process's later transfers, hold the context: they go now, so that it goes with `cl`
    // and the device stops within the table's last step.
    if (!finished_run()) return;
    try {
        release_pinned_chunks(cl);
    } catch (...) {  // the process ends anyway; the operating system frees what is left
    }
}

void print_finished_run()
{
    std::optional<FinishedRun>& run = finished_run();
    if (!run) return;
    // From the commit to here: the technique's objects and this DeviceRun released, each
    // buffer, kernel and program and at last the context, the device stopped with it, and the
    // host's images freed. What remains is the process's end (end_process).
    run->pipeline.add("release the device and memory", 0, run->released_from,
                      std::chrono::steady_clock::now());
    run->pipeline.print(*run->log);
    *run->log << run->after_table;
    run.reset();
}

void finish_run(const CommonOptions& options, std::ostream& log, PipelineTimer& pipeline,
                const OpenClContext& cl, OutputSet& outputs, const std::string& also_wrote)
{
    commit_run(options, pipeline, cl, outputs);
    // From the program's (or the photo's) start to the outputs in place.
    pipeline.print(log);
    log << wrote_line(options, also_wrote);
    // --floor: what any program must move for this job, measured now on this machine, against
    // which the steps above are read (run_floor.hpp).
    if (options.floor) report_floor(log, cl, options.input, options.output, pipeline);
}

}  // namespace sdk
