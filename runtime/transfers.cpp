#include "runtime/transfers.hpp"

#include "runtime/errors.hpp"

#include <climits>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace sdk {

std::string memory_mode_name(MemoryMode mode)
{
    switch (mode) {
    case MemoryMode::map: return "map";
    case MemoryMode::pinned: return "pinned";
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
    return {MemoryMode::pinned,
            "the device has memory of its own (no CL_DEVICE_HOST_UNIFIED_MEMORY), so copies "
            "from pinned host memory are fastest"};
}

void check_kernel_can_address(const OpenClContext& cl, std::uint64_t elements,
                              std::uint64_t bytes, const std::string& what)
{
    if (elements > static_cast<std::uint64_t>(INT_MAX))
        throw std::runtime_error(what + " is too large: the kernels address at most 2^31-1 "
                                        "elements of a buffer");
    check_fits_device(cl, bytes, what);
}

cl::Buffer create_image_buffer(const OpenClContext& cl, MemoryMode mode, cl_mem_flags kernel_access,
                               std::size_t bytes, const std::string& what)
{
    // In pinned and copy modes the device buffer is plain: only the host side differs.
    const cl_mem_flags flags = kernel_access | (mode == MemoryMode::map ? CL_MEM_ALLOC_HOST_PTR : 0);
    return while_doing("creating the " + std::to_string(bytes) + "-byte buffer for " + what,
                       [&] { return cl::Buffer(cl.context, flags, bytes); });
}

namespace {

// Maps the whole buffer, blocking, and unmaps it when done; errors name the buffer and size.
class MappedBuffer {
public:
    MappedBuffer(const OpenClContext& cl, const cl::Buffer& buffer, cl_map_flags flags,
                 std::size_t bytes, const std::string& what, Transfer& transfer)
        : cl_(cl), buffer_(buffer), what_(what), transfer_(transfer)
    {
        pointer_ = while_doing("mapping the " + std::to_string(bytes) + "-byte buffer for " + what,
                               [&] {
                                   return cl.queue.enqueueMapBuffer(buffer, CL_TRUE, flags, 0, bytes,
                                                                    nullptr, &transfer.start);
                               });
    }
    // Unmapping hands the memory back to the device; waiting makes the data visible there before
    // the caller goes on, as an explicit write would.
    void unmap()
    {
        while_doing("unmapping the buffer for " + what_, [&] {
            cl_.queue.enqueueUnmapMemObject(buffer_, pointer_, nullptr, &transfer_.end);
            transfer_.end.wait();
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
    Transfer& transfer_;
    void* pointer_ = nullptr;
};

// Copy mode: one write of the rows laid out at their pitch.
cl::Event write_pitched(const cl::CommandQueue& queue, const cl::Buffer& buffer, const void* host,
                        std::size_t row_bytes, std::size_t height, std::size_t row_pitch,
                        const std::string& what)
{
    // Rows are laid out at their pitch on the host first and sent in one plain write, not with
    // clEnqueueWriteBufferRect: oclgrind 21.10 marks a rectangle it has written as
    // uninitialised, which would drown its memory checks in false reports. The copy costs far
    // less than the transfer itself, and none when the width is already a multiple of 64.
    const auto* source = static_cast<const unsigned char*>(host);
    std::vector<unsigned char> staging;
    if (row_pitch != row_bytes) {
        staging.assign(row_pitch * height, 0);
        for (std::size_t y = 0; y < height; ++y)
            std::memcpy(staging.data() + y * row_pitch, source + y * row_bytes, row_bytes);
        source = staging.data();
    }
    cl::Event event;
    while_doing("uploading " + what, [&] {
        // Blocking only when the staging copy must outlive the transfer.
        queue.enqueueWriteBuffer(buffer, staging.empty() ? CL_FALSE : CL_TRUE, 0,
                                 row_pitch * height, source, nullptr, &event);
    });
    return event;
}

// Copy mode: one rectangular read, blocking.
cl::Event read_pitched(const cl::CommandQueue& queue, const cl::Buffer& buffer, void* host,
                       std::size_t row_bytes, std::size_t height, std::size_t row_pitch,
                       const std::string& what)
{
    cl::Event event;
    while_doing("reading back " + what, [&] {
        queue.enqueueReadBufferRect(buffer, CL_TRUE, {0, 0, 0}, {0, 0, 0},
                                    {row_bytes, height, 1}, row_pitch, row_pitch * height, row_bytes,
                                     row_bytes * height, host,
                                    nullptr, &event);
    });
    return event;
}

// A host-visible buffer the driver pins: the host side of pinned-mode transfers.
cl::Buffer create_pinned_staging(const OpenClContext& cl, std::size_t bytes, const std::string& what)
{
    return while_doing("creating the " + std::to_string(bytes) + "-byte pinned staging buffer for " +
                           what,
                       [&] {
                           return cl::Buffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                             bytes);
                       });
}

// Tight host rows laid out at their pitch, padding zeroed so it is never undefined (the
// kernels never read it for results).
void lay_out_rows(unsigned char* destination, const void* host, std::size_t row_bytes,
                  std::size_t height, std::size_t row_pitch)
{
    const auto* source = static_cast<const unsigned char*>(host);
    for (std::size_t y = 0; y < height; ++y) {
        std::memcpy(destination + y * row_pitch, source + y * row_bytes, row_bytes);
        std::memset(destination + y * row_pitch + row_bytes, 0, row_pitch - row_bytes);
    }
}

}  // namespace

Transfer upload_rows(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                 const void* host, std::size_t row_bytes, std::size_t height,
                 std::size_t row_pitch, const std::string& what)
{
    Transfer transfer;
    const std::size_t bytes = row_pitch * height;
    if (mode == MemoryMode::copy) {
        transfer.start = transfer.end =
            write_pitched(cl.queue, buffer, host, row_bytes, height, row_pitch, what);
        transfer.end.wait();
        return transfer;
    }
    if (mode == MemoryMode::pinned) {
        const cl::Buffer staging = create_pinned_staging(cl, bytes, what);
        Transfer mapping;
        MappedBuffer pinned(cl, staging, CL_MAP_WRITE_INVALIDATE_REGION, bytes, what, mapping);
        lay_out_rows(pinned.bytes(), host, row_bytes, height, row_pitch);
        while_doing("uploading " + what, [&] {
            cl.queue.enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, pinned.bytes(), nullptr,
                                        &transfer.end);
        });
        transfer.start = transfer.end;
        return transfer;
    }
    // Invalidate: the old contents need not be fetched, only the new ones written.
    MappedBuffer mapped(cl, buffer, CL_MAP_WRITE_INVALIDATE_REGION, bytes, what, transfer);
    lay_out_rows(mapped.bytes(), host, row_bytes, height, row_pitch);
    mapped.unmap();
    return transfer;
}

Transfer download_rows(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer, void* host,
                   std::size_t row_bytes, std::size_t height, std::size_t row_pitch,
                   const std::string& what)
{
    Transfer transfer;
    auto* destination = static_cast<unsigned char*>(host);
    if (mode == MemoryMode::copy) {
        transfer.start = transfer.end =
            read_pitched(cl.queue, buffer, host, row_bytes, height, row_pitch, what);
        return transfer;
    }
    if (mode == MemoryMode::pinned) {
        const std::size_t bytes = row_pitch * height;
        const cl::Buffer staging = create_pinned_staging(cl, bytes, what);
        Transfer mapping;
        MappedBuffer pinned(cl, staging, CL_MAP_WRITE_INVALIDATE_REGION, bytes, what, mapping);
        while_doing("reading back " + what, [&] {
            cl.queue.enqueueReadBuffer(buffer, CL_TRUE, 0, bytes, pinned.bytes(), nullptr,
                                       &transfer.end);
        });
        transfer.start = transfer.end;
        for (std::size_t y = 0; y < height; ++y)
            std::memcpy(destination + y * row_bytes, pinned.bytes() + y * row_pitch, row_bytes);
        return transfer;
    }
    MappedBuffer mapped(cl, buffer, CL_MAP_READ, row_pitch * height, what, transfer);
    for (std::size_t y = 0; y < height; ++y)
        std::memcpy(destination + y * row_bytes, mapped.bytes() + y * row_pitch, row_bytes);
    mapped.unmap();
    return transfer;
}

StagedBuffer::StagedBuffer(const OpenClContext& cl, MemoryMode mode, cl_mem_flags kernel_access,
                           std::size_t bytes, const std::string& what)
    : cl_(cl), mode_(mode), bytes_(bytes), what_(what)
{
    if (mode == MemoryMode::automatic)
        throw std::logic_error("StagedBuffer needs map, pinned or copy: resolve auto first");
    device_ = create_image_buffer(cl, mode, kernel_access, bytes, what);
    if (mode == MemoryMode::pinned) {
        staging_ = create_pinned_staging(cl, bytes, what);
        // Mapped once for the buffer's life: the pointer is what the copy engines read from.
        mapped_ = map(staging_, CL_MAP_READ | CL_MAP_WRITE, nullptr);
    } else if (mode == MemoryMode::copy) {
        pageable_.resize(bytes);
    }
}

StagedBuffer::~StagedBuffer()
{
    if (!mapped_) return;
    try {
        cl::Event unmapped;
        cl_.queue.enqueueUnmapMemObject(mode_ == MemoryMode::pinned ? staging_ : device_, mapped_,
                                        nullptr, &unmapped);
        unmapped.wait();
    } catch (...) {  // already failing, or the context is going: nothing left to hand back
    }
}

void* StagedBuffer::map(const cl::Buffer& buffer, cl_map_flags flags, cl::Event* event)
{
    return while_doing("mapping the " + std::to_string(bytes_) + "-byte buffer for " + what_, [&] {
        return cl_.queue.enqueueMapBuffer(buffer, CL_TRUE, flags, 0, bytes_, nullptr, event);
    });
}

unsigned char* StagedBuffer::host()
{
    if (mode_ == MemoryMode::copy) return pageable_.data();
    if (!mapped_) mapped_ = map(device_, CL_MAP_READ | CL_MAP_WRITE, nullptr);
    return static_cast<unsigned char*>(mapped_);
}

Transfer StagedBuffer::to_device()
{
    Transfer transfer;
    while_doing("uploading " + what_, [&] {
        if (mode_ == MemoryMode::map) {
            if (!mapped_) return;  // nothing written by the host since the device had it
            cl_.queue.enqueueUnmapMemObject(device_, mapped_, nullptr, &transfer.end);
            mapped_ = nullptr;
        } else {
            cl_.queue.enqueueWriteBuffer(device_, CL_FALSE, 0, bytes_, host(), nullptr,
                                         &transfer.end);
        }
        transfer.end.wait();
    });
    transfer.start = transfer.end;
    return transfer;
}

Transfer StagedBuffer::to_host()
{
    Transfer transfer;
    while_doing("reading back " + what_, [&] {
        if (mode_ == MemoryMode::map) {
            if (!mapped_) mapped_ = map(device_, CL_MAP_READ | CL_MAP_WRITE, &transfer.end);
        } else {
            cl_.queue.enqueueReadBuffer(device_, CL_TRUE, 0, bytes_, host(), nullptr,
                                        &transfer.end);
        }
    });
    transfer.start = transfer.end;
    return transfer;
}

}  // namespace sdk
