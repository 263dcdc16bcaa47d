#include "runtime/transfers.hpp"

#include "runtime/errors.hpp"
#include "runtime/pitched_image.hpp"

#include <cstring>

namespace sdk {

std::string memory_mode_name(MemoryMode mode)
{
    switch (mode) {
    case MemoryMode::map: return "map";
    case MemoryMode::copy: return "copy";
    case MemoryMode::automatic: break;
    }
    return "auto";
}

MemoryChoice choose_memory_mode(MemoryMode requested, const cl::Device& device)
{
    if (requested != MemoryMode::automatic)
        return {requested, "asked for with --memory " + memory_mode_name(requested)};
    // Deprecated in OpenCL 2.0 but still answered by every driver we know, and the only
    // portable way to ask whether device and host share memory.
    const bool unified = while_doing("asking whether the device shares host memory", [&] {
        return device.getInfo<CL_DEVICE_HOST_UNIFIED_MEMORY>() == CL_TRUE;
    });
    if (unified)
        return {MemoryMode::map,
                "the device shares memory with the host (CL_DEVICE_HOST_UNIFIED_MEMORY), so "
                "mapping copies nothing"};
    return {MemoryMode::copy,
            "the device has memory of its own (no CL_DEVICE_HOST_UNIFIED_MEMORY), so explicit "
            "copies into it are fastest"};
}

cl::Buffer create_image_buffer(const OpenClContext& cl, MemoryMode mode, cl_mem_flags kernel_access,
                               std::size_t bytes, const std::string& what)
{
    const cl_mem_flags flags = kernel_access | (mode == MemoryMode::map ? CL_MEM_ALLOC_HOST_PTR : 0);
    return while_doing("creating the " + std::to_string(bytes) + "-byte buffer for " + what,
                       [&] { return cl::Buffer(cl.context, flags, bytes); });
}

namespace {

// Maps the whole buffer, blocking, and unmaps it when done; errors name the buffer and size.
class MappedBuffer {
public:
    MappedBuffer(const OpenClContext& cl, const cl::Buffer& buffer, cl_map_flags flags,
                 std::size_t bytes, const std::string& what)
        : cl_(cl), buffer_(buffer), what_(what)
    {
        pointer_ = while_doing("mapping the " + std::to_string(bytes) + "-byte buffer for " + what,
                               [&] {
                                   return cl.queue.enqueueMapBuffer(buffer, CL_TRUE, flags, 0, bytes);
                               });
    }
    // Unmapping hands the memory back to the device; waiting makes the data visible there before
    // the caller goes on, as an explicit write would.
    void unmap()
    {
        cl::Event unmapped;
        while_doing("unmapping the buffer for " + what_, [&] {
            cl_.queue.enqueueUnmapMemObject(buffer_, pointer_, nullptr, &unmapped);
            unmapped.wait();
        });
        pointer_ = nullptr;
    }
    ~MappedBuffer()
    {
        if (!pointer_) return;
        try {
            unmap();
        } catch (...) {  // already failing: the first error is the one to report
        }
    }
    MappedBuffer(const MappedBuffer&) = delete;
    MappedBuffer& operator=(const MappedBuffer&) = delete;
    unsigned char* bytes() const { return static_cast<unsigned char*>(pointer_); }

private:
    const OpenClContext& cl_;
    const cl::Buffer& buffer_;
    std::string what_;
    void* pointer_ = nullptr;
};

}  // namespace

void upload_rows(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                 const void* host, std::size_t row_bytes, std::size_t height,
                 std::size_t row_pitch, const std::string& what)
{
    if (mode != MemoryMode::map) {
        write_pitched(cl.queue, buffer, host, row_bytes, height, row_pitch, what).wait();
        return;
    }
    // Invalidate: the old contents need not be fetched, only the new ones written.
    MappedBuffer mapped(cl, buffer, CL_MAP_WRITE_INVALIDATE_REGION, row_pitch * height, what);
    const auto* source = static_cast<const unsigned char*>(host);
    for (std::size_t y = 0; y < height; ++y) {
        std::memcpy(mapped.bytes() + y * row_pitch, source + y * row_bytes, row_bytes);
        // The pitch's padding is never read for results, but written so it is never undefined.
        std::memset(mapped.bytes() + y * row_pitch + row_bytes, 0, row_pitch - row_bytes);
    }
    mapped.unmap();
}

void download_rows(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer, void* host,
                   std::size_t row_bytes, std::size_t height, std::size_t row_pitch,
                   const std::string& what)
{
    if (mode != MemoryMode::map) {
        read_pitched(cl.queue, buffer, host, row_bytes, height, row_pitch, what);
        return;
    }
    MappedBuffer mapped(cl, buffer, CL_MAP_READ, row_pitch * height, what);
    auto* destination = static_cast<unsigned char*>(host);
    for (std::size_t y = 0; y < height; ++y)
        std::memcpy(destination + y * row_bytes, mapped.bytes() + y * row_pitch, row_bytes);
    mapped.unmap();
}

}  // namespace sdk
