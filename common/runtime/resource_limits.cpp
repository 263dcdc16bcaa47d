// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/resource_limits.hpp"

#include <algorithm>
#include <fstream>
#include <optional>
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

// The descriptors open below `limit`, counted with fcntl, which needs no descriptor of its own
// (listing /proc/self/fd does).
rlim_t open_files(rlim_t limit)
{
    rlim_t open = 0;
    for (rlim_t fd = 0; fd < limit; ++fd) open += ::fcntl(static_cast<int>(fd), F_GETFD) != -1;
    return open;
}

// The first number in a file such as a cgroup's memory.max; nothing for "max" or no file.
std::optional<std::uint64_t> number_in(const std::string& path)
{
    std::ifstream file(path);
    std::uint64_t value = 0;
    if (!(file >> value)) return std::nullopt;
    return value;
}

// The value of `key` in a cgroup's memory.stat ("inactive_file 123456"); 0 where it is missing.
std::uint64_t stat_in(const std::string& path, const std::string& key)
{
    std::ifstream file(path);
    std::string name;
    std::uint64_t value = 0;
    while (file >> name >> value)
        if (name == key) return value;
    return 0;
}

}  // namespace

std::optional<std::uint64_t> left_in_cgroup(const std::string& cgroup_file,
                                            const std::string& mount)
{
    std::ifstream cgroups(cgroup_file);
    std::string line;
    std::optional<std::uint64_t> least;
    while (std::getline(cgroups, line)) {
        const std::size_t first = line.find(':'), second = line.find(':', first + 1);
        if (first == std::string::npos || second == std::string::npos) continue;
        const std::string controllers = line.substr(first + 1, second - first - 1);
        const bool v2 = line.compare(0, first, "0") == 0 && controllers.empty();
        if (!v2 && controllers != "memory") continue;
        const std::string root = v2 ? mount : mount + "/memory";
        std::string path = line.substr(second + 1);
        for (;;) {
            const std::string folder = root + (path == "/" ? "" : path) + "/";
            const auto limit = number_in(folder + (v2 ? "memory.max" : "memory.limit_in_bytes"));
            const auto used = number_in(folder + (v2 ? "memory.current" : "memory.usage_in_bytes"));
            if (limit && used && *limit < (std::uint64_t{1} << 62)) {
                const std::uint64_t cache =
                    stat_in(folder + "memory.stat", v2 ? "inactive_file" : "total_inactive_file");
                const std::uint64_t in_use = *used > cache ? *used - cache : 0;
                const std::uint64_t left = *limit > in_use ? *limit - in_use : 0;
                if (!least || left < *least) least = left;
            }
            if (path.empty() || path == "/") break;
            path = path.substr(0, path.rfind('/'));
            if (path.empty()) path = "/";
        }
    }
    return least;
}

std::string open_files_limit_note()
{
    rlim_t limit = 0;
    if (!limited(RLIMIT_NOFILE, limit)) return "this process has no limit on open files";
    std::string note =
        "this process may have " + std::to_string(limit) + " files open at once (ulimit -n)";
    if (limit <= 65536) note += " and has " + std::to_string(open_files(limit)) + " open";
    return note;
}

std::uint64_t files_free()
{
    rlim_t limit = 0;
    if (!limited(RLIMIT_NOFILE, limit) || limit > 65536) return 0;
    const rlim_t open = open_files(limit);
    return open < limit ? limit - open : 0;
}

MemoryRoom memory_room()
{
    MemoryRoom room;
    // A bound with nothing left is kept as 1 byte: 0 says that nothing is known.
    const auto take = [&room](std::uint64_t bytes, const char* set_by) {
        if (room.bytes == 0 || bytes < room.bytes) room = {bytes, set_by};
    };
    if (const std::uint64_t kib = available_memory_kib()) {
        take(kib * 1024, "available");
    } else {
        // No /proc/meminfo: the free pages alone (the caches not counted).
        const long pages = ::sysconf(_SC_AVPHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
        if (pages > 0 && page > 0)
            take(static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page), "free");
    }
    if (const auto left = left_in_cgroup())
        take(std::max<std::uint64_t>(*left, 1), "left in this cgroup");
    rlim_t address_space = 0;
    if (limited(RLIMIT_AS, address_space)) {
        const std::uint64_t mapped = mapped_bytes();
        take(std::max<std::uint64_t>(mapped < address_space ? address_space - mapped : 0, 1),
             "left under ulimit -v");
    }
    return room;
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
