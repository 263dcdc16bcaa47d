// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "common/imageio/deflate_parallel.hpp"
#include "common/imageio/image.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/opencl.hpp"

#include <cstddef>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace sdk {

// A PNG chunk's deflate block made on the device (png_deflate.cl; docs/png_deflate.md): the
// device counts the symbols, the host turns the counts into length-limited Huffman codes and the
// block's header (deflate_block.hpp), the device counts each cell's bits, scans them into each
// cell's first bit and packs every cell's codes in parallel; the host appends the end of the
// block. Bit for bit what deflate_chunk_reference writes for the same filtered rows.
// compress_rows() is a PngRowsEncoder for any number of threads: each chunk takes one of a few
// lanes (a queue, its kernels and buffers), so that one chunk's transfers and host steps overlap
// another's kernels; a thread waits while every lane is busy.
class PngDeflateEncoder {
public:
    explicit PngDeflateEncoder(const OpenClContext& cl, std::size_t lanes = kDefaultLanes);
    // The same with png_deflate.cl's program already built on `cl`'s context (two encoders on
    // one context then build it once).
    PngDeflateEncoder(const OpenClContext& cl, const cl::Program& program,
                      std::size_t lanes = kDefaultLanes);
    ~PngDeflateEncoder();
    PngDeflateEncoder(const PngDeflateEncoder&) = delete;
    PngDeflateEncoder& operator=(const PngDeflateEncoder&) = delete;

    // Rows [first_row, first_row + count) of `image`, filtered on the device with Up as the PNG
    // writer filters (filter_png_rows_up), appended to `out` as deflate blocks (one, unless the
    // device's largest allocation holds fewer rows; the last one final when `last`), returning the
    // Adler-32 of the filtered rows, computed on the device per cell: a PngRowsEncoder
    // (common/imageio/png_writer.hpp).
    std::uint32_t compress_rows(const Image& image, std::size_t first_row, std::size_t count,
                                bool last, std::vector<std::uint8_t>& out);

    // Why this device cannot run the encoder, or "" when it can: the packed words are read back
    // as bytes, so the device must store them little-endian, as deflate orders its bits; and
    // count_symbols needs its histogram in local memory (device_limits, lowered or not).
    static std::string unavailable(const cl::Device& device);

    // How the PNG writer should cut an image for this encoder (png_writer.hpp): chunks of
    // kChunkBytes, as many in flight as there are lanes. A chunk costs a few round trips to the
    // host whatever its size, so the chunks are far larger than the host's zlib chunks.
    DeflateChunking chunking() const
    {
        return {block_bytes_, static_cast<unsigned>(lanes_.size())};
    }

    // Eight chunks of 8 MiB in flight: a camera photo is two chunks, a 16384x16384 image 32. On
    // a discrete GPU, fewer lanes or smaller chunks left the device waiting on round trips, and
    // larger ones gained nothing (docs/png_deflate.md). The buffers take about 4 times a chunk a
    // lane, 256 MiB with every lane in use; a lane allocates only when it is first used.
    static constexpr std::size_t kDefaultLanes = 8;
    static constexpr std::size_t kChunkBytes = std::size_t{8} << 20;

private:
    struct Lane;
    // Runs `work` on a free lane, waiting for one; the lane is free again however it ends.
    template <typename Work>
    auto on_a_lane(const Work& work);
    // compress_rows for rows whose buffers fit the device's largest allocation: one block.
    std::uint32_t compress_block(const Image& image, std::size_t first_row, std::size_t count,
                                 bool last, std::vector<std::uint8_t>& out);
    // The block of the `size` bytes already in the lane's chunk buffer.
    void compress_in(Lane& lane, std::size_t size, bool last, std::vector<std::uint8_t>& out);

    OpenClContext cl_;
    cl::Program program_;
    std::size_t group_size_ = 0;  // count_symbols' and the per-cell kernels' work-group size
    std::size_t scan_group_size_ = 0;
    // A block's bytes at most: kChunkBytes, less where the device allocates less (device_limits).
    std::size_t block_bytes_ = 0;

    std::mutex mutex_;
    std::condition_variable lane_freed_;
    std::vector<std::unique_ptr<Lane>> lanes_;
    std::vector<Lane*> free_lanes_;
};

}  // namespace sdk
