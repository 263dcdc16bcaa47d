// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace sdk {

// Thrown when a file cannot be read or written; what() is one line naming the file and the
// reason, e.g. "cannot open 'x': No such file or directory".
class FileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Reads the whole file into memory.
std::vector<std::uint8_t> read_file(const std::filesystem::path& path);

// Writes through a temporary file in the same folder that is then renamed over `path`, so a
// reader (or a crash half-way) never sees a partly written output.
void write_file_atomically(const std::filesystem::path& path, const std::uint8_t* data,
                           std::size_t size);

// The same for a file made of several pieces (a header, then pixel rows held elsewhere), written
// in order with no copy into one buffer first.
struct ByteRange {
    const std::uint8_t* data;
    std::size_t size;
};
void write_file_atomically(const std::filesystem::path& path,
                           std::initializer_list<ByteRange> pieces);

// "out.bmp" + "-dX" -> "out-dX.bmp": the naming of a run's secondary output files.
// The folder `path` is in ("." for a bare name).
std::filesystem::path folder_of(const std::filesystem::path& path);

std::filesystem::path with_suffix(const std::filesystem::path& path, const std::string& suffix);

// The spelling of `path` with symbolic links, "." and ".." resolved as far as the file system
// allows; falls back to pure text rules when the file system cannot be asked.
std::filesystem::path normalised(const std::filesystem::path& path);

// What OutputSet appends to a temporary's name for the previous file's backup; temporaries
// leave room for it.
inline constexpr std::string_view kBackupSuffix = ".previous";

// A new empty file beside `path` (in its folder, so renaming it over `path` is atomic), named
// ".NAME.tmp-XXXXXX" (".HASH.tmp-XXXXXX" for a NAME within 21 bytes of NAME_MAX) with the mode a
// plainly created file would get, and remembered for removal on a stopping signal
// (temporary_files.hpp). Throws FileError naming `path`.
struct TemporaryFile {
    std::filesystem::path path;
    int fd;
};
TemporaryFile create_temporary_beside(const std::filesystem::path& path);
void remove_temporary(const std::filesystem::path& temporary);  // and forget it

// What OutputSet keeps for one output; AtomicFile takes the descriptor and reports completion.
struct ReservedOutput {
    std::filesystem::path target;     // the file that will be replaced (links followed)
    std::filesystem::path temporary;  // where it is written meanwhile
    int fd = -1;                      // open on `temporary` until an AtomicFile takes it
    bool taken = false;
    bool complete = false;  // written and closed without error
};

// How AtomicFile finds the reservation for its path. OutputSet, which sits above this file,
// hands its lookup in when a set is made; until then no path is reserved.
using ReservationLookup = ReservedOutput* (*)(const std::filesystem::path& path);
void set_reservation_lookup(ReservationLookup lookup);

// A file written piece by piece through a temporary in its folder, created at once (so an
// unwritable folder fails before any work), and renamed over `path` by commit(). Destroyed
// without commit() (an error, an exception), it removes the temporary and the previous file
// stays as it was. Throws FileError naming `path`. When `path` belongs to the run's OutputSet
// (output_set.hpp), the set's temporary is written, and commit() only completes it: the set
// renames all its files together.
class AtomicFile {
public:
    explicit AtomicFile(const std::filesystem::path& path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(const void* data, std::size_t size);
    void commit();
    std::uint64_t bytes_written() const { return written_; }

private:
    [[noreturn]] void discard_and_fail(int error);

    std::filesystem::path path_;
    std::filesystem::path temporary_;  // empty once committed or discarded
    int fd_ = -1;
    std::uint64_t written_ = 0;           // bytes written so far
    std::uint64_t written_back_ = 0;      // of which the disk's writeback has been started
    ReservedOutput* reserved_ = nullptr;  // the set's entry, when part of one
};

// Throws FileError when `output` names the same file as `input`, however either is spelled;
// writing the result over the source would destroy the only copy of the input.
void refuse_overwriting_input(const std::filesystem::path& input,
                              const std::filesystem::path& output);

}  // namespace sdk
