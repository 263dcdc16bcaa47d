#include "imageio/input_file.hpp"

#include "imageio/file_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sdk {
namespace {

[[noreturn]] void fail(const std::string& what, const std::filesystem::path& path,
                       const std::string& why)
{
    throw FileError(what + " '" + path.string() + "': " + why);
}

const char* kind_of(mode_t mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

}  // namespace

InputFile::InputFile(const std::filesystem::path& path) : path_(path)
{
    // O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever, before fstat could
    // say what it is. It changes nothing for regular files.
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd_ < 0) fail("cannot open", path, std::strerror(errno));
    struct stat info {};
    if (::fstat(fd_, &info) != 0) {
        const int error = errno;
        ::close(fd_);
        fail("cannot read", path, std::strerror(error));
    }
    if (!S_ISREG(info.st_mode)) {
        ::close(fd_);
        fail("cannot read", path, std::string(kind_of(info.st_mode)) + ", not a regular file");
    }
    size_ = static_cast<std::uint64_t>(info.st_size);
}

InputFile::~InputFile()
{
    if (fd_ >= 0) ::close(fd_);
}

void InputFile::read_at(std::uint64_t offset, void* destination, std::size_t bytes) const
{
    auto* out = static_cast<unsigned char*>(destination);
    // Large reads, each at most 1 GiB (Linux moves at most about 2 GiB per call).
    constexpr std::size_t kMaxRead = std::size_t{1} << 30;
    while (bytes > 0) {
        const ssize_t got = ::pread(fd_, out, std::min(bytes, kMaxRead), static_cast<off_t>(offset));
        if (got < 0) {
            if (errno == EINTR) continue;
            fail("cannot read", path_, std::strerror(errno));
        }
        if (got == 0)
            fail("cannot read", path_,
                 "the file ends at byte " + std::to_string(offset) + ", " + std::to_string(bytes) +
                     " bytes short of what its header declares (truncated?)");
        out += got;
        offset += static_cast<std::uint64_t>(got);
        bytes -= static_cast<std::size_t>(got);
    }
}

std::size_t InputFile::read_prefix(void* destination, std::size_t bytes) const
{
    const std::size_t available = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, size_));
    read_at(0, destination, available);
    return available;
}

}  // namespace sdk
