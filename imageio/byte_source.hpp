#pragma once
#include "imageio/input_file.hpp"

#include <cstddef>
#include <cstdint>

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
    // be read.
    std::size_t read(void* destination, std::size_t bytes);

private:
    const std::uint8_t* data_ = nullptr;
    const InputFile* file_ = nullptr;
    std::uint64_t size_ = 0;
    std::uint64_t position_ = 0;
};

}  // namespace sdk
