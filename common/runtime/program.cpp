// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/program.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/program_cache.hpp"
#include "common/runtime/resource_limits.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <system_error>
#include <tuple>
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

// The address space the driver is given under `ulimit -v` before it is asked to build (see
// require_address_space). A process's first compile from source maps LLVM's context and kernel
// library and needs far more than a later compile or a cached binary (docs/history.md); with
// less, PoCL and LLVM end the process (SIGSEGV, SIGABRT).
constexpr std::uint64_t kAddressSpaceToCompileFirst = std::uint64_t{136} << 20;
constexpr std::uint64_t kAddressSpaceToBuild = std::uint64_t{12} << 20;
std::atomic<bool> compiled_before{false};

// `included_by`: the kernel file whose `#include` named `path`, or empty for the file built.
std::string read_kernel_source(const std::filesystem::path& path,
                               const std::string& included_by = "")
{
    // An ifstream opens a directory without complaint on Linux and then reads nothing, which
    // would surface later as a baffling compiler error: say what is wrong instead.
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw std::runtime_error("kernel file '" + path.string() + "' is a directory, not a file");
    errno = 0;
    std::ifstream file(path, std::ios::binary);
    if (!file) {
        // Missing: a build that did not copy it, or a folder copied without it. Anything else
        // (out of file descriptors, no permission) is named as the system names it.
        const int reason = errno;
        if (reason != 0 && reason != ENOENT)
            throw std::runtime_error("cannot open kernel file '" + path.string() +
                                     "': " + std::strerror(reason));
        const std::string included =
            included_by.empty() ? "" : " (#include'd by " + included_by + ")";
        throw std::runtime_error("cannot open kernel file '" + path.string() + "'" + included +
                                 ": it should sit next to the executable; copy the .cl files "
                                 "there from the build's bin/ or an installed folder (cmake "
                                 "--install), or rebuild");
    }
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

std::string full_options(const std::string& options, const std::filesystem::path& include_folder)
{
    return "-cl-std=CL1.2 " + include_option(include_folder) + " " + options;
}

// The text of every file `source` (the file `source_name`) includes with `#include "name"` from
// `folder`, recursively, each once: what the program depends on besides its own file, for the
// binary cache's key. A missing one is named as a missing kernel file is, with what to copy,
// before the driver's compiler would say only "file not found".
void append_included_sources(const std::string& source, const std::string& source_name,
                             const std::filesystem::path& folder, std::set<std::string>& seen,
                             std::string& out)
{
    std::istringstream lines(source);
    for (std::string line; std::getline(lines, line);) {
        const auto hash = line.find_first_not_of(" \t");
        if (hash == std::string::npos || line.compare(hash, 1, "#") != 0) continue;
        const auto word = line.find("include", hash);
        const auto open = line.find('"', hash);
        if (word == std::string::npos || open == std::string::npos || open < word) continue;
        const auto close = line.find('"', open + 1);
        if (close == std::string::npos) continue;
        const std::string name = line.substr(open + 1, close - open - 1);
        if (!seen.insert(name).second) continue;
        const std::string included = read_kernel_source(folder / name, source_name);
        out += "\n// " + name + "\n" + included;
        append_included_sources(included, name, folder, seen, out);
    }
}

// Builds `source` with `#line 1 "file_name"` before it, so the compiler's messages name the file
// and count its lines; `described_as` names it in errors (the full path, for a file).
cl::Program build_source(const OpenClContext& cl, const std::string& source,
                         const std::string& file_name, const std::string& described_as,
                         const std::string& options, const std::filesystem::path& include_folder)
{
    require_address_space(compiled_before ? kAddressSpaceToBuild : kAddressSpaceToCompileFirst,
                          "building " + described_as);
    const std::string numbered_source = "#line 1 \"" + file_name + "\"\n" + source;
    cl::Program program = while_doing("creating a program from " + described_as,
                                      [&] { return cl::Program(cl.context, numbered_source); });
    const std::string all_options = full_options(options, include_folder);
    try {
        program.build({cl.device}, all_options.c_str());
    } catch (const std::bad_alloc&) {
        // The driver's compiler ran out of memory (PoCL's LLVM throws through the C API),
        // leaving the program's lock held: releasing the program would wait on it for ever.
        // Its handle is left behind instead; the process is about to end with this error.
        new cl::Program(std::move(program));
        throw std::runtime_error(out_of_memory_while("building " + described_as));
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
    compiled_before = true;
    return program;
}

}  // namespace

std::string include_option(const std::filesystem::path& folder)
{
    const std::string name = folder.string();
    // PoCL hands quotes to its compiler as part of the folder name, so quote only a name
    // that needs it: drivers that strip the quotes (oclgrind, newer PoCL) then keep it one option.
    if (name.find_first_of(" \t") == std::string::npos) return "-I " + name;
    return "-I \"" + name + "\"";
}

namespace {
// A batch's programs, built once in the context its photos share (reuse_contexts()), by the
// context, the kernel file and the options. Programs are never destroyed, as the contexts.
struct BuiltPrograms {
    std::mutex lock;
    std::map<std::tuple<cl_context, std::string, std::string>, cl::Program> built;
};
BuiltPrograms& built_programs()
{
    static BuiltPrograms* programs = new BuiltPrograms;
    return *programs;
}

cl::Program build_program_once(const OpenClContext& cl, const std::string& kernel_file,
                               const std::string& options, const std::filesystem::path& folder);
}  // namespace

cl::Program build_program(const OpenClContext& cl, const std::string& kernel_file,
                          const std::string& options, const std::filesystem::path& folder)
{
    if (!reusing_contexts()) return build_program_once(cl, kernel_file, options, folder);
    BuiltPrograms& programs = built_programs();
    // Held through the build: two photos wanting one program wait for one build.
    const std::lock_guard<std::mutex> hold(programs.lock);
    const auto key = std::make_tuple(cl.context(), (folder / kernel_file).string(), options);
    const auto known = programs.built.find(key);
    if (known != programs.built.end()) return known->second;
    cl::Program program = build_program_once(cl, kernel_file, options, folder);
    programs.built.emplace(key, program);
    return program;
}

namespace {
cl::Program build_program_once(const OpenClContext& cl, const std::string& kernel_file,
                               const std::string& options, const std::filesystem::path& folder)
{
    const auto path = folder / kernel_file;
    require_address_space(kAddressSpaceToBuild, "building " + path.string());
    const std::string source = read_kernel_source(path);
    // A binary from an earlier run with the same source, includes, options and driver.
    std::string full_source = source;
    std::set<std::string> seen{kernel_file};
    append_included_sources(source, kernel_file, folder, seen, full_source);
    const ProgramCacheEntry entry =
        program_cache_entry(cl, path, full_source, full_options(options, folder));
    if (auto cached = load_cached_program(cl, entry, full_options(options, folder))) return *cached;
    cl::Program program = build_source(cl, source, kernel_file, path.string(), options, folder);
    save_program_binary(cl, program, entry);
    return program;
}
}  // namespace

cl::Program build_program_from_source(const OpenClContext& cl, const std::string& source,
                                      const std::string& source_name, const std::string& options,
                                      const std::filesystem::path& include_folder)
{
    return build_source(cl, source, source_name, source_name, options, include_folder);
}

cl::Kernel create_kernel(const cl::Program& program, const std::string& name)
{
    try {
        return cl::Kernel(program, name.c_str());
    } catch (const cl::Error& error) {
        if (error.err() != CL_INVALID_KERNEL_NAME) throw;
    }
    std::string names = program.getInfo<CL_PROGRAM_KERNEL_NAMES>();
    std::replace(names.begin(), names.end(), ';', ' ');
    throw std::runtime_error("no kernel named " + name +
                             " in the program built (it has: " + (names.empty() ? "none" : names) +
                             "): is the kernel file the right one?");
}

}  // namespace sdk
