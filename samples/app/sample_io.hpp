// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "samples/app/common_options.hpp"
#include "common/imageio/image.hpp"
#include "common/imageio/output_set.hpp"
#include "common/runtime/pipeline_timer.hpp"

#include <filesystem>
#include <vector>

namespace sdk {

// Asks every OpenCL driver for its devices, so that the signal handlers drivers install then are
// in place before an output set's (sample_io.cpp says why); errors wait for the device's choice.
void let_the_drivers_start();

// Throws FileError when one of `outputs` is a file every run reads: the bundled photograph or a
// kernel source beside the executable (replaced by an image, no run of any sample built again,
// and a rebuild did not repair it, the copy being newer).
void refuse_replacing_what_runs_read(const std::vector<std::filesystem::path>& outputs);

// Every file this run will write (`outputs`, which lists --save-raw's files too), reserved
// before any work as one all-or-nothing set (common/imageio/output_set.hpp): checked against
// the files the run reads (the input, refuse_replacing_what_runs_read), created as temporaries
// (--save-raw's folder made if missing), renamed into place together by commit() at the end of the
// run, and removed instead on an error or Ctrl-C. The OpenCL drivers are started first, timed in
// `pipeline` ("start the OpenCL driver"): they install signal handlers of their own, which the
// set's must come after (sample_io.cpp).
OutputSet reserve_outputs(const CommonOptions& options,
                          const std::vector<std::filesystem::path>& outputs,
                          PipelineTimer& pipeline);

// Reads the input image (BMP, PNG or JPEG, recognised by its first bytes: read_image) and
// converts it to 8-bit luminance (grey images pass through unchanged).
// With a `pipeline`, reading and converting are timed as its first two steps.
// With --trace, writes the run's timeline (common/runtime/trace.hpp) to its reserved file: the
// host's steps from `pipeline` and the commands `cl` logged. Called last, just before commit().
void write_trace(const CommonOptions& options, const PipelineTimer& pipeline,
                 const OpenClContext& cl);

Image load_luminance(const std::filesystem::path& input, PipelineTimer* pipeline = nullptr);

}  // namespace sdk
