// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/device.hpp"
#include "common/runtime/opencl.hpp"

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

// Reads the kernel file `kernel_file` from `folder` (default: next to the executable) and builds
// it for OpenCL C 1.2 with `options` (e.g. "-DBORDER_REFLECT101") and `-I folder`, so the file
// `#include`s the helpers it needs ("border.cl") and states its own dependencies. Throws
// BuildError, with the compiler's log, when it fails to compile.
cl::Program build_program(const OpenClContext& cl, const std::string& kernel_file,
                          const std::string& options,
                          const std::filesystem::path& folder = executable_directory());

// The kernel `name` of a built `program`. A name the program lacks (an empty or wrong kernel
// file) is reported with the names it has, instead of CL_INVALID_KERNEL_NAME.
cl::Kernel create_kernel(const cl::Program& program, const std::string& name);

// The option that makes `folder` the place `#include "file.cl"` is looked for: "-I folder", with
// the name in double quotes when it holds a space.
std::string include_option(const std::filesystem::path& folder);

// The same for kernel source held in memory: `source_name` is the name compiler messages and
// errors give it, and `include_folder` is where its `#include`s are found.
cl::Program build_program_from_source(
    const OpenClContext& cl, const std::string& source, const std::string& source_name,
    const std::string& options,
    const std::filesystem::path& include_folder = executable_directory());

}  // namespace sdk
