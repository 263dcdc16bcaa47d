#pragma once
#include "runtime/device.hpp"
#include "runtime/opencl.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace sdk {

// The folder that holds the running executable (from /proc/self/exe), so kernels and the bundled
// image are found wherever the user runs the sample from.
std::filesystem::path executable_directory();

// A kernel that failed to compile: what() names the file; log() is the compiler's full output.
class BuildError : public std::runtime_error {
public:
    BuildError(const std::string& message, std::string log)
        : std::runtime_error(message), log_(std::move(log))
    {
    }
    const std::string& log() const { return log_; }

private:
    std::string log_;
};

// Reads the named .cl files from `folder` (default: next to the executable), concatenates them
// into one program (so small shared helpers such as border.cl are written once) and builds it
// for OpenCL C 1.2 with `options` (e.g. "-DBORDER=1").
cl::Program build_program(const OpenClContext& cl, const std::vector<std::string>& kernel_files,
                          const std::string& options,
                          const std::filesystem::path& folder = executable_directory());

}  // namespace sdk
