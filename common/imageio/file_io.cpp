// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/file_io.hpp"

#include "common/imageio/temporary_files.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sdk {
namespace {

std::string quoted(const std::filesystem::path& path)
{
    return "'" + path.string() + "'";
}

[[noreturn]] void fail(const char* action, const std::filesystem::path& path, int error)
{
    throw FileError(std::string(action) + " " + quoted(path) + ": " + std::strerror(error));
}

// Closes the descriptor on every path out of a function, including exceptions.
class FileDescriptor {
public:
    explicit FileDescriptor(int fd) : fd_(fd) {}
    ~FileDescriptor()
    {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    FileDescriptor(const FileDescriptor&) = delete;
    FileDescriptor& operator=(const FileDescriptor&) = delete;

    int get() const { return fd_; }
    // Returns close()'s errno (0 on success): on some file systems a failed write only shows
    // up here, and ignoring it would report success for a damaged file.
    int close()
    {
        const int result = ::close(fd_);
        fd_ = -1;
        return result == 0 ? 0 : errno;
    }

private:
    int fd_;
};

// mkstemp creates files with mode 0600; a plainly written file would get 0666 minus the umask,
// and outputs should not become private just because they were written atomically. umask can
// only be read by setting it, so do that once.
mode_t new_file_mode()
{
    static const mode_t mode = [] {
        const mode_t mask = ::umask(0);
        ::umask(mask);
        return static_cast<mode_t>(0666 & ~mask);
    }();
    return mode;
}

// Writes all bytes, retrying short writes and interrupted calls; returns errno or 0.
int write_all(int fd, const std::uint8_t* data, std::size_t size)
{
    while (size > 0) {
        const ssize_t written = ::write(fd, data, size);
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            return errno;
        }
        data += written;
        size -= static_cast<std::size_t>(written);
    }
    return 0;
}

// The file a chain of symbolic links ends at, there yet or not: weakly_canonical stops at a link
// to a missing file, and a rename over that spelling replaced the link itself. Links past
// SYMLOOP_MAX hops (a loop) are left for the open or rename to report.
std::filesystem::path through_links(std::filesystem::path path)
{
    std::error_code error;
    for (int hops = 0; hops < 40 && std::filesystem::is_symlink(path, error); ++hops) {
        const std::filesystem::path target = std::filesystem::read_symlink(path, error);
        if (error) break;
        path = target.is_absolute() ? target : path.parent_path() / target;
    }
    return path;
}

// Bytes a file name may have in `folder` (NAME_MAX, 255 on Linux's file systems).
std::size_t longest_name_in(const std::filesystem::path& folder)
{
    const long longest = ::pathconf(folder.c_str(), _PC_NAME_MAX);
    return longest > 0 ? static_cast<std::size_t>(longest) : 255;
}

}  // namespace

std::filesystem::path normalised(const std::filesystem::path& path)
{
    // Absolute first: weakly_canonical leaves a relative path none of whose parts exist
    // ("new.json") relative, so two files of one folder got different folders (and a commit
    // locked that folder twice, waiting on itself).
    std::error_code error;
    const auto absolute = std::filesystem::absolute(path, error);
    if (error) return path.lexically_normal();
    const auto resolved = std::filesystem::weakly_canonical(through_links(absolute), error);
    return error ? absolute.lexically_normal() : resolved;
}

std::vector<std::uint8_t> read_file(const std::filesystem::path& path)
{
    FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    if (file.get() < 0) {
        fail("cannot open", path, errno);
    }
    std::vector<std::uint8_t> bytes;
    struct stat info {};
    if (::fstat(file.get(), &info) == 0 && info.st_size > 0) {
        bytes.reserve(static_cast<std::size_t>(info.st_size));
    }
    // Read until end of file rather than trusting st_size: pipes and /proc files report 0.
    std::uint8_t chunk[65536];
    for (;;) {
        const ssize_t got = ::read(file.get(), chunk, sizeof chunk);
        if (got < 0) {
            if (errno == EINTR) {
                continue;
            }
            fail("cannot read", path, errno);
        }
        if (got == 0) {
            break;
        }
        bytes.insert(bytes.end(), chunk, chunk + got);
    }
    return bytes;
}

void write_file_atomically(const std::filesystem::path& path, const std::uint8_t* data,
                           std::size_t size)
{
    write_file_atomically(path, {ByteRange{data, size}});
}

void write_file_atomically(const std::filesystem::path& path,
                           std::initializer_list<ByteRange> pieces)
{
    AtomicFile file(path);
    for (const ByteRange& piece : pieces) file.write(piece.data, piece.size);
    file.commit();
}

TemporaryFile create_temporary_beside(const std::filesystem::path& path)
{
    // The temporary must live in the target's folder: rename is only atomic within one file
    // system. The leading dot keeps it out of casual directory listings.
    // ".NAME.tmp-XXXXXX" tells a user whose it is; a name too long to take that and OutputSet's
    // backup suffix (NAME_MAX counts bytes) gets its hash instead, so every legal name works.
    const std::filesystem::path folder = folder_of(path);
    const std::string name = path.filename().string();
    const std::string suffix = ".tmp-XXXXXX";
    const bool fits =
        1 + name.size() + suffix.size() + kBackupSuffix.size() <= longest_name_in(folder);
    char hashed[17];
    std::snprintf(hashed, sizeof hashed, "%016zx", std::hash<std::string>{}(name));
    std::string pattern = (folder / ("." + (fits ? name : std::string(hashed)) + suffix)).string();
    int fd = -1;
    int create_error = 0;
    {
        // Created and remembered with stopping signals held back: Ctrl-C between the two would
        // leave a temporary no handler knows of (seen in CI: a run stopped at its start).
        const SignalsDeferred signals;
        fd = ::mkstemp(pattern.data());
        create_error = errno;
        if (fd >= 0) remember_temporary(pattern);
    }
    if (fd < 0) fail("cannot write", path, create_error);
    if (::fchmod(fd, new_file_mode()) != 0) {
        const int error = errno;
        ::close(fd);
        remove_temporary(pattern);
        fail("cannot write", path, error);
    }
    return {pattern, fd};
}

void remove_temporary(const std::filesystem::path& temporary)
{
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    forget_temporary(temporary);
}

namespace {
std::atomic<ReservationLookup> reservation_lookup{nullptr};
}  // namespace

void set_reservation_lookup(ReservationLookup lookup)
{
    reservation_lookup.store(lookup);
}

AtomicFile::AtomicFile(const std::filesystem::path& path) : path_(path)
{
    ignore_file_size_signal();
    // Part of the run's output set: write the temporary it made; the set renames it.
    const ReservationLookup lookup = reservation_lookup.load();
    if (ReservedOutput* reserved = lookup ? lookup(path) : nullptr) {
        if (reserved->taken)
            throw std::logic_error("AtomicFile: " + quoted(path) + " opened twice");
        reserved->taken = true;
        reserved_ = reserved;
        temporary_ = reserved->temporary;
        fd_ = std::exchange(reserved->fd, -1);
        return;
    }
    const TemporaryFile temporary = create_temporary_beside(path);
    temporary_ = temporary.path;
    fd_ = temporary.fd;
}

AtomicFile::~AtomicFile()
{
    if (temporary_.empty()) return;  // committed, or never created
    if (fd_ >= 0) ::close(fd_);
    if (!reserved_) remove_temporary(temporary_);  // the set removes its own
}

void AtomicFile::discard_and_fail(int error)
{
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    if (!reserved_) remove_temporary(temporary_);
    temporary_.clear();
    fail("cannot write", path_, error);
}

namespace {

// Every 1 MiB written, the disk's writeback of it is started (and not waited for), so that the
// flush at the commit waits only for the file's last part: an output goes to the disk while the
// rest of it is computed and written, not all at the end. (An 8 MB BMP on this VM's disk: the
// flush 3.5 ms instead of 6.6 with 16 MiB, the write 2.7 instead of 2.2; 256 KiB was no better.)
constexpr std::uint64_t kWritebackEvery = std::uint64_t{1} << 20;

void start_writeback(int fd, std::uint64_t from, std::uint64_t bytes)
{
#if defined(__linux__)
    ::sync_file_range(fd, static_cast<off_t>(from), static_cast<off_t>(bytes),
                      SYNC_FILE_RANGE_WRITE);  // a hint: a failure shows at the flush
#else
    (void)fd, (void)from, (void)bytes;
#endif
}

}  // namespace

void AtomicFile::write(const void* data, std::size_t size)
{
    if (temporary_.empty()) throw std::logic_error("AtomicFile: write after commit");
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    // In pieces that end where a writeback starts, so that the disk takes each while the next
    // is copied, also within one large write.
    while (size > 0) {
        const std::size_t piece = static_cast<std::size_t>(
            std::min<std::uint64_t>(size, written_back_ + kWritebackEvery - written_));
        if (const int error = write_all(fd_, bytes, piece); error != 0) discard_and_fail(error);
        written_ += piece;
        bytes += piece;
        size -= piece;
        if (written_ - written_back_ >= kWritebackEvery) {
            start_writeback(fd_, written_back_, written_ - written_back_);
            written_back_ = written_;
        }
    }
}

namespace {

int flush_to_disk(int fd)
{
    // A file system that cannot (EINVAL: some FUSE and network ones) keeps what it can.
    return ::fdatasync(fd) == 0 || errno == EINVAL ? 0 : errno;
}

void flush_folder(const std::filesystem::path& folder)
{
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);  // the folder's entries, the renames among them; a hint where unsupported
    ::close(fd);
}

}  // namespace

std::filesystem::path folder_of(const std::filesystem::path& path)
{
    return path.has_parent_path() ? path.parent_path() : ".";
}

void AtomicFile::commit()
{
    if (temporary_.empty()) throw std::logic_error("AtomicFile: committed twice");
    // The data on the disk before any rename can show the file under its name: after a power
    // loss it is there whole or not at all. The flush, and close(), can report a failed write
    // that write() did not (a full disk found late; some file systems defer errors).
    if (const int error = flush_to_disk(fd_); error != 0) discard_and_fail(error);
    const int closed = ::close(fd_);
    fd_ = -1;
    if (closed != 0) discard_and_fail(errno);
    if (reserved_) {
        reserved_->complete = true;  // renamed with the rest of the set
    } else {
        std::error_code renamed;
        std::filesystem::rename(temporary_, path_, renamed);
        if (renamed) discard_and_fail(renamed.value());
        forget_temporary(temporary_);
        flush_folder(folder_of(path_));
    }
    temporary_.clear();
}

void refuse_overwriting_input(const std::filesystem::path& input,
                              const std::filesystem::path& output)
{
    bool same = false;
    std::error_code error;
    // equivalent() sees through every spelling, symbolic and hard link, but needs both files to
    // exist; when the output does not exist yet, compare the normalised absolute spellings.
    if (std::filesystem::exists(output, error) && std::filesystem::exists(input, error)) {
        same = std::filesystem::equivalent(input, output, error) && !error;
    }
    if (!same) {
        same = normalised(input) == normalised(output);
    }
    if (same) {
        throw FileError("refusing to write " + quoted(output) + ": it is the input file " +
                        quoted(input));
    }
}

std::filesystem::path with_suffix(const std::filesystem::path& path, const std::string& suffix)
{
    auto result = path;
    result.replace_filename(path.stem().string() + suffix + path.extension().string());
    return result;
}

}  // namespace sdk
