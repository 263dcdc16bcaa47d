// SPDX-License-Identifier: Apache-2.0
#pragma once
// The process's own limits, named in messages about failures they cause: a tight `ulimit -n` or
// `ulimit -v` makes the OpenCL loader, the driver and C++ allocations fail in ways that read like
// something else (no driver installed, std::bad_alloc).
#include <cstdint>
#include <optional>
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

// The host memory this process may still take, and what sets it: the least of the memory the
// machine has available (MemAvailable: free, and what the kernel can take back from its caches),
// what this process's cgroup has left under its limit (a container's --memory), and the address
// space left under ulimit -v. `bytes` is 0 where none of them can be read.
struct MemoryRoom {
    std::uint64_t bytes = 0;
    std::string set_by;  // "available", "left in this cgroup", "left under ulimit -v"
};
MemoryRoom memory_room();

// What this process's memory cgroup, or any above it, has left under its limit; nothing where
// none has a limit (`cgroup_file` and `mount` are where Linux shows them; a test gives its own).
// cgroup v2 (one hierarchy: "0::/path") names them memory.max and memory.current, v1's memory
// controller ("4:memory:/path") memory.limit_in_bytes and memory.usage_in_bytes (v1 writes a
// huge number for no limit). The usage counts the page cache too; its inactive part (memory.stat),
// which the kernel takes back first, is counted as left, as `docker stats` does, so that a folder
// of photos just read does not look like memory in use.
std::optional<std::uint64_t> left_in_cgroup(const std::string& cgroup_file = "/proc/self/cgroup",
                                            const std::string& mount = "/sys/fs/cgroup");

// How many more files this process may open under ulimit -n (the soft limit less those open
// now); 0 where it has no limit, or one too large to count up to.
std::uint64_t files_free();

// Throws, with out_of_memory_message's line, when the address space left under `ulimit -v` is
// less than `bytes` for `what`. Called before the driver is handed work that allocates inside it:
// PoCL does not check all of its allocations, and one that fails there ends the process with a
// segmentation fault in place of an error code.
void require_address_space(std::uint64_t bytes, const std::string& what);

}  // namespace sdk
