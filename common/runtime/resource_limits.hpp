// SPDX-License-Identifier: Apache-2.0
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

// Under `ulimit -v`, threads allocate from one heap: glibc gives a thread that contends for the
// heap an arena of its own, each reserving 64 MiB of address space, so whether a run fits its
// limit would depend on how its threads happened to meet. Without a limit, nothing changes.
void share_one_heap_under_address_limit();

// Throws, with out_of_memory_message's line, when the address space left under `ulimit -v` is
// less than `bytes` for `what`. Called before the driver is handed work that allocates inside it:
// PoCL does not check all of its allocations, and one that fails there ends the process with a
// segmentation fault in place of an error code.
void require_address_space(std::uint64_t bytes, const std::string& what);

}  // namespace sdk
