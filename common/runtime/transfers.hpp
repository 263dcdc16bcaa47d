// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/device.hpp"
#include "common/runtime/opencl.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <functional>

namespace sdk {

// The one way image data crosses between host and device; every filter uses it.

// How image data crosses (--memory):
//   map   buffers created with CL_MEM_ALLOC_HOST_PTR; the host writes inputs and reads outputs
//         through mapped pointers. Where the GPU shares memory with the CPU (Mali, Adreno,
//         integrated GPUs, PoCL) nothing is copied at all: the Mali SDK's way.
//   pinned  plain device buffers filled and read with explicit writes and reads whose host side
//         is a mapped CL_MEM_ALLOC_HOST_PTR staging buffer: memory the driver has pinned, which
//         a discrete GPU's copy engines reach directly, at the host link's full speed (NVIDIA's
//         and AMD's guides teach it). Host data is read or decoded straight into the staging.
//   copy  plain device buffers filled and read with explicit writes and reads from ordinary
//         (pageable) host memory, which the driver copies through a pinned buffer of its own.
//   automatic  map where the device reports CL_DEVICE_HOST_UNIFIED_MEMORY, pinned otherwise.
enum class MemoryMode { automatic, map, pinned, copy };

struct MemoryChoice {
    MemoryMode mode = MemoryMode::copy;  // map or copy, never automatic
    std::string reason;                  // printed by the samples
};

MemoryChoice choose_memory_mode(MemoryMode requested, const cl::Device& device);
std::string memory_mode_name(MemoryMode mode);

// [Row pitch]
// On the device, an image's rows start `row_pitch` bytes apart, a multiple of 64: every row then
// begins on a cache-line boundary, and a kernel's 16-byte vector of pixels x0 .. x0+15 (x0 a
// multiple of 16) is aligned, so it moves in one wide access instead of byte by byte. Host
// images stay tightly packed; the transfers below convert between the two layouts.
constexpr std::size_t row_alignment = 64;

inline std::size_t pitch_for(std::size_t row_bytes)
{
    return (row_bytes + row_alignment - 1) / row_alignment * row_alignment;
}
// [Row pitch]

// The one size guard: kernels index with 32-bit ints, the fast type on every GPU, so a buffer of
// more than 2^31-1 `elements` (pixels, floats, words: whatever its kernels index) is refused, and
// so is one of more `bytes` than the device allocates at once. `what` names the image
// ("an image of 300x200").
void check_kernel_can_address(const OpenClContext& cl, std::uint64_t elements, std::uint64_t bytes,
                              const std::string& what);

// A device buffer for `bytes` of image data, allocated as `mode` wants; `kernel_access` is
// CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY or CL_MEM_READ_WRITE. A CPU device's map-mode buffer of
// 4 MB and more is advised onto huge pages (2 MB on x86-64 and arm64 Linux) before anything
// touches it: such a device's buffers are the process's own memory, and in 4 KB pages the first
// write to each page is a fault (6,000 for a 3264x2448 BMP's 24 MB of rows) and the exit frees
// each page again. Only advice: the kernel may still use small pages (transparent huge pages
// turned off, no free 2 MB of memory).
cl::Buffer create_image_buffer(const OpenClContext& cl, MemoryMode mode, cl_mem_flags kernel_access,
                               std::size_t bytes, const std::string& what);

// A transfer's first and last commands, for timing it from its events: in map mode the map and
// the unmap, in copy mode the write or read (both events the same).
struct Transfer {
    cl::Event start;
    cl::Event end;
};

// The bytes of `buffer` from host memory, or into it, `bytes` of them from offset 0. Both
// return when the data has arrived; the events time the whole transfer.
//   map     the buffer (created for map mode) is mapped and the host copies into or out of it.
//   pinned  through two small pinned chunks, alternating: the host fills (or empties) one while
//           the copy engine moves the other, so the host-side copy and the link overlap, and
//           only the chunks are pinned, once per context, not the whole image.
//   copy    one write or read from the host memory as it is.
// download_bytes hands each piece to `consume(data, offset, size)` in order as it arrives (a
// file writer, say), so the host never holds the whole result at once in pinned mode.
Transfer upload_bytes(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                      const void* host, std::size_t bytes, const std::string& what);
using ConsumeBytes =
    std::function<void(const unsigned char* data, std::size_t offset, std::size_t size)>;
// The upload's dual: `produce(host, offset, size)` writes the pieces straight into the memory
// the transfer moves (a file read straight into a mapped buffer, say), in order. In map mode it
// is called once, with the whole mapped buffer: nothing is copied.
using ProduceBytes = std::function<void(unsigned char* host, std::size_t offset, std::size_t size)>;
Transfer upload_produced(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                         std::size_t bytes, const ProduceBytes& produce, const std::string& what);
Transfer download_bytes(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                        std::size_t bytes, const ConsumeBytes& consume, const std::string& what);

// The pinned chunks' largest size: large enough that each transfer runs at the link's full
// speed, small enough that pinning two costs little.
constexpr std::size_t pinned_chunk_bytes = std::size_t{32} << 20;
// How many pairs of pinned chunks `cl`'s context has made (at most 4, however many transfers are
// under way at once: the others wait for a pair handed back).
std::size_t pinned_chunk_pairs(const OpenClContext& cl);
// Unmaps and releases `cl`'s pinned chunks, which otherwise live as long as the process and keep
// its context alive: a single run calls it when it is done with the device, so that the
// context, released next, stops the device within the run (DeviceRun's destructor). Throws
// std::logic_error while a transfer holds a pair.
void release_pinned_chunks(const OpenClContext& cl);
// How many rows `row_pitch` bytes apart the largest pinned chunk holds (at least one).
inline std::size_t rows_in_a_pinned_chunk(std::size_t row_pitch)
{
    return row_pitch == 0 ? 1 : std::max<std::size_t>(1, pinned_chunk_bytes / row_pitch);
}

// Host rows of `row_bytes` (tightly packed) into a device buffer whose rows are `row_pitch` bytes
// apart, or back. Both return when the data has arrived (the host memory may be reused at once).
// In map mode the rows are copied straight into or out of the mapped buffer: no staging copy.
Transfer upload_rows(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                     const void* host, std::size_t row_bytes, std::size_t height,
                     std::size_t row_pitch, const std::string& what);
Transfer download_rows(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                       void* host, std::size_t row_bytes, std::size_t height, std::size_t row_pitch,
                       const std::string& what);

// upload_produced for rows: `produce(first_row, rows, host)` writes rows [first_row, first_row +
// rows) at `host`, `row_pitch` bytes apart, straight into the memory the transfer moves, a piece
// at a time in order (pinned mode: a chunk's rows while the previous chunk is on its way; map
// mode: every row into the mapped buffer at once).
using ProduceRows =
    std::function<void(std::size_t first_row, std::size_t rows, unsigned char* host)>;
Transfer upload_rows_produced(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                              std::size_t height, std::size_t row_pitch, const ProduceRows& produce,
                              const std::string& what);
// Rows of `row_bytes` from tightly packed `host` to `destination`, `row_pitch` bytes apart, the
// bytes between them zeroed.
void lay_out_rows(unsigned char* destination, const void* host, std::size_t row_bytes,
                  std::size_t height, std::size_t row_pitch);

}  // namespace sdk
