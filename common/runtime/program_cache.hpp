// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/device.hpp"
#include "common/runtime/opencl.hpp"

#include <filesystem>
#include <optional>
#include <string>

namespace sdk {

// Where the SDK keeps what it measures or builds once per device (program binaries): $SDK_CACHE_DIR
// if set, else $XDG_CACHE_HOME/opencl-image-filters, else ~/.cache/opencl-image-filters; empty
// when none of these variables is set.
std::filesystem::path sdk_cache_folder();

// A cache of built programs, so that a sample's next run skips the compiler: on boards the build
// is the slow part of start-up (Mali compiles at clCreateKernel, Adreno has been reported to take
// seconds), and PoCL's own cache still preprocesses the source every time. Each entry,
// programs/<key>.bin, is keyed by the platform, device, driver version, the source with
// everything it #includes, and the build options. It holds the binary
// clGetProgramInfo(CL_PROGRAM_BINARIES) returns after a header of what it was built from and the
// binary's size and checksum: drivers trust a binary they are handed (PoCL aborts the process on
// a truncated one), so an entry is handed over only when its header is this build's and its
// binary is whole. Anything odd about an entry (missing, unreadable, too large, cut short,
// damaged, another key's, rejected by the driver) means a build from source that replaces it,
// never an error. SDK_PROGRAM_CACHE=0 turns the cache off.
//
// The folder does not grow without bound (the tutorial invites editing the kernels, and each
// edit is a new key): an entry's name starts with its lineage, the source file, options and
// device it was built for, and saving an entry removes the others of its lineage, which its
// source has superseded; past kMaxProgramCacheBytes in all, the entries written longest ago go.
constexpr std::uintmax_t kMaxProgramCacheBytes = std::uintmax_t{64} << 20;
struct ProgramCacheEntry {
    std::filesystem::path path;  // empty: no cache (turned off, or no cache folder)
    // What the program is built from, as the entry's first lines: the key, the platform, device
    // and driver, the options and the source's hash. An entry that starts otherwise is not
    // this program's (a file copied over it, a damaged header).
    std::string provenance;
    std::string lineage;  // the start of the entry's name that its superseded entries share
};
// `source_file`: the kernel's file (its path), whose edits supersede one another.
ProgramCacheEntry program_cache_entry(const OpenClContext& cl,
                                      const std::filesystem::path& source_file,
                                      const std::string& full_source, const std::string& options);

// The program built from the entry's binary, or nothing. built from the entry's binary, or nothing.
std::optional<cl::Program> load_cached_program(const OpenClContext& cl,
                                               const ProgramCacheEntry& entry,
                                               const std::string& options);
// Saves a built program's binary for the next run; best effort (a read-only or full disk only
// means no cache), written through a temporary renamed into place.
void save_program_binary(const OpenClContext& cl, const cl::Program& program,
                         const ProgramCacheEntry& entry);

}  // namespace sdk
