#include "common/app/cli.hpp"

#include "common/imageio/bmp.hpp"
#include "common/runtime/errors.hpp"
#include "common/imageio/file_io.hpp"
#include "common/runtime/program.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>

namespace sdk {

std::filesystem::path default_input_image()
{
    return executable_directory() / "assets" / "input.bmp";
}

void add_device_options(CLI::App& app, DeviceSelection& selection)
{
    app.add_option("-p,--platform", selection.platform,
                   "OpenCL platform number, from 0 (see --list-devices)")
        ->type_name("N");
    app.add_option("-d,--device", selection.device,
                   "OpenCL device number within the platform, from 0 (see --list-devices)")
        ->type_name("N");
    accept_names(app.add_option("-t,--type", selection.type,
                                "device type (default: the first GPU, else the first device)"),
                 std::map<std::string, DeviceType>{{"cpu", DeviceType::cpu},
                                                   {"gpu", DeviceType::gpu},
                                                   {"accelerator", DeviceType::accelerator},
                                                   {"all", DeviceType::all}});
}

namespace {
// An empty path names no file (taken as the current folder, an output hung at its commit).
const CLI::Validator a_path(
    [](std::string& text) {
        return text.empty() ? std::string("an empty path names no file") : std::string();
    },
    "");  // no description: the option's own type name (FILE, FOLDER) says what it takes
}  // namespace

void add_common_options(CLI::App& app, CommonOptions& options, BorderOption border,
                        BandsOption bands)
{
    options.input = default_input_image();
    add_device_options(app, options.device);
    app.add_flag("--list-devices", options.list_devices, "list OpenCL platforms and devices, then exit");
    app.add_option("-i,--input", options.input,
                   "input image: BMP, PNG or JPEG, known by its first bytes (default: the "
                   "bundled photograph)")
        ->type_name("FILE")
        ->check(a_path)
        ->capture_default_str();
    app.add_option("-o,--output", options.output,
                   "output image: PNG when its name ends in .png, else BMP")
        ->type_name("FILE")
        ->check(a_path)
        ->capture_default_str();
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
    CLI::Option* band_rows =
        app.add_option("--band-rows", options.band_rows,
                       "run in bands of at most N output rows (default: the whole image when the "
                       "device can allocate it, else bands as tall as fit; see docs/whole_run.md)")
            ->type_name("N");
    // Not offered: kept out of the help, but still parsed, so that the sample can refuse it
    // with its reason rather than CLI11's "not expected".
    if (bands == BandsOption::not_offered) band_rows->group("");
}

CLI::Option* accept_names(CLI::Option* option, const std::vector<std::string>& names,
                          const std::function<std::string(const std::string&)>& value_of)
{
    std::string choices;
    for (const std::string& name : names) choices += (choices.empty() ? "" : "|") + name;
    option->type_name(choices);
    option->transform(CLI::Validator(
        [names, choices, value_of](std::string& text) {
            std::string lower = text;
            for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (std::find(names.begin(), names.end(), lower) == names.end())
                return "'" + text + "' is not one of " + choices;
            text = value_of ? value_of(lower) : lower;
            return std::string();
        },
        ""));  // no description: the type name already lists the names
    return option;
}

namespace {
bool parse_shape(const std::string& text, std::size_t& x, std::size_t& y)
{
    const auto separator = text.find('x');
    if (separator == std::string::npos || separator == 0 || separator + 1 == text.size())
        return false;
    try {
        std::size_t used_x = 0, used_y = 0;
        const std::string width = text.substr(0, separator), height = text.substr(separator + 1);
        x = std::stoul(width, &used_x);
        y = std::stoul(height, &used_y);
        return used_x == width.size() && used_y == height.size() && isdigit(width[0]) &&
               isdigit(height[0]) && x > 0 && y > 0 && x <= 4096 && y <= 4096;
    } catch (const std::exception&) {
        return false;
    }
}
}  // namespace

CLI::Validator work_group_validator()
{
    return CLI::Validator(
        [](std::string& text) {
            std::size_t x = 0, y = 0;
            return parse_shape(text, x, y) ? std::string() : "expected WxH, e.g. 32x8";
        },
        "");  // no description: the options name their type WxH
}

std::pair<std::size_t, std::size_t> parse_work_group(const std::string& text)
{
    std::size_t x = 0, y = 0;
    if (!parse_shape(text, x, y))
        throw UsageError("work-group shape '" + text + "': expected WxH, e.g. 32x8");
    return {x, y};
}

int run_sample(CLI::App& app, int argc, char** argv, const CommonOptions& options,
               const std::function<void()>& body)
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
    try {
        if (options.list_devices) {
            list_devices(std::cout);
            return 0;
        }
        // Contexts log their commands only when a trace will show them.
        log_commands_of_new_contexts(options.trace.has_value());
        body();
        return 0;
    } catch (const UsageError& error) {
        std::cerr << name << ": " << error.what() << " (try --help)\n";
        return 2;
    } catch (const BuildError& error) {
        std::cerr << error.log() << "\n" << name << ": " << error.what() << "\n";
        return 1;
    } catch (const std::bad_alloc&) {
        // An allocation no step names: at least say it was memory, and what limits it.
        std::cerr << name << ": " << out_of_memory_message("", 0) << "\n";
        return 1;
    } catch (const std::exception& error) {
        std::cerr << name << ": " << error.what() << "\n";
        return 1;
    }
}

}  // namespace sdk

namespace sdk {
std::ostream& null_stream()
{
    static std::ostream discard(nullptr);
    return discard;
}
}  // namespace sdk
