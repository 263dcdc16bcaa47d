// SPDX-License-Identifier: Apache-2.0
#pragma once
// What every sample's run reads from its command line (cli.hpp adds the options), and the body
// a sample hands run_sample.
#include "kernels/border.hpp"
#include "common/codecs/codec_choice.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/transfers.hpp"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sdk {

// The options every sample shares (see README): device choice, files, border, checks, timing.
struct CommonOptions {
    DeviceSelection device;
    bool list_devices = false;
    // -i: one image, or several and folders of them: a batch (samples/app/batch.hpp).
    std::vector<std::filesystem::path> inputs;      // default: bundled assets/input.bmp
    std::filesystem::path input;                    // the image this run (or photo) reads
    std::filesystem::path output = "output.bmp";    // a batch: the folder of its results
    std::string output_format;                      // a batch: png (default) or bmp
    unsigned jobs = 0;                              // a batch: photos in flight; 0: the default
                                                    // (photos_in_flight.hpp)
    std::string devices;                            // a batch: "all" spreads it over the devices
    std::optional<std::filesystem::path> save_raw;  // folder for .npy files
    Border border = Border::replicate;
    MemoryMode memory = MemoryMode::automatic;
    bool verify = false;
    bool quiet = false;
    unsigned iterations = 0;                     // -n: timed repetitions after a warm-up
    std::optional<std::filesystem::path> trace;  // timeline of the run (Chrome trace JSON)
    std::size_t band_rows = 0;                   // at most this many output rows a band; 0: whole
    bool floor = false;                          // --floor: measure and print the run's floor
    CodecSettings codecs;                        // --png-deflate, --jpeg-idct (codec_choice.hpp)
    // Not an option: set by run_sample for a single run (not a batch's photo), whose process
    // ends once its outputs are in place (DeviceRun::finish).
    bool ends_the_process = false;
};

// The bundled photograph, found next to the executable.
std::filesystem::path default_input_image();

// The sample's work for one image, reading the options it is given: for a batch, a copy per
// photo with that photo's input and output (bodies of different photos may run at once).
using SampleBody = std::function<void(const CommonOptions&)>;

}  // namespace sdk
