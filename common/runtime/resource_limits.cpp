// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/resource_limits.hpp"

#include <fstream>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <malloc.h>
#include <unistd.h>
#include <sys/resource.h>

namespace sdk {

namespace {

// A soft limit that is set, or nothing.
bool limited(int resource, rlim_t& limit)
{
    struct rlimit value {};
    if (::getrlimit(resource, &value) != 0 || value.rlim_cur == RLIM_INFINITY) return false;
    limit = value.rlim_cur;
    return true;
}

// MemAvailable from /proc/meminfo, in KiB; 0 when it cannot be read.
std::uint64_t available_memory_kib()
{
    std::ifstream meminfo("/proc/meminfo");
    std::string name;
    std::uint64_t kib = 0;
    while (meminfo >> name >> kib) {
        if (name == "MemAvailable:") return kib;
        meminfo.ignore(64, '\n');
    }
    return 0;
}

// The address space this process has mapped, in bytes (VmSize); 0 when it cannot be read.
std::uint64_t mapped_bytes()
{
    std::ifstream statm("/proc/self/statm");
    std::uint64_t pages = 0;
    statm >> pages;
    return pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

}  // namespace

std::string open_files_limit_note()
{
    rlim_t limit = 0;
    if (!limited(RLIMIT_NOFILE, limit)) return "this process has no limit on open files";
    std::string note = "this process may have " + std::to_string(limit) +
                       " files open at once (ulimit -n)";
    // Counted with fcntl, which needs no descriptor of its own (listing /proc/self/fd does).
    if (limit <= 65536) {
        rlim_t open = 0;
        for (rlim_t fd = 0; fd < limit; ++fd) open += ::fcntl(static_cast<int>(fd), F_GETFD) != -1;
        note += " and has " + std::to_string(open) + " open";
    }
    return note;
}

std::string memory_limit_note()
{
    rlim_t address_space = 0, data = 0;
    const bool has_address_space = limited(RLIMIT_AS, address_space);
    const bool has_data = limited(RLIMIT_DATA, data);
    if (has_data && (!has_address_space || data < address_space))
        return "this process's data segment is limited to " + std::to_string(data / 1024) +
               " KiB (ulimit -d)";
    if (has_address_space)
        return "this process's address space is limited to " +
               std::to_string(address_space / 1024) + " KiB (ulimit -v)";
    return "";
}

namespace {
// What limits memory, to end a line about running out: the limit, or what the machine has left.
std::string what_limits_memory()
{
    if (const std::string limit = memory_limit_note(); !limit.empty()) return "; " + limit;
    if (const std::uint64_t available = available_memory_kib())
        return "; the machine has " + std::to_string(available / 1024) + " MiB available";
    return "";
}
}  // namespace

std::string out_of_memory_message(const std::string& what, std::uint64_t bytes)
{
    std::string message = "out of memory";
    if (bytes) message += " allocating " + std::to_string(bytes) + " bytes";
    if (!what.empty()) message += " for " + what;
    if (bytes == 0 && what.empty()) message += " (a host allocation failed)";
    return message + what_limits_memory();
}

void share_one_heap_under_address_limit()
{
    rlim_t address_space = 0;
    if (limited(RLIMIT_AS, address_space)) ::mallopt(M_ARENA_MAX, 1);
}

void require_address_space(std::uint64_t bytes, const std::string& what)
{
    rlim_t address_space = 0;
    if (!limited(RLIMIT_AS, address_space)) return;
    const std::uint64_t mapped = mapped_bytes();
    if (mapped == 0 || (mapped < address_space && address_space - mapped >= bytes)) return;
    const std::uint64_t left = mapped < address_space ? address_space - mapped : 0;
    throw std::runtime_error("out of memory " + what + ": " + std::to_string(left / 1024) +
                             " KiB of address space left, and the driver needs about " +
                             std::to_string(bytes >> 20) + " MiB for it; " + memory_limit_note());
}

}  // namespace sdk
