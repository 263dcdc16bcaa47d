// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "common/runtime/device.hpp"
#include "common/runtime/opencl.hpp"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

namespace sdk {

// A PNG chunk's deflate block made on the device (png_deflate.cl; docs/png_deflate.md): the
// device counts the symbols, the host turns the counts into length-limited Huffman codes and the
// block's header (deflate_block.hpp), the device counts each cell's bits, scans them into each
// cell's first bit and packs every cell's codes in parallel; the host appends the end of the
// block. Bit for bit what deflate_chunk_reference writes. compress() is a ChunkCompressor
// (common/imageio/deflate_parallel.hpp) for any number of threads: one chunk at a time runs on
// the encoder's own queue, the others wait.
class PngDeflateEncoder {
public:
    explicit PngDeflateEncoder(const OpenClContext& cl);

    void compress(const std::uint8_t* input, std::size_t size, bool last,
                  std::vector<std::uint8_t>& out);

    // Why this device cannot run the encoder, or "" when it can: the packed words are read back
    // as bytes, so the device must store them little-endian, as deflate orders its bits.
    static std::string unavailable(const cl::Device& device);

private:
    void reserve(std::size_t size);

    OpenClContext cl_;
    cl::CommandQueue queue_;  // its own, so that chunks from worker threads never wait on others' work
    cl::Program program_;
    cl::Kernel count_symbols_;
    cl::Kernel count_cell_bits_;
    cl::Kernel scan_cell_bits_;
    cl::Kernel pack_cells_;
    std::size_t group_size_ = 0;  // count_symbols' and the per-cell kernels' work-group size
    std::size_t scan_group_size_ = 0;

    std::mutex mutex_;  // one chunk at a time on the buffers below
    std::size_t capacity_ = 0;  // bytes the buffers are sized for
    cl::Buffer bytes_;
    cl::Buffer histogram_;
    cl::Buffer codes_;
    cl::Buffer cell_bits_;
    cl::Buffer first_bit_;
    cl::Buffer words_;
};

}  // namespace sdk
