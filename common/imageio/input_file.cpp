// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/input_file.hpp"

#include "common/imageio/cores.hpp"
#include "common/imageio/file_io.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <vector>

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

void InputFile::read_serially(std::uint64_t offset, unsigned char* out, std::size_t bytes) const
{
    // Large reads, each at most 1 GiB (Linux moves at most about 2 GiB per call).
    constexpr std::size_t kMaxRead = std::size_t{1} << 30;
    while (bytes > 0) {
        const ssize_t got =
            ::pread(fd_, out, std::min(bytes, kMaxRead), static_cast<off_t>(offset));
        ++reads_;
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

void InputFile::read_at(std::uint64_t offset, void* destination, std::size_t bytes) const
{
    auto* out = static_cast<unsigned char*>(destination);
    // A read from the page cache is a memory copy the kernel does on the calling thread: one
    // thread moves far less than the memory can (docs/history.md). Large reads are split over
    // threads in pieces of at least 4 MiB, each thread copying its own piece. The threads are
    // this image's share of the cores (threads_per_image), with no fixed ceiling: the 4 MiB a
    // piece already keeps a thread's start (tens of microseconds) small beside its copy.
    constexpr std::size_t kMinPiece = std::size_t{4} << 20;
    const std::size_t threads = std::min<std::size_t>(threads_per_image(), bytes / kMinPiece);
    if (threads < 2) {
        read_serially(offset, out, bytes);
        return;
    }
    const std::size_t piece = (bytes + threads - 1) / threads;
    std::vector<std::thread> readers;
    std::vector<std::exception_ptr> errors(threads);
    for (std::size_t t = 0; t < threads; ++t) {
        const std::size_t begin = t * piece;
        const std::size_t size = std::min(piece, bytes - std::min(bytes, begin));
        readers.emplace_back([&, t, begin, size] {
            try {
                read_serially(offset + begin, out + begin, size);
            } catch (...) {
                errors[t] = std::current_exception();
            }
        });
    }
    for (auto& reader : readers) reader.join();
    // The earliest failing piece's error: "ends at byte N" then names the first missing byte.
    for (const auto& error : errors) {
        if (error) std::rethrow_exception(error);
    }
}

std::size_t InputFile::read_prefix(void* destination, std::size_t bytes) const
{
    const std::size_t available = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, size_));
    read_at(0, destination, available);
    return available;
}

}  // namespace sdk
