// SPDX-License-Identifier: Apache-2.0
#include "samples/app/device_run.hpp"

#include "common/codecs/codec_choice.hpp"
#include "samples/app/messages.hpp"
#include "samples/app/report.hpp"
#include "samples/app/run_floor.hpp"
#include "samples/app/sample_io.hpp"
#include "common/runtime/errors.hpp"

#include <iostream>
#include <utility>

namespace sdk {
namespace {

// Finding the device and creating its context are two steps of the run's table.
OpenClContext start_device(const CommonOptions& options, PipelineTimer& pipeline)
{
    const cl::Device device =
        pipeline.time("find the device", 0, [&] { return select_device(options.device); });
    return pipeline.time("create context", 0, [&] { return make_context(device); });
}

}  // namespace

DeviceRun::DeviceRun(const CommonOptions& run_options, RunSetup setup)
    : options(run_options),
      log(run_options.quiet ? null_stream() : std::cout),
      image(pipeline.time("open " + run_options.input.filename().string(), 0,
                          [&] {
                              // The device is not known yet: the one this selection found
                              // last time, and its cached choice (codec_choice.hpp).
                              return open_image(run_options.input, setup.decoding,
                                                expect_jpeg_idct_on_device(run_options.codecs,
                                                                           run_options.device));
                          })),
      outputs(reserve_outputs(run_options, setup.outputs, pipeline)),
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
    BandWriter writer(options.output, width(), height(), cl, memory.mode, conversions);
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
    finish_run(options, log, pipeline, cl, outputs, also_wrote);
}

void finish_run(const CommonOptions& options, std::ostream& log, const PipelineTimer& pipeline,
                const OpenClContext& cl, OutputSet& outputs, const std::string& also_wrote)
{
    write_trace(options, pipeline, cl);  // --trace: the timeline of this run
    outputs.commit();
    log << "Wrote " << printable(options.output.string()) << also_wrote << "\n";
    // --floor: what any program must move for this job, measured now on this machine, against
    // which the steps above are read (run_floor.hpp).
    if (options.floor) report_floor(log, cl, options.input, options.output, pipeline);
}

}  // namespace sdk
