// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "samples/app/common_options.hpp"
#include "samples/app/device_io.hpp"
#include "common/imageio/output_set.hpp"
#include "common/runtime/bands.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/pipeline_timer.hpp"
#include "common/runtime/transfers.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <future>
#include <ostream>
#include <string>
#include <vector>

namespace sdk {

// What a banded sample tells the shared prologue about its technique.
struct RunSetup {
    // Every file the run writes, --save-raw's included: reserved before any work.
    std::vector<std::filesystem::path> outputs;
    // Decoding::ahead starts a PNG's or JPEG's decoding while the device starts.
    Decoding decoding = Decoding::ahead;
    // The filter's radius times its passes: the rows a band reads beyond its own either side.
    std::size_t halo = 0;
    // What one image row costs the filter's buffers (the filter's static row_footprint).
    RowFootprint (*filter_row)(std::size_t width) = nullptr;
    // Options that need the whole image on the device at once: refused when the image is cut.
    std::vector<WholeImageOption> whole_image_options;
};

// Where a band's 8-bit result lies on the device: rows `row_pitch` bytes apart.
struct BandResult {
    cl::Buffer rows;
    std::size_t row_pitch = 0;
};

// The run every banded sample (sobel, fir_float, morphology_packed) shares around its technique.
// The constructor is the prologue: open the image and check its header (a PNG or JPEG starts
// decoding now, on a thread of its own), reserve every output (all put in place together at the
// end, or none), find the device, create the context, choose how
// images reach the device (copy or map), and plan how the image is cut: whole when the device
// can allocate its buffers, else horizontal bands of rows, each run as if it were the whole
// image with its halo, the halo's results thrown away (common/runtime/bands.hpp). A bad file,
// path or option fails here, before any kernel is built.
class DeviceRun {
public:
    DeviceRun(const CommonOptions& options, RunSetup setup);
    ~DeviceRun();
    DeviceRun(const DeviceRun&) = delete;  // the filters keep references to `cl`
    DeviceRun& operator=(const DeviceRun&) = delete;

    std::size_t width() const { return image.width(); }
    std::size_t height() const { return image.height(); }
    // The rows the first band reads (the whole image's when not cut): what tuning measures.
    std::size_t first_band_rows() const { return plan.bands.front().input_rows(); }

    // The line every sample prints first (report.hpp's print_setup) with the technique's own
    // `details`.
    void print_setup(const std::string& details) const;
    // "Bands: ..." when the image is cut, nothing otherwise.
    void print_bands() const;

    // The band loop. For each band, in the order the output file stores its rows, `process`
    // gets the band and a `load` that puts the band's luminance (halo included) into a device
    // buffer as if it were the whole image, runs the filter and returns where its 8-bit result
    // lies; the band's own rows of it are written to the output as they come back. Then the
    // output file is complete (a PNG is compressed now).
    using LoadLuminance = std::function<void(const cl::Buffer& luminance, std::size_t row_pitch)>;
    void run_bands(
        RowConversions& conversions,
        const std::function<BandResult(const Band& band, const LoadLuminance& load)>& process);

    // The epilogue: --trace's timeline and every file put in place together. A batch's photo
    // then prints the table of the steps from its start and "Wrote OUTPUT" with `also_wrote`
    // after it (finish_run). A single run keeps them until the technique's objects and this
    // DeviceRun are released, the device stopped with them, then run_sample prints them
    // (print_finished_run) with that release as the table's last step; with --floor it prints
    // them now, measures the floor with the device, and ends the process.
    void finish(const std::string& also_wrote = "");

    const CommonOptions& options;
    std::ostream& log;  // the standard output, or nothing with --quiet
    // The steps, timed. The process's first run (a single run, or a batch's first photo) starts
    // its table at the process's start, with a step for the program's own start (loading it and
    // its libraries, their set-up, the command line); a batch's later photos at their own start.
    PipelineTimer pipeline;
    // In this order: the image is opened (a PNG or JPEG starts decoding, while the OpenCL driver
    // and the device start), then every output is reserved, before the device's work.
    const OpenedImage image;
    OutputSet outputs;
    // A PNG output's whole image, allocated on a thread of its own while the driver starts: a
    // large one is hundreds of megabytes that the kernel must zero page by page (125-160 ms for
    // 16384x16384 on the H200 machine, docs/whole_run.md), time no one needs to wait for after
    // the device is ready. Empty (not valid) for other outputs; run_bands hands it to BandWriter.
    std::future<std::vector<std::uint8_t>> png_pixels;
    const OpenClContext cl;
    const MemoryChoice memory;
    const BandPlan plan;
};

// The epilogue of any sample (DeviceRun::finish's): --trace's timeline, every file put in place
// together (a step of `pipeline`), the table of the steps, "Wrote OUTPUT" with `also_wrote` after
// it, then --floor's report.
void finish_run(const CommonOptions& options, std::ostream& log, PipelineTimer& pipeline,
                const OpenClContext& cl, OutputSet& outputs, const std::string& also_wrote = "");

// A single run's table and "Wrote" line, kept by DeviceRun::finish, printed with a last step for
// the time since the commit: the run's objects released (called by run_sample once the technique
// has returned). Nothing when no run was kept.
void print_finished_run();

}  // namespace sdk
