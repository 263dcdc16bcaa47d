// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/output_set.hpp"

#include "common/imageio/file_io.hpp"
#include "common/imageio/temporary_files.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <system_error>
#include <thread>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sdk {
namespace {

// The sets alive now: one for a single run, one per photo in flight in a batch, each on its
// own thread, so AtomicFile finds its path's set under a lock.
std::mutex live_sets_lock;
std::vector<OutputSet*> live_sets;

std::string quoted(const std::filesystem::path& path)
{
    return "'" + path.string() + "'";
}

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& why)
{
    throw FileError("cannot write " + quoted(path) + ": " + why);
}

// Outputs replace regular files or nothing: rename() over a device node, a FIFO or a /proc
// link would replace the node itself (as root, `-o /dev/null` would destroy /dev/null).
void refuse_non_regular(const std::filesystem::path& output)
{
    struct stat info {};
    if (::stat(output.c_str(), &info) != 0) {
        // A loop of symbolic links names no file: renamed over, the link itself was replaced.
        if (errno == ELOOP) fail(output, std::strerror(ELOOP));
        return;  // nothing there yet (or a dangling link)
    }
    if (S_ISREG(info.st_mode)) return;
    fail(output, S_ISDIR(info.st_mode) ? "it is a folder"
                                       : "it is not a regular file (a device, FIFO or socket)");
}

// Holds an exclusive flock() on each folder the set writes into, in one fixed order (so two
// runs cannot each hold one and wait for the other), for the few renames of a commit. A folder
// is known by its device and inode, not its spelling: locked twice ("." and "/home/me", or
// through a bind mount), the second flock() would wait for ever on the first.
//
// The wait is bounded: another run holds a folder's lock only for its renames, while a lock held
// longer is someone else's, such as the shell's `flock . sample ...` that serialises jobs, which
// the run itself is waiting under; waited on without limit, it hung for ever. Past kLongestWait
// the renames go ahead unlocked: each is still atomic, only the set's against another run's not.
class FolderLocks {
public:
    static constexpr std::chrono::seconds kLongestWait{2};

    explicit FolderLocks(const std::set<std::filesystem::path>& folders)
    {
        std::map<std::pair<dev_t, ino_t>, int> opened;  // sorted: the fixed order
        for (const auto& folder : folders) {
            const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            if (fd < 0) continue;  // the renames will report what is wrong with it
            struct stat info {};
            if (::fstat(fd, &info) != 0 ||
                !opened.emplace(std::pair(info.st_dev, info.st_ino), fd).second)
                ::close(fd);
        }
        for (const auto& [identity, fd] : opened) fds_.push_back(fd);
        const auto give_up = std::chrono::steady_clock::now() + kLongestWait;
        for (const int fd : fds_) {
            while (::flock(fd, LOCK_EX | LOCK_NB) != 0 &&
                   (errno == EWOULDBLOCK || errno == EINTR)) {
                if (std::chrono::steady_clock::now() > give_up) {
                    std::cerr << program_invocation_short_name
                              << ": an output folder stayed locked by another process (a `flock` "
                                 "around the run?): its files are renamed into place unlocked\n";
                    return;
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
            }
        }
    }
    ~FolderLocks()
    {
        for (const int fd : fds_) ::close(fd);  // closing releases the lock
    }
    FolderLocks(const FolderLocks&) = delete;
    FolderLocks& operator=(const FolderLocks&) = delete;

    // The folders' entries to the disk, the commit's renames among them: after a power loss each
    // output is under its name as the renames left it. A hint where unsupported.
    void flush() const
    {
        for (const int fd : fds_) ::fsync(fd);
    }

private:
    std::vector<int> fds_;
};

}  // namespace

OutputSet::OutputSet(const std::vector<std::filesystem::path>& inputs,
                     const std::vector<std::filesystem::path>& outputs,
                     const std::vector<std::filesystem::path>& create_folders)
{
    try {
        std::set<std::filesystem::path> targets;
        for (const auto& output : outputs) {
            if (output.empty()) fail(output, "an empty path names no file");
            for (const auto& input : inputs) refuse_overwriting_input(input, output);
            refuse_non_regular(output);
            if (!targets.insert(normalised(output)).second)
                fail(output, "the run would write it twice");
        }
        for (const auto& folder : create_folders) {
            // Each level that is missing, outermost first, so that each one made is known and
            // none is left behind by a run that writes nothing (or is stopped by a signal).
            std::vector<std::filesystem::path> missing;
            std::error_code error;
            // (A link counts as there, dangling or not: nothing is made through it.)
            for (auto level = folder;
                 !level.empty() &&
                 !std::filesystem::exists(std::filesystem::symlink_status(level, error));
                 level = level.parent_path()) {
                missing.insert(missing.begin(), level);
                if (level == level.parent_path()) break;
            }
            for (const auto& level : missing) {
                // Made and remembered with stopping signals held back, as a temporary is
                // (create_temporary_beside): a signal between the two left the folder behind.
                const SignalsDeferred signals;
                if (!std::filesystem::create_directory(level, error)) break;
                remember_created_folder(level);
                created_folders_.push_back(level);
            }
            if (!error && !std::filesystem::is_directory(folder, error) && !error)
                error = std::make_error_code(std::errc::not_a_directory);
            if (error)
                throw FileError("cannot create the folder " + quoted(folder) + ": " +
                                error.message());
        }
        for (const auto& output : outputs) {
            const auto folder = output.parent_path();
            if (!folder.empty() && !std::filesystem::is_directory(folder))
                fail(output, "folder " + quoted(folder) + " does not exist");
            auto file = std::make_unique<ReservedOutput>();
            file->target = normalised(output);  // through a symbolic link to the file it names
            const TemporaryFile temporary = create_temporary_beside(file->target);
            file->temporary = temporary.path;
            file->fd = temporary.fd;
            files_.push_back(std::move(file));
        }
    } catch (...) {
        discard();
        throw;
    }
    set_reservation_lookup(&OutputSet::reserved_for);  // AtomicFile's way to this set
    const std::lock_guard<std::mutex> hold(live_sets_lock);
    live_sets.push_back(this);
}

OutputSet::~OutputSet()
{
    {
        const std::lock_guard<std::mutex> hold(live_sets_lock);
        live_sets.erase(std::remove(live_sets.begin(), live_sets.end(), this), live_sets.end());
    }
    discard();
}

void OutputSet::discard() noexcept
{
    for (const auto& file : files_) {
        if (file->fd >= 0) ::close(file->fd);
        remove_temporary(file->temporary);
    }
    files_.clear();
    // Only folders this run made, and only if still empty: nothing of the user's is removed.
    for (auto folder = created_folders_.rbegin(); folder != created_folders_.rend(); ++folder) {
        std::error_code ignored;
        if (std::filesystem::is_empty(*folder, ignored)) std::filesystem::remove(*folder, ignored);
        forget_created_folder(*folder);
    }
    created_folders_.clear();
}

ReservedOutput* OutputSet::reserved_for(const std::filesystem::path& path)
{
    const std::filesystem::path target = normalised(path);
    const std::lock_guard<std::mutex> hold(live_sets_lock);
    for (const OutputSet* set : live_sets) {
        for (const auto& file : set->files_) {
            if (file->target == target) return file.get();
        }
    }
    return nullptr;
}

void OutputSet::commit()
{
    for (const auto& file : files_) {
        if (!file->complete)
            throw std::logic_error("OutputSet: " + quoted(file->target) + " was not written");
    }
    std::set<std::filesystem::path> folders;
    for (const auto& file : files_) folders.insert(folder_of(file->target));
    const FolderLocks locks(folders);
    const SignalsDeferred signals;

    // Keep each previous file under a second name (a hard link: no copy), so a rename that
    // fails half-way can put back what the earlier ones replaced.
    std::vector<std::filesystem::path> backups(files_.size());
    const auto remove_backups = [&] {
        for (const auto& backup : backups) {
            if (!backup.empty()) remove_temporary(backup);
        }
    };
    for (std::size_t i = 0; i < files_.size(); ++i) {
        const auto backup = files_[i]->temporary.string() + std::string(kBackupSuffix);
        if (::link(files_[i]->target.c_str(), backup.c_str()) == 0) {
            remember_temporary(backup);
            backups[i] = backup;
        } else if (errno != ENOENT) {
            const int error = errno;
            remove_backups();
            fail(files_[i]->target, std::strerror(error));
        }
    }
    // Each rename lands on a free name: the previous file, kept by its backup link, loses its
    // name first. Renaming over an existing file would make ext4 write the new file back to
    // disk before rename() returns (auto_da_alloc, its guard against empty files after a power
    // loss): 140-180 ms for a 256 MB output, measured, which a user re-running a sample over its
    // last output.bmp would wait for every time. Each file's data is on the disk already
    // (AtomicFile::commit flushed it, its writeback started as it was written), so after a power
    // loss an output is whole or absent; the cost is a moment in which the target has no file, the
    // previous one still under its backup name.
    for (std::size_t i = 0; i < files_.size(); ++i) {
        const bool freed = !backups[i].empty() && ::unlink(files_[i]->target.c_str()) == 0;
        if (::rename(files_[i]->temporary.c_str(), files_[i]->target.c_str()) == 0) continue;
        const int error = errno;
        if (freed) {  // the previous file back under its name
            ::rename(backups[i].c_str(), files_[i]->target.c_str());
            forget_temporary(backups[i]);
            backups[i].clear();
        }
        for (std::size_t j = 0; j < i; ++j) {  // undo the renames done so far
            if (!backups[j].empty()) {
                ::rename(backups[j].c_str(), files_[j]->target.c_str());
                forget_temporary(backups[j]);
                backups[j].clear();
            } else {
                ::unlink(files_[j]->target.c_str());
            }
        }
        remove_backups();
        fail(files_[i]->target, std::strerror(error));
    }
    remove_backups();
    locks.flush();
    for (const auto& file : files_) forget_temporary(file->temporary);
    files_.clear();
    for (const auto& folder : created_folders_) forget_created_folder(folder);
    created_folders_.clear();
}

}  // namespace sdk
