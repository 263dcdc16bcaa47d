// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/imageio/input_file.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sdk {

// Where a streaming decoder (libpng, libjpeg) takes its bytes from, in order: a buffer in memory
// (tests, the fuzzer) or a file read in place in large pieces, so that a file's compressed bytes
// are never all held in memory at once. Both kinds end at a known size.
class ByteSource {
public:
    ByteSource(const std::uint8_t* data, std::size_t size) : data_(data), size_(data ? size : 0) {}
    explicit ByteSource(const InputFile& file) : file_(&file), size_(file.size()) {}

    std::uint64_t size() const { return size_; }
    std::uint64_t position() const { return position_; }

    // Copies up to `bytes` from the current position into `destination` and moves past them;
    // returns how many were copied, fewer only at the end. Throws FileError if the file cannot
    // be read. From a file, small reads are served from a read-ahead of kReadAhead bytes:
    // libpng asks for each chunk's header, data and CRC apart, and a file of tiny chunks would
    // otherwise cost a system call for every few bytes.
    std::size_t read(void* destination, std::size_t bytes);

    static constexpr std::size_t kReadAhead = 64 * 1024;

private:
    const std::uint8_t* data_ = nullptr;
    const InputFile* file_ = nullptr;
    std::uint64_t size_ = 0;
    std::uint64_t position_ = 0;
    // The file's bytes [ahead_start_, ahead_start_ + read_ahead_.size()), read before asked for.
    std::vector<std::uint8_t> read_ahead_;
    std::uint64_t ahead_start_ = 0;
};

}  // namespace sdk
