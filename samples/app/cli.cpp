// SPDX-License-Identifier: Apache-2.0
#include "samples/app/cli.hpp"

#include "samples/app/batch.hpp"
#include "samples/app/device_run.hpp"
#include "samples/app/messages.hpp"
#include "samples/app/option_values.hpp"

#include "common/imageio/bmp.hpp"
#include "common/imageio/cores.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/errors.hpp"
#include "common/imageio/file_io.hpp"
#include "common/runtime/program.hpp"
#include "common/runtime/resource_limits.hpp"

#include <algorithm>
#include <cctype>
#include <climits>
#include <iostream>

namespace sdk {

namespace {
// The bundled image is found relative to the executable: in a build, bin/assets is a link to the
// source tree's assets/; in an installed folder, its own assets/. A folder copied without it gets
// this line instead of a bare "cannot open".
void require_bundled_image(const std::filesystem::path& input)
{
    std::error_code error;
    if (input != default_input_image() || std::filesystem::exists(input, error)) return;
    throw std::runtime_error(
        "the bundled image assets/input.bmp is missing: looked for " + input.string() +
        "; copy assets/ next to the executable (cmake --install puts it in the installed "
        "folder), or give an image with -i FILE");
}
}  // namespace

void add_device_options(CLI::App& app, DeviceSelection& selection)
{
    add_value_option(app, "-p,--platform", selection.platform,
                     "OpenCL platform number, from 0 (see --list-devices)", "N");
    add_value_option(app, "-d,--device", selection.device,
                     "OpenCL device number within the platform, from 0 (see --list-devices)", "N");
    accept_names(app.add_option("-t,--type", selection.type,
                                "device type (default: the first GPU, else the first device)"),
                 std::map<std::string, DeviceType>{{"cpu", DeviceType::cpu},
                                                   {"gpu", DeviceType::gpu},
                                                   {"accelerator", DeviceType::accelerator},
                                                   {"all", DeviceType::all}});
}

namespace {
// -o names its format: a name ending in anything but .png or .bmp (.jpg, .tif, none) was written
// as BMP bytes under that name, which the next program to open it misreads. A folder or a device
// there is left to the output set, which says what it is.
void refuse_unwritten_format(const std::filesystem::path& output)
{
    std::error_code error;
    const auto status = std::filesystem::status(output, error);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status)) return;
    std::string extension = output.extension().string();
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (extension == ".png" || extension == ".bmp") return;
    throw UsageError("-o '" + output.string() + "': " +
                     (extension.empty()
                          ? "a name without an extension"
                          : "'" + output.extension().string() + "' is not a format written") +
                     "; the samples write PNG (.png) or BMP (.bmp)");
}

// An empty path names no file (taken as the current folder, an output hung at its commit).
const CLI::Validator a_path = a_value("an empty path names no file");
}  // namespace

void add_common_options(CLI::App& app, CommonOptions& options, BorderOption border)
{
    options.input = default_input_image();
    options.inputs = {options.input};
    add_device_options(app, options.device);
    app.add_flag("--list-devices", options.list_devices,
                 "list OpenCL platforms and devices, then exit");
    app.add_option("-i,--input", options.inputs,
                   "input image: BMP, PNG or JPEG, known by its first bytes (default: the "
                   "bundled photograph); several, or a FOLDER of them, make a batch")
        ->type_name("FILE")
        ->check(a_path)
        ->default_str(options.input.string());
    app.add_option("-o,--output", options.output,
                   "output image: PNG for a name ending in .png, BMP for .bmp; for a batch, the "
                   "FOLDER its results go into, each named after its input")
        ->type_name("FILE")
        ->check(a_path)
        ->capture_default_str();
    accept_names(app.add_option("--output-format", options.output_format,
                                "a batch's results: png (the default) or bmp"),
                 {"png", "bmp"});
    accept_names(app.add_option("--devices", options.devices,
                                "a batch: 'all' spreads its photos over every device like the one "
                                "chosen (every GPU of its platform); 'one' (the default) uses it "
                                "alone"),
                 {"one", "all"});
    // No ceiling here: what the machine holds is known only with the photos and the devices
    // (photos_in_flight.hpp), and a --jobs above it is cut to it with a note, so that the same
    // command runs on a machine with less memory free today.
    app.add_option("-j,--jobs", options.jobs,
                   "a batch: photos in flight at once, each decoded, filtered and encoded on a "
                   "thread of its own (default: one per core, here " +
                       std::to_string(core_count()) +
                       "; with --devices all, at least one per device); more than the memory, the "
                       "devices' memory or the open files allow is cut to that, with a note")
        ->type_name("N")
        ->check(CLI::Validator(
            [](const std::string& text) -> std::string {
                if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos)
                    return "'" + text + "' is not a count of photos; give 1 or more";
                if (text.find_first_not_of('0') == std::string::npos)
                    return "0 photos in flight would write nothing; give 1 or more";
                const std::string digits = text.substr(text.find_first_not_of('0'));
                if (digits.size() > 10 || std::stoull(digits) > UINT_MAX)
                    return text +
                           " photos in flight is past counting; a count above what the "
                           "machine holds is cut to that anyway";
                return "";
            },
            ""));
    app.add_option("--save-raw", options.save_raw,
                   "also write raw results as NumPy .npy files into this folder")
        ->type_name("FOLDER")
        ->check(a_path);
    if (border == BorderOption::offered)
        accept_names(app.add_option("--border", options.border,
                                    "pixels outside the image: replicate (the edge pixel "
                                    "repeated), reflect101 (mirrored about the edge pixel), "
                                    "constant (zero), none (outputs whose window leaves the "
                                    "image are 0)"),
                     border_names())
            ->default_str("replicate");
    accept_names(app.add_option("--memory", options.memory,
                                "how images reach the device: map (mapped host-visible buffers), "
                                "pinned (writes and reads from pinned host memory), copy (writes "
                                "and reads from ordinary memory), auto (map where memory is "
                                "shared, else pinned)"),
                 std::map<std::string, MemoryMode>{{"auto", MemoryMode::automatic},
                                                   {"map", MemoryMode::map},
                                                   {"pinned", MemoryMode::pinned},
                                                   {"copy", MemoryMode::copy}})
        ->default_str("auto");
    // Both codecs chosen one way (codec_choice.hpp); left out, their environment variables.
    const std::map<std::string, CodecSetting> places{{"host", CodecSetting::host},
                                                     {"device", CodecSetting::device},
                                                     {"measure", CodecSetting::measure}};
    accept_names(app.add_option("--png-deflate", options.codecs.png_deflate,
                                "where PNG outputs are compressed: host (zlib), device (the "
                                "device's encoder), measure (the faster on this device, timed "
                                "once and cached); default $SDK_PNG_DEFLATE, else measure, but "
                                "host on a CPU device"),
                 places);
    accept_names(app.add_option("--jpeg-idct", options.codecs.jpeg_idct,
                                "where a JPEG's luminance is made: host (libjpeg), device "
                                "(libjpeg entropy-decodes, the device runs the inverse DCT; the "
                                "same pixels; sobel, fir_float, morphology_packed), measure (the "
                                "faster on this device, timed once and cached); default "
                                "$SDK_JPEG_IDCT, else the cached choice, else host"),
                 places);
    app.add_flag("--verify", options.verify, "compare the device's output with the C++ reference");
    app.add_flag("-q,--quiet", options.quiet, "print nothing but errors");
    app.add_option("-n,--iterations", options.iterations,
                   "time the kernel N times (1 to 100000) after a warm-up; report median, min, max")
        ->type_name("N")
        ->check(CLI::Range(1u, 100000u).description(""));
    app.add_option("--trace", options.trace,
                   "write a timeline of the run, host steps and device commands, as Chrome "
                   "trace JSON to this file (open it in ui.perfetto.dev)")
        ->type_name("FILE")
        ->check(a_path);
    app.add_flag("--floor", options.floor,
                 "after the run, measure what any program must move for this job (the input read "
                 "from the page cache, the output's bytes written, on a discrete GPU the host "
                 "link) and print it under the step table");
    app.add_option("--band-rows", options.band_rows,
                   "run in bands of at most N output rows (default: the whole image when the "
                   "device can allocate it, else bands as tall as fit; see docs/whole_run.md)")
        ->type_name("N")
        ->check(CLI::Validator(
            [](std::string& text) {
                // 0 and '' meant "the whole image" silently; that is the option left out.
                const bool digits =
                    !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
                return digits && text.find_first_not_of('0') != std::string::npos
                           ? std::string()
                           : "'" + text +
                                 "' is not a number of rows from 1 (leave the option "
                                 "out for the whole image)";
            },
            ""));
}

int run_sample(CLI::App& app, int argc, char** argv, CommonOptions& options,
               const std::function<void()>& body)
{
    return run_sample(app, argc, argv, options, [&](const CommonOptions&) { body(); });
}

namespace {
int run_sample_as_asked(CLI::App& app, int argc, char** argv, CommonOptions& options,
                        const SampleBody& body);
}  // namespace

int run_sample(CLI::App& app, int argc, char** argv, CommonOptions& options, const SampleBody& body)
{
    const int status = run_sample_as_asked(app, argc, argv, options, body);
    wait_for_driver_processes();  // none outlives the sample (a failed run's `ld`)
    return status;
}

namespace {
int run_sample_as_asked(CLI::App& app, int argc, char** argv, CommonOptions& options,
                        const SampleBody& body)
{
    const std::string name = app.get_name().empty() ? "sample" : app.get_name();
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& help) {
        return app.exit(help);
    } catch (const CLI::ParseError& error) {
        std::cerr << name << ": " << error.what() << " (try --help)\n";
        return 2;
    }
    share_one_heap_under_address_limit();  // before the driver starts its threads
    set_note_name(name);
    // What a reader decoded around (a JPEG without its end marker), one write a line: a batch's
    // photos are read side by side.
    set_input_notes(note);
    if (options.list_devices) return exit_status_of(name, [] { list_devices(std::cout); });
    const int refused = exit_status_of(name, [&] { read_codec_environment(options.codecs); });
    if (refused != 0) return refused;
    if (is_batch(options.inputs)) return run_batch(app, options, body);
    return exit_status_of(name, [&] {
        options.input = options.inputs.front();
        require_bundled_image(options.input);
        if (!options.output_format.empty())
            throw UsageError(
                "--output-format: a batch's option; one output's format follows its "
                "name (.png, else BMP)");
        if (options.jobs > 0)
            throw UsageError("--jobs: a batch's option (several inputs or a folder)");
        if (!options.devices.empty())
            throw UsageError("--devices: a batch's option (several inputs or a folder)");
        refuse_unwritten_format(options.output);
        // Contexts log their commands only when a trace will show them.
        log_commands_of_new_contexts(options.trace.has_value());
        options.ends_the_process = true;
        body(options);
        // The technique has returned: everything it made is released, the device stopped.
        print_finished_run();
    });
}
}  // namespace

}  // namespace sdk
