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
    std::ifstream file(path, std::ios::binary);
    if (!file)
        throw std::runtime_error("cannot open kernel file '" + path.string() +
                                 "': it should sit next to the executable (rebuild to copy it)");
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

}  // namespace

cl::Program build_program(const OpenClContext& cl, const std::vector<std::string>& kernel_files,
                          const std::string& options, const std::filesystem::path& folder)
{
    std::string source;
    std::string names;
    for (const auto& file : kernel_files) {
        const auto path = folder / file;
        // #line keeps the compiler's messages pointing at the right file and line.
        source += "#line 1 \"" + file + "\"\n" + read_kernel_source(path) + "\n";
        names += (names.empty() ? "" : ", ") + path.string();
    }
    cl::Program program = while_doing("creating a program from " + names, [&] {
        return cl::Program(cl.context, source);
    });
    const std::string all_options = "-cl-std=CL1.2 " + options;
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
            throw BuildError("kernel " + names + " failed to build with options '" + all_options +
                                 "' (build log above)",
                             log);
        throw OpenClError("building " + names, error);
    }
    return program;
}

}  // namespace sdk
