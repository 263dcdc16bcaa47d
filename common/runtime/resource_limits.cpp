#include "common/runtime/resource_limits.hpp"

#include <fstream>
#include <string>

#include <fcntl.h>
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

std::string out_of_memory_message(const std::string& what, std::uint64_t bytes)
{
    std::string message = "out of memory";
    if (bytes) message += " allocating " + std::to_string(bytes) + " bytes";
    if (!what.empty()) message += " for " + what;
    if (bytes == 0 && what.empty()) message += " (a host allocation failed)";
    if (const std::string limit = memory_limit_note(); !limit.empty())
        return message + "; " + limit;
    if (const std::uint64_t available = available_memory_kib())
        return message + "; the machine has " + std::to_string(available / 1024) +
               " MiB available";
    return message;
}

}  // namespace sdk
