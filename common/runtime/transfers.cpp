// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/transfers.hpp"

#include "common/runtime/errors.hpp"

#include <algorithm>
#include <climits>
#include <condition_variable>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace sdk {

std::string memory_mode_name(MemoryMode mode)
{
    switch (mode) {
        case MemoryMode::map:
            return "map";
        case MemoryMode::pinned:
            return "pinned";
        case MemoryMode::copy:
            return "copy";
        case MemoryMode::automatic:
            break;
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

void check_kernel_can_address(const OpenClContext& cl, std::uint64_t elements, std::uint64_t bytes,
                              const std::string& what)
{
    if (elements > static_cast<std::uint64_t>(INT_MAX))
        throw std::runtime_error(what +
                                 " is too large: the kernels address at most 2^31-1 "
                                 "elements of a buffer");
    check_fits_device(cl, bytes, what);
}

namespace {

// create_image_buffer's huge pages (transfers.hpp): map the new buffer once, advise, unmap.
void advise_huge_pages(const OpenClContext& cl, const cl::Buffer& buffer, std::size_t bytes,
                       const std::string& what)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::size_t kHugePage = std::size_t{2} << 20;
    // Below two huge pages there may be no whole one inside; a GPU's memory is the driver's.
    if (bytes < 2 * kHugePage || !(cl.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU))
        return;
    cl::Event mapped, unmapped;
    void* host = while_doing("mapping the new buffer for " + what, [&] {
        return cl.queue.enqueueMapBuffer(buffer, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0, bytes,
                                         nullptr, &mapped);
    });
    cl.record("map " + what + " for huge pages", mapped);
    const auto start = reinterpret_cast<std::uintptr_t>(host);
    const std::uintptr_t first = (start + kHugePage - 1) / kHugePage * kHugePage;
    const std::uintptr_t end = (start + bytes) / kHugePage * kHugePage;
    // Advice only: memory the kernel cannot back with huge pages refuses it, and that is fine.
    if (end > first) ::madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE);
    while_doing("unmapping the new buffer for " + what, [&] {
        cl.queue.enqueueUnmapMemObject(buffer, host, nullptr, &unmapped);
        cl.record("unmap " + what + " for huge pages", unmapped);
        unmapped.wait();
    });
#else
    (void)cl, (void)buffer, (void)bytes, (void)what;
#endif
}

}  // namespace

cl::Buffer create_image_buffer(const OpenClContext& cl, MemoryMode mode, cl_mem_flags kernel_access,
                               std::size_t bytes, const std::string& what)
{
    // In pinned and copy modes the device buffer is plain: only the host side differs.
    const cl_mem_flags flags =
        kernel_access | (mode == MemoryMode::map ? CL_MEM_ALLOC_HOST_PTR : 0);
    cl::Buffer buffer =
        while_doing("creating the " + std::to_string(bytes) + "-byte buffer for " + what,
                    [&] { return cl::Buffer(cl.context, flags, bytes); });
    if (mode == MemoryMode::map) advise_huge_pages(cl, buffer, bytes, what);
    return buffer;
}

namespace {

// Maps the whole buffer, blocking, and unmaps it when done; errors name the buffer and size.
class MappedBuffer {
public:
    MappedBuffer(const OpenClContext& cl, const cl::Buffer& buffer, cl_map_flags flags,
                 std::size_t bytes, const std::string& what, Transfer& transfer)
        : cl_(cl), buffer_(buffer), what_(what), transfer_(transfer)
    {
        pointer_ =
            while_doing("mapping the " + std::to_string(bytes) + "-byte buffer for " + what, [&] {
                return cl.queue.enqueueMapBuffer(buffer, CL_TRUE, flags, 0, bytes, nullptr,
                                                 &transfer.start);
            });
        cl.record("map " + what, transfer.start);
    }
    // Unmapping hands the memory back to the device; waiting makes the data visible there before
    // the caller goes on, as an explicit write would.
    void unmap()
    {
        while_doing("unmapping the buffer for " + what_, [&] {
            cl_.queue.enqueueUnmapMemObject(buffer_, pointer_, nullptr, &transfer_.end);
            cl_.record("unmap " + what_, transfer_.end);
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
    // clEnqueueWriteBufferRect: oclgrind marks a rectangle it has written as
    // uninitialised, which would drown its memory checks in false reports. The copy costs far
    // less than the transfer itself, and none when the width is already a multiple of 64.
    const auto* source = static_cast<const unsigned char*>(host);
    std::vector<unsigned char> staging;
    if (row_pitch != row_bytes) {
        while_allocating(row_pitch * height, "staging " + what,
                         [&] { staging.assign(row_pitch * height, 0); });
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
        queue.enqueueReadBufferRect(buffer, CL_TRUE, {0, 0, 0}, {0, 0, 0}, {row_bytes, height, 1},
                                    row_pitch, row_pitch * height, row_bytes, row_bytes * height,
                                    host, nullptr, &event);
    });
    return event;
}

// Two pinned host buffers, mapped once: the host side of every pinned-mode transfer. Pinning
// host memory takes time in proportion to its size, so a context gets one small pair, kept for
// the life of the process (never released: releasing OpenCL objects from static destructors
// races the runtime's own teardown at exit). Each chunk holds a quarter of the largest transfer
// so far, up to pinned_chunk_bytes: half of a transfer is pinned, not twice it, and the host
// fills one chunk while the link moves the other. Small images pin little (oclgrind, which
// tracks every byte of every buffer, slows down on each launch for each megabyte held).
// A batch's photos in flight share one context (reuse_contexts): a context keeps up to
// kMostPinnedPairs pairs, each lent to one transfer at a time, and a transfer that finds them all
// lent waits for one rather than pin more. Pinning is slow and serialised in the driver, so
// pairs made for every photo in flight cost more than the short wait for one handed back.
struct PinnedChunks {
    cl::Buffer buffers[2];
    unsigned char* host[2] = {nullptr, nullptr};
    std::size_t bytes = 0;
    bool lent = false;
};
constexpr std::size_t kMostPinnedPairs = 4;

// Every context's pairs, and the lock and the signal that lend them.
struct PinnedPairs {
    std::map<cl_context, std::vector<std::unique_ptr<PinnedChunks>>> by_context;
    std::mutex lock;
    std::condition_variable handed_back;
};
PinnedPairs& pinned_pairs()
{
    static auto* pairs = new PinnedPairs;  // never destroyed, as the buffers are never released
    return *pairs;
}

class PinnedChunksLease {
public:
    PinnedChunksLease(const OpenClContext& cl, std::size_t transfer_bytes)
    {
        PinnedPairs& every = pinned_pairs();
        lock_ = &every.lock;
        handed_back_ = &every.handed_back;
        {
            std::unique_lock<std::mutex> hold(every.lock);
            auto& pairs = every.by_context[cl.context()];
            const auto free = [&] {
                return std::find_if(pairs.begin(), pairs.end(),
                                    [](const auto& pair) { return !pair->lent; });
            };
            every.handed_back.wait(
                hold, [&] { return free() != pairs.end() || pairs.size() < kMostPinnedPairs; });
            const auto found = free();
            chunks_ = found != pairs.end()
                          ? found->get()
                          : pairs.emplace_back(std::make_unique<PinnedChunks>()).get();
            chunks_->lent = true;
        }
        try {
            grow(cl, transfer_bytes);
        } catch (...) {
            give_back();
            throw;
        }
    }
    ~PinnedChunksLease() { give_back(); }
    PinnedChunksLease(const PinnedChunksLease&) = delete;
    PinnedChunksLease& operator=(const PinnedChunksLease&) = delete;

    PinnedChunks& chunks() const { return *chunks_; }

private:
    void give_back()
    {
        {
            const std::lock_guard<std::mutex> hold(*lock_);
            chunks_->lent = false;
        }
        handed_back_->notify_one();
    }

    void grow(const OpenClContext& cl, std::size_t transfer_bytes)
    {
        PinnedChunks& chunks = *chunks_;
        // A quarter of the transfer: half of it pinned in the pair, not twice it. Whole megabytes,
        // so that a slightly larger photo does not make the chunks again; under a megabyte whole
        // pages, so that a small image holds a few pages, not two megabytes (oclgrind, above,
        // then ran every later launch of the process many times slower).
        constexpr std::size_t kMegabyte = std::size_t{1} << 20;
        constexpr std::size_t kPage = 4096;
        const std::size_t quarter = std::max<std::size_t>(transfer_bytes / 4, 1);
        const std::size_t granule = quarter < kMegabyte ? kPage : kMegabyte;
        const std::size_t wanted =
            std::min(pinned_chunk_bytes, (quarter + granule - 1) / granule * granule);
        if (chunks.bytes >= wanted) return;
        while_doing("creating and mapping the pinned staging chunks", [&] {
            for (int i = 0; i < 2; ++i) {
                if (chunks.host[i])
                    cl.queue.enqueueUnmapMemObject(chunks.buffers[i], chunks.host[i]);
                chunks.host[i] = nullptr;
                chunks.buffers[i] =
                    cl::Buffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, wanted);
                chunks.host[i] = static_cast<unsigned char*>(cl.queue.enqueueMapBuffer(
                    chunks.buffers[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, wanted));
            }
            chunks.bytes = wanted;
        });
    }

    PinnedChunks* chunks_ = nullptr;
    std::mutex* lock_ = nullptr;
    std::condition_variable* handed_back_ = nullptr;
};

enum class Direction { upload, download };

// Moves `bytes` between `buffer` and the pinned chunks, a chunk of whole `unit`s (rows) at a
// time, alternating between the two chunks. Uploads: `host_side` fills a chunk, then its write
// is enqueued and the other chunk is filled meanwhile. Downloads: the next chunk's read is
// enqueued before `host_side` empties the current one.
Transfer through_pinned_chunks(
    const OpenClContext& cl, Direction direction, const cl::Buffer& buffer, std::size_t bytes,
    std::size_t unit, const std::string& what,
    const std::function<void(unsigned char*, std::size_t, std::size_t)>& host_side)
{
    const PinnedChunksLease lease(cl, bytes);
    PinnedChunks& chunks = lease.chunks();
    const std::size_t step = std::max<std::size_t>(1, chunks.bytes / unit) * unit;
    if (step > chunks.bytes)
        throw std::invalid_argument("a row of " + std::to_string(unit) +
                                    " bytes is larger than a pinned chunk");
    Transfer transfer;
    cl::Event in_flight[2];
    auto enqueue = [&](std::size_t offset, int slot) {
        const std::size_t size = std::min(step, bytes - offset);
        if (direction == Direction::upload)
            cl.queue.enqueueWriteBuffer(buffer, CL_FALSE, offset, size, chunks.host[slot], nullptr,
                                        &in_flight[slot]);
        else
            cl.queue.enqueueReadBuffer(buffer, CL_FALSE, offset, size, chunks.host[slot], nullptr,
                                       &in_flight[slot]);
        cl.record((direction == Direction::upload ? "write " : "read ") + what + ", chunk " +
                      std::to_string(offset / step + 1),
                  in_flight[slot]);
        if (offset == 0) transfer.start = in_flight[slot];
        transfer.end = in_flight[slot];
    };
    const std::string doing =
        (direction == Direction::upload ? "uploading " : "reading back ") + what;
    // [Pinned chunks]
    while_doing(doing, [&] {
        if (direction == Direction::upload) {
            for (std::size_t offset = 0, k = 0; offset < bytes; offset += step, ++k) {
                const int slot = static_cast<int>(k % 2);
                if (in_flight[slot]()) in_flight[slot].wait();  // its last write has read it
                host_side(chunks.host[slot], offset, std::min(step, bytes - offset));
                enqueue(offset, slot);
            }
        } else {
            if (bytes > 0) enqueue(0, 0);
            for (std::size_t offset = 0, k = 0; offset < bytes; offset += step, ++k) {
                const int slot = static_cast<int>(k % 2);
                if (offset + step < bytes) enqueue(offset + step, 1 - slot);
                in_flight[slot].wait();
                host_side(chunks.host[slot], offset, std::min(step, bytes - offset));
            }
        }
        if (transfer.end()) transfer.end.wait();
    });
    // [Pinned chunks]
    return transfer;
}

// Tight host rows laid out at their pitch, padding zeroed so it is never undefined (the
// kernels never read it for results).
}  // namespace

void release_pinned_chunks(const OpenClContext& cl)
{
    PinnedPairs& every = pinned_pairs();
    std::vector<std::unique_ptr<PinnedChunks>> released;
    {
        const std::lock_guard<std::mutex> hold(every.lock);
        const auto pairs = every.by_context.find(cl.context());
        if (pairs == every.by_context.end()) return;
        if (std::any_of(pairs->second.begin(), pairs->second.end(),
                        [](const auto& pair) { return pair->lent; }))
            throw std::logic_error("release_pinned_chunks: a transfer still holds a pair");
        released = std::move(pairs->second);
        every.by_context.erase(pairs);
    }
    while_doing("releasing the pinned staging chunks", [&] {
        for (const auto& chunks : released)
            for (int i = 0; i < 2; ++i)
                if (chunks->host[i])
                    cl.queue.enqueueUnmapMemObject(chunks->buffers[i], chunks->host[i]);
        cl.queue.finish();
    });
}

std::size_t pinned_chunk_pairs(const OpenClContext& cl)
{
    PinnedPairs& every = pinned_pairs();
    const std::lock_guard<std::mutex> hold(every.lock);
    const auto pairs = every.by_context.find(cl.context());
    return pairs == every.by_context.end() ? 0 : pairs->second.size();
}

void lay_out_rows(unsigned char* destination, const void* host, std::size_t row_bytes,
                  std::size_t height, std::size_t row_pitch)
{
    const auto* source = static_cast<const unsigned char*>(host);
    for (std::size_t y = 0; y < height; ++y) {
        std::memcpy(destination + y * row_pitch, source + y * row_bytes, row_bytes);
        std::memset(destination + y * row_pitch + row_bytes, 0, row_pitch - row_bytes);
    }
}

Transfer upload_rows(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                     const void* host, std::size_t row_bytes, std::size_t height,
                     std::size_t row_pitch, const std::string& what)
{
    Transfer transfer;
    const std::size_t bytes = row_pitch * height;
    if (mode == MemoryMode::copy) {
        transfer.start = transfer.end =
            write_pitched(cl.queue, buffer, host, row_bytes, height, row_pitch, what);
        cl.record("write " + what, transfer.end);
        transfer.end.wait();
        return transfer;
    }
    if (mode == MemoryMode::pinned) {
        const auto* source = static_cast<const unsigned char*>(host);
        return through_pinned_chunks(
            cl, Direction::upload, buffer, bytes, row_pitch, what,
            [&](unsigned char* chunk, std::size_t offset, std::size_t size) {
                lay_out_rows(chunk, source + offset / row_pitch * row_bytes, row_bytes,
                             size / row_pitch, row_pitch);
            });
    }
    // Invalidate: the old contents need not be fetched, only the new ones written.
    MappedBuffer mapped(cl, buffer, CL_MAP_WRITE_INVALIDATE_REGION, bytes, what, transfer);
    lay_out_rows(mapped.bytes(), host, row_bytes, height, row_pitch);
    mapped.unmap();
    return transfer;
}

Transfer download_rows(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                       void* host, std::size_t row_bytes, std::size_t height, std::size_t row_pitch,
                       const std::string& what)
{
    Transfer transfer;
    auto* destination = static_cast<unsigned char*>(host);
    if (mode == MemoryMode::copy) {
        transfer.start = transfer.end =
            read_pitched(cl.queue, buffer, host, row_bytes, height, row_pitch, what);
        cl.record("read " + what, transfer.end);
        return transfer;
    }
    if (mode == MemoryMode::pinned) {
        return through_pinned_chunks(
            cl, Direction::download, buffer, row_pitch * height, row_pitch, what,
            [&](unsigned char* chunk, std::size_t offset, std::size_t size) {
                for (std::size_t row = 0; row < size / row_pitch; ++row)
                    std::memcpy(destination + (offset / row_pitch + row) * row_bytes,
                                chunk + row * row_pitch, row_bytes);
            });
    }
    MappedBuffer mapped(cl, buffer, CL_MAP_READ, row_pitch * height, what, transfer);
    for (std::size_t y = 0; y < height; ++y)
        std::memcpy(destination + y * row_bytes, mapped.bytes() + y * row_pitch, row_bytes);
    mapped.unmap();
    return transfer;
}

Transfer upload_bytes(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                      const void* host, std::size_t bytes, const std::string& what)
{
    const auto* source = static_cast<const unsigned char*>(host);
    if (mode == MemoryMode::pinned)
        return through_pinned_chunks(
            cl, Direction::upload, buffer, bytes, 1, what,
            [&](unsigned char* chunk, std::size_t offset, std::size_t size) {
                std::memcpy(chunk, source + offset, size);
            });
    return upload_rows(cl, mode, buffer, host, bytes, 1, bytes, what);
}

Transfer upload_produced(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                         std::size_t bytes, const ProduceBytes& produce, const std::string& what)
{
    if (mode == MemoryMode::pinned)
        return through_pinned_chunks(cl, Direction::upload, buffer, bytes, 1, what, produce);
    if (mode == MemoryMode::copy) {
        auto host = while_allocating(bytes, "staging " + what,
                                     [&] { return std::vector<unsigned char>(bytes); });
        produce(host.data(), 0, bytes);
        return upload_bytes(cl, mode, buffer, host.data(), bytes, what);
    }
    Transfer transfer;
    // Invalidate: the old contents need not be fetched, only the new ones written.
    MappedBuffer mapped(cl, buffer, CL_MAP_WRITE_INVALIDATE_REGION, bytes, what, transfer);
    produce(mapped.bytes(), 0, bytes);
    mapped.unmap();
    return transfer;
}

Transfer upload_rows_produced(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                              std::size_t height, std::size_t row_pitch, const ProduceRows& produce,
                              const std::string& what)
{
    const auto pieces = [&](unsigned char* host, std::size_t offset, std::size_t size) {
        produce(offset / row_pitch, size / row_pitch, host);
    };
    if (mode == MemoryMode::pinned)
        return through_pinned_chunks(cl, Direction::upload, buffer, height * row_pitch, row_pitch,
                                     what, pieces);
    return upload_produced(cl, mode, buffer, height * row_pitch, pieces, what);
}

Transfer download_bytes(const OpenClContext& cl, MemoryMode mode, const cl::Buffer& buffer,
                        std::size_t bytes, const ConsumeBytes& consume, const std::string& what)
{
    if (mode == MemoryMode::pinned)
        return through_pinned_chunks(cl, Direction::download, buffer, bytes, 1, what,
                                     [&](unsigned char* chunk, std::size_t offset,
                                         std::size_t size) { consume(chunk, offset, size); });
    Transfer transfer;
    if (mode == MemoryMode::copy) {
        auto host = while_allocating(bytes, "staging " + what,
                                     [&] { return std::vector<unsigned char>(bytes); });
        transfer = download_rows(cl, mode, buffer, host.data(), bytes, 1, bytes, what);
        consume(host.data(), 0, bytes);
        return transfer;
    }
    MappedBuffer mapped(cl, buffer, CL_MAP_READ, bytes, what, transfer);
    consume(mapped.bytes(), 0, bytes);
    mapped.unmap();
    return transfer;
}

}  // namespace sdk
