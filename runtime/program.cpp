#include "runtime/program.hpp"

#include "runtime/errors.hpp"

#include <fstream>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace sdk {

std::filesystem::path executable_directory()
{
    std::error_code error;
    const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (error) return std::filesystem::current_path();
    return self.parent_path();
}

namespace {

std::string read_kernel_source(const std::filesystem::path& path)
{
    // An ifstream opens a directory without complaint on Linux and then reads nothing, which
    // would surface later as a baffling compiler error: say what is wrong instead.
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw std::runtime_error("kernel file '" + path.string() + "' is a directory, not a file");
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw std::runtime_error("cannot open kernel file '" + path.string() +
                                 "': it should sit next to the executable (rebuild to copy it)");
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

// Builds `source` with `#line 1 "file_name"` before it, so the compiler's messages name the file
// and count its lines; `described_as` names it in errors (the full path, for a file).
cl::Program build_source(const OpenClContext& cl, const std::string& source,
                         const std::string& file_name, const std::string& described_as,
                         const std::string& options, const std::filesystem::path& include_folder)
{
    const std::string numbered_source = "#line 1 \"" + file_name + "\"\n" + source;
    cl::Program program = while_doing("creating a program from " + described_as, [&] {
        return cl::Program(cl.context, numbered_source);
    });
    const std::string all_options =
        "-cl-std=CL1.2 " + include_option(include_folder) + " " + options;
    try {
        program.build({cl.device}, all_options.c_str());
    } catch (const cl::Error& error) {
        std::string log;
        try {
            log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(cl.device);
        } catch (const cl::Error&) {
            log = "(the driver returned no build log)";
        }
        if (error.err() == CL_BUILD_PROGRAM_FAILURE)
            throw BuildError("kernel " + described_as + " failed to build with options '" +
                                 all_options + "' (build log above)",
                             log);
        throw OpenClError("building " + described_as, error);
    }
    return program;
}

}  // namespace

std::string include_option(const std::filesystem::path& folder)
{
    const std::string name = folder.string();
    // PoCL 3.1 hands quotes to its compiler as part of the folder name, so quote only a name
    // that needs it: drivers that strip the quotes (oclgrind, newer PoCL) then keep it one option.
    if (name.find_first_of(" \t") == std::string::npos) return "-I " + name;
    return "-I \"" + name + "\"";
}

cl::Program build_program(const OpenClContext& cl, const std::string& kernel_file,
                          const std::string& options, const std::filesystem::path& folder)
{
    const auto path = folder / kernel_file;
    return build_source(cl, read_kernel_source(path), kernel_file, path.string(), options, folder);
}

cl::Program build_program_from_source(const OpenClContext& cl, const std::string& source,
                                      const std::string& source_name, const std::string& options,
                                      const std::filesystem::path& include_folder)
{
    return build_source(cl, source, source_name, source_name, options, include_folder);
}

}  // namespace sdk
