// SPDX-License-Identifier: Apache-2.0
#pragma once
// A folder of photos in one run (docs/index.md#a-folder-of-photos): `-i a.jpg b.png ...` or
// `-i FOLDER`, each result written into `-o FOLDER` as <the input's stem>.png (.bmp with
// --output-format bmp). The sample's body runs once per photo, exactly as for a single image, so
// a photo's result is the same bytes either way; what the batch adds is around it: the device,
// its context and the built programs are started once and shared (reuse_contexts), several
// photos are in flight at once, each on a thread with its own queue, and each photo's files are
// their own output set, so one bad photo costs only itself.
#include "samples/app/common_options.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace sdk {

// Whether -i asks for a batch: more than one input, or a folder.
bool is_batch(const std::vector<std::filesystem::path>& inputs);

// The photos `inputs` name, in order: files as listed, and for a folder its image files (BMP,
// PNG or JPEG, known by their first bytes as read_image knows them; names starting with '.' and
// sub-folders left out) sorted by name. A file that cannot be read is kept, to fail by name.
// A folder's symbolic link to another of its photos is left out, and a line saying so added to
// `skipped`. Throws FileError for a folder with no image in it.
std::vector<std::filesystem::path> photos_of(const std::vector<std::filesystem::path>& inputs,
                                             std::vector<std::string>* skipped = nullptr);

struct BatchPhoto {
    std::filesystem::path input;
    std::filesystem::path output;
};

// Each photo's result in `folder`: <stem>.png, or <stem>.bmp when `format` is "bmp". Throws
// UsageError, before anything is written, for a photo listed twice (through a folder too), two
// photos with one stem (their results would have one name), a result that would replace one of
// the inputs, and a `folder` that exists and is not a folder.
std::vector<BatchPhoto> plan_batch(const std::vector<std::filesystem::path>& photos,
                                   const std::filesystem::path& folder, const std::string& format);

// What run_sample does with a batch. Refuses (exit 2, nothing written) a batch without -o, and
// options that describe one run rather than a photo's (--save-raw, --trace, --floor, -n,
// --save-gradients, --retune: their reasons in batch.cpp). Then makes the folder if missing and
// runs `body` once per photo, with the photo's input and output and quiet, up to --jobs photos at
// once (the first alone, as it starts the device, builds the programs and measures the tuning,
// and until one is written every photo alone, so that the device starts once whichever photos
// fail). Without --jobs, one per core and at least one per device; with or without, no more than
// the machine's memory, its devices' and its open files hold of the batch's largest photo
// (photos_in_flight.hpp), with a note where that cuts them. A photo that fails is named on one
// line on stderr and the others go on; a usage or kernel build error stops the batch (no new
// photo starts). Prints a line per photo written and the batch's summary: photos/s over the
// whole process (from its start to the last result in place) and the time in each stage (the
// device's split into its commands' own time and the rest). Returns the exit status: 0 every
// photo written, 1 some failed, 2 a usage error.
int run_batch(CLI::App& app, const CommonOptions& options, const SampleBody& body);

}  // namespace sdk
