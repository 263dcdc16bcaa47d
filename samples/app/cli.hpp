// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/border.hpp"
#include "common/codecs/codec_choice.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/transfers.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace sdk {

// The options every sample shares (see README): device choice, files, border, checks, timing.
struct CommonOptions {
    DeviceSelection device;
    bool list_devices = false;
    // -i: one image, or several and folders of them: a batch (samples/app/batch.hpp).
    std::vector<std::filesystem::path> inputs;         // default: bundled assets/input.bmp
    std::filesystem::path input;                       // the image this run (or photo) reads
    std::filesystem::path output = "output.bmp";       // a batch: the folder of its results
    std::string output_format;                         // a batch: png (default) or bmp
    unsigned jobs = 0;                                 // a batch: photos in flight; 0: the default
                                                       // (photos_in_flight.hpp)
    std::string devices;                               // a batch: "all" spreads it over the devices
    std::optional<std::filesystem::path> save_raw;     // folder for .npy files
    Border border = Border::replicate;
    MemoryMode memory = MemoryMode::automatic;
    bool verify = false;
    bool quiet = false;
    unsigned iterations = 0;                           // -n: timed repetitions after a warm-up
    std::optional<std::filesystem::path> trace;        // timeline of the run (Chrome trace JSON)
    std::size_t band_rows = 0;                         // at most this many output rows a band; 0: whole
    bool floor = false;                                // --floor: measure and print the run's floor
    CodecSettings codecs;                              // --png-deflate, --jpeg-idct (codec_choice.hpp)
};

// The bundled photograph, found next to the executable.
std::filesystem::path default_input_image();

// Whether a sample offers --border: not where the border is fixed by the technique.
enum class BorderOption { offered, not_offered };

// Whether a sample offers --band-rows: not where it always runs the whole image (the option is
// then left out of the help, and the sample refuses it saying why).
enum class BandsOption { offered, not_offered };

void add_common_options(CLI::App& app, CommonOptions& options,
                        BorderOption border = BorderOption::offered,
                        BandsOption bands = BandsOption::offered);
// The check for an option whose value may not be empty: CLI11 took '' as the option's default,
// so `--device ''` or `--roi ''` ran as if the option were left out. `when_empty` is the refusal.
CLI::Validator a_value(const std::string& when_empty = "an empty value");

// Only -p, -d and -t, the device's choice (part of the common options).
void add_device_options(CLI::App& app, DeviceSelection& selection);

// Makes `option` take one of `names` (case ignored): its help shows "a|b|c" and a wrong value is
// refused naming them, where CLI11's own checks print their maps ("{cpu->1,...} OR {1,...}", and
// took the numbers too). `value_of`, when given, turns a name into what the option parses.
CLI::Option* accept_names(CLI::Option* option, const std::vector<std::string>& names,
                          const std::function<std::string(const std::string&)>& value_of = {});

// The same for an enum option, named by a table such as border_names().
template <typename Enum>
CLI::Option* accept_names(CLI::Option* option, const std::map<std::string, Enum>& table)
{
    std::vector<std::string> names;
    for (const auto& entry : table) names.push_back(entry.first);
    return accept_names(option, names, [table](const std::string& name) {
        return std::to_string(static_cast<std::underlying_type_t<Enum>>(table.at(name)));
    });
}

// A work-group shape "WxH" such as "32x8": the validator for options, and its parsed value.
CLI::Validator work_group_validator();
std::pair<std::size_t, std::size_t> parse_work_group(const std::string& text);


// The sample's work for one image, reading the options it is given: for a batch, a copy per
// photo with that photo's input and output (bodies of different photos may run at once).
using SampleBody = std::function<void(const CommonOptions&)>;

// Parses the command line, handles --help and --list-devices, then runs the sample's body: once,
// or with several inputs or a folder once per photo (run_batch, samples/app/batch.hpp).
// Every failure becomes one line on stderr, "<sample>: <what and why>", and an exit status:
// 0 success, 2 usage error, 1 anything else. A kernel build failure also prints the build log.
int run_sample(CLI::App& app, int argc, char** argv, CommonOptions& options,
               const SampleBody& body);
// The same for a body that takes no options (it reads the ones it captured): one image only.
int run_sample(CLI::App& app, int argc, char** argv, CommonOptions& options,
               const std::function<void()>& body);

// Runs `work`, turning a failure into one line on stderr, "<name>: <what and why>" (a build
// failure's log before it), and an exit status: 0, 2 for a usage error, 1 for anything else.
// With a `subject` (a batch's photo), the line names it too unless the message already does.
int exit_status_of(const std::string& name, const std::function<void()>& work,
                   const std::string& subject = "");

}  // namespace sdk

namespace sdk {
// A stream that discards everything: what -q/--quiet prints to.
std::ostream& null_stream();
}  // namespace sdk
