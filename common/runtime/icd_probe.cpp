// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/icd_probe.hpp"

#include "common/runtime/resource_limits.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <dirent.h>
#include <dlfcn.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <unistd.h>

namespace sdk {

namespace {

const std::string kNoPlatform = "no OpenCL platform found";

bool out_of_descriptors(int error)
{
    return error == EMFILE || error == ENFILE;
}

std::string descriptors_message(const std::string& what, int error)
{
    return kNoPlatform + ": out of file descriptors, the OpenCL loader could not open " + what +
           " (" + std::strerror(error) + "); " + open_files_limit_note();
}

// An .icd file's first line: the driver library's name or path. `open_error` is errno when the
// file could not be opened, else 0.
struct NamedLibrary {
    std::string library;
    int open_error = 0;
};
NamedLibrary library_named_in(const std::string& icd_file)
{
    const int fd = ::open(icd_file.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return {"", errno};
    char text[4096];
    const ssize_t size = ::read(fd, text, sizeof text - 1);
    ::close(fd);
    std::string name(text, static_cast<std::size_t>(std::max<ssize_t>(size, 0)));
    name = name.substr(0, name.find_first_of("\r\n"));
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    return {name, 0};
}

// What loading `icd_file`'s driver shows: empty when it loads (or the file names none).
std::string load_failure(const std::string& icd_file)
{
    const NamedLibrary named = library_named_in(icd_file);
    if (out_of_descriptors(named.open_error))
        return descriptors_message(icd_file, named.open_error);
    if (named.library.empty()) return "";
    // RTLD_LAZY | RTLD_LOCAL, as the loader opens it.
    void* handle = ::dlopen(named.library.c_str(), RTLD_LAZY | RTLD_LOCAL);
    if (handle) {
        ::dlclose(handle);
        return "";
    }
    const char* reason = ::dlerror();
    const std::string why = reason ? reason : "dlopen failed";
    const std::string driver = named.library + " (named in " + icd_file + ")";
    // dlerror() gives text only: the errno's words are in it.
    for (const int error : {EMFILE, ENFILE}) {
        if (why.find(std::strerror(error)) != std::string::npos)
            return descriptors_message("the driver " + driver, error);
    }
    if (why.find("failed to map segment") != std::string::npos ||
        why.find(std::strerror(ENOMEM)) != std::string::npos) {
        const std::string limit = memory_limit_note();
        return kNoPlatform + ": out of memory loading the driver " + driver + " (" + why + ")" +
               (limit.empty() ? "" : "; " + limit);
    }
    return kNoPlatform + ": the driver " + driver + " cannot be loaded (" + why + ")";
}

}  // namespace

std::string explain_missing_platform()
{
    const char* vendors = std::getenv("OCL_ICD_VENDORS");
    const bool chosen = vendors && *vendors;
    const std::string where = chosen ? vendors : "/etc/OpenCL/vendors";
    const std::string install = kNoPlatform +
                                ": install a driver (e.g. Debian's pocl-opencl-icd) or point " +
                                "OCL_ICD_VENDORS at its .icd file";
    const std::string none_there =
        install + (chosen ? " (OCL_ICD_VENDORS=" + where + " names no .icd file)" : "");

    std::error_code error;
    if (std::filesystem::is_regular_file(where, error)) {
        const std::string failure = load_failure(where);
        return failure.empty() ? install : failure;
    }
    // The folder stays open while its files are read and their drivers loaded, as in the loader:
    // with descriptors short, that is what fails.
    const std::unique_ptr<DIR, int (*)(DIR*)> folder(::opendir(where.c_str()), ::closedir);
    if (!folder) {
        if (out_of_descriptors(errno)) return descriptors_message(where, errno);
        return none_there;
    }
    std::vector<std::string> icd_files;
    while (const dirent* entry = ::readdir(folder.get())) {
        const std::string name = entry->d_name;
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".icd") == 0)
            icd_files.push_back((std::filesystem::path(where) / name).string());
    }
    if (icd_files.empty()) return none_there;
    std::sort(icd_files.begin(), icd_files.end());
    for (const std::string& icd_file : icd_files) {
        if (std::string failure = load_failure(icd_file); !failure.empty()) return failure;
    }
    // Every driver loads, yet none gave a platform: it failed inside (a GPU driver opens its
    // device files and maps memory as it starts). A limit set on the process is the likely cause.
    std::string limits;
    if (rlimit files{}; ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur <= 256)
        limits = open_files_limit_note();
    if (const std::string memory = memory_limit_note(); !memory.empty())
        limits += (limits.empty() ? "" : "; ") + memory;
    return kNoPlatform + ": the driver named in " + icd_files.front() +
           (icd_files.size() > 1 ? " (and the others there)" : "") +
           " loads but reports no platform" +
           (limits.empty() ? " (is its device present, and its kernel module loaded?)"
                           : "; " + limits);
}

}  // namespace sdk
