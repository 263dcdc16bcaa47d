#pragma once
#include "runtime/device.hpp"
#include "runtime/opencl.hpp"

#include <cstdint>
#include <string>

namespace sdk {

// How image data crosses between host and device (--memory):
//   map   buffers created with CL_MEM_ALLOC_HOST_PTR; the host writes inputs and reads outputs
//         through mapped pointers. Where the GPU shares memory with the CPU (Mali, Adreno,
//         integrated GPUs, PoCL) nothing is copied at all: the Mali SDK's way.
//   copy  plain device buffers filled and read with explicit writes and reads: the fast path to
//         a discrete GPU's own memory.
//   automatic  map where the device reports CL_DEVICE_HOST_UNIFIED_MEMORY, copy otherwise.
enum class MemoryMode { automatic, map, copy };

struct MemoryChoice {
    MemoryMode mode = MemoryMode::copy;  // map or copy, never automatic
    std::string reason;                   // printed by the samples
};

MemoryChoice choose_memory_mode(MemoryMode requested, const cl::Device& device);
std::string memory_mode_name(MemoryMode mode);

// A device buffer for `bytes` of image data, allocated as `mode` wants; `kernel_access` is
// CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY or CL_MEM_READ_WRITE.
cl::Buffer create_image_buffer(const OpenClContext& cl, MemoryMode mode, cl_mem_flags kernel_access,
                               std::size_t bytes, const std::string& what);

// Host rows of `row_bytes` (tightly packed) into a device buffer whose rows are `row_pitch` bytes
// apart, or back. Both return when the data has arrived (the host memory may be reused at once).
// In map mode the rows are copied straight into or out of the mapped buffer: no staging copy.
void upload_rows(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                 const void* host, std::size_t row_bytes, std::size_t height,
                 std::size_t row_pitch, const std::string& what);
void download_rows(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer, void* host,
                   std::size_t row_bytes, std::size_t height, std::size_t row_pitch,
                   const std::string& what);

}  // namespace sdk
