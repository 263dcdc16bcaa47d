#pragma once
// The process's own limits, named in messages about failures they cause: a tight `ulimit -n` or
// `ulimit -v` makes the OpenCL loader, the driver and C++ allocations fail in ways that read like
// something else (no driver installed, std::bad_alloc).
#include <cstdint>
#include <string>

namespace sdk {

// "this process may have 6 files open at once (ulimit -n) and has 5 open"; the count is left
// out where the limit is too large to count up to.
std::string open_files_limit_note();

// "this process's address space is limited to 400000 KiB (ulimit -v)", or the data segment's
// limit (ulimit -d) where that is the lower; empty when neither is set.
std::string memory_limit_note();

// One line for an allocation that failed: "out of memory allocating 192000000 bytes for the
// file's rows; this process's address space is ..." (`bytes` 0: a size not known), ending in
// what helps: the limit, or the memory the machine has left.
std::string out_of_memory_message(const std::string& what, std::uint64_t bytes);

}  // namespace sdk
