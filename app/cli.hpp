#pragma once
#include "filters/border.hpp"
#include "runtime/device.hpp"
#include "runtime/errors.hpp"
#include "runtime/transfers.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

namespace sdk {

// The options every sample shares (see README): device choice, files, border, checks, timing.
struct CommonOptions {
    DeviceSelection device;
    bool list_devices = false;
    std::filesystem::path input;                       // default: bundled assets/input.bmp
    std::filesystem::path output = "output.bmp";
    std::optional<std::filesystem::path> save_raw;     // folder for .npy files
    Border border = Border::replicate;
    MemoryMode memory = MemoryMode::automatic;
    bool verify = false;
    bool quiet = false;
    unsigned iterations = 0;                           // -n: timed repetitions after a warm-up
    std::optional<std::filesystem::path> trace;        // timeline of the run (Chrome trace JSON)
    std::size_t band_rows = 0;                         // at most this many output rows a band; 0: whole
    bool floor = false;                                // --floor: measure and print the run's floor
};

// The bundled photograph, found next to the executable.
std::filesystem::path default_input_image();

// Whether a sample offers --border: not where the border is fixed by the technique.
enum class BorderOption { offered, not_offered };

void add_common_options(CLI::App& app, CommonOptions& options,
                        BorderOption border = BorderOption::offered);
// Only -p, -d and -t, the device's choice (part of the common options).
void add_device_options(CLI::App& app, DeviceSelection& selection);

// A work-group shape "WxH" such as "32x8": the validator for options, and its parsed value.
CLI::Validator work_group_validator();
std::pair<std::size_t, std::size_t> parse_work_group(const std::string& text);


// Parses the command line, handles --help and --list-devices, then runs the sample's body.
// Every failure becomes one line on stderr, "<sample>: <what and why>", and an exit status:
// 0 success, 2 usage error, 1 anything else. A kernel build failure also prints the build log.
int run_sample(CLI::App& app, int argc, char** argv, const CommonOptions& options,
               const std::function<void()>& body);

}  // namespace sdk

namespace sdk {
// A stream that discards everything: what -q/--quiet prints to.
std::ostream& null_stream();
}  // namespace sdk
