// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>

namespace sdk {

// An input file read in place, within limits: refused at once unless it is a regular file (a
// FIFO would hang, a device such as /dev/zero never ends), and read only where the caller's
// header says its data lies, so a huge or endless file costs nothing before it is refused.
class InputFile {
public:
    // Throws FileError naming the file: missing, unreadable, or not a regular file.
    explicit InputFile(const std::filesystem::path& path);
    ~InputFile();
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    const std::filesystem::path& path() const { return path_; }
    std::uint64_t size() const { return size_; }

    // Reads exactly `bytes` from `offset` into `destination` with a few large reads (straight
    // into the caller's memory: a mapped device buffer, say), split over this image's share of
    // the cores (threads_per_image) when large. Throws FileError when the file is shorter than
    // that, e.g. truncated while read.
    void read_at(std::uint64_t offset, void* destination, std::size_t bytes) const;
    // Up to `bytes` from the start (fewer if the file is shorter); returns how many were read.
    std::size_t read_prefix(void* destination, std::size_t bytes) const;
    // How many read system calls reached the file so far: each costs far more than the bytes
    // it moves when they are few (the tests check that decoders read in large pieces).
    std::uint64_t reads() const { return reads_; }

private:
    void read_serially(std::uint64_t offset, unsigned char* out, std::size_t bytes) const;

    std::filesystem::path path_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
    mutable std::atomic<std::uint64_t> reads_{0};  // read_at may split a read over threads
};

}  // namespace sdk
