// SPDX-License-Identifier: Apache-2.0
#include "common/codecs/png_deflate/png_deflate_encoder.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/kernel_args.hpp"
#include "common/runtime/program.hpp"
#include "common/runtime/transfers.hpp"
#include "common/runtime/work_size.hpp"
#include "common/codecs/png_deflate/deflate_block.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>

namespace sdk {
namespace {

// The most bits a token can take: a 15-bit length code, 5 extra bits and the distance code's bit.
constexpr std::size_t kMostBitsPerByte = 15;

std::size_t cell_count(std::size_t size)
{
    return (size + kCellBytes - 1) / kCellBytes;
}

std::size_t round_up(std::size_t value, std::size_t multiple)
{
    return (value + multiple - 1) / multiple * multiple;
}

// The packed block of a `size`-byte chunk at its largest: the header (a few hundred bytes) and
// the tokens, in whole 32-bit words.
constexpr std::size_t kBlockHeaderBytes = 1024;
std::size_t block_bytes_at_most(std::size_t size)
{
    return round_up(size * kMostBitsPerByte / 8 + kBlockHeaderBytes, sizeof(cl_uint));
}

// count_symbols' local memory: a count per literal/length symbol.
constexpr std::size_t kHistogramBytes = kLiteralLengthSymbols * sizeof(cl_uint);

}  // namespace

std::string PngDeflateEncoder::unavailable(const cl::Device& device)
{
    if (device.getInfo<CL_DEVICE_ENDIAN_LITTLE>() != CL_TRUE)
        return "the device stores words big-endian; deflate's bit order needs little-endian";
    const std::uint64_t local_memory = device_limits(device).local_memory_bytes;
    if (local_memory < kHistogramBytes)
        return "the count_symbols kernel needs " + std::to_string(kHistogramBytes) +
               " bytes of local memory, and the device has " + std::to_string(local_memory) +
               limit_setting("SDK_MAX_LOCAL_MEM_BYTES");
    return "";
}

// One chunk in flight: its own queue (in a copy of the context, so that transfers and the trace
// use it), so that lanes never wait on each other's commands; its own kernel objects (setting a
// kernel's arguments is not thread-safe); and buffers sized for the largest chunk it has taken.
// The chunk and its block cross through the transfer module (common/runtime/transfers.hpp) as
// `mode` says; the few bytes of counts, codes and the bit total are plain reads and writes.
struct PngDeflateEncoder::Lane {
    Lane(const OpenClContext& shared, const cl::Program& program)
        : cl(shared),
          mode(choose_memory_mode(MemoryMode::automatic, shared.device).mode),
          count_symbols(create_kernel(program, "count_symbols")),
          count_cell_bits(create_kernel(program, "count_cell_bits")),
          scan_cell_bits(create_kernel(program, "scan_cell_bits")),
          pack_cells(create_kernel(program, "pack_cells")),
          filter_rows_up(create_kernel(program, "filter_rows_up")),
          adler_cells(create_kernel(program, "adler_cells"))
    {
        cl.queue = cl::CommandQueue(cl.context, cl.device, cl.queue.getInfo<CL_QUEUE_PROPERTIES>());
    }
    void reserve(std::size_t size)
    {
        if (size <= capacity) return;
        const std::size_t cells = cell_count(size);
        // Read-write: the rows filtered on the device land here too.
        bytes = create_image_buffer(cl, mode, CL_MEM_READ_WRITE, size, "a PNG chunk");
        histogram =
            cl::Buffer(cl.context, CL_MEM_READ_WRITE, kLiteralLengthSymbols * sizeof(cl_uint));
        codes = cl::Buffer(cl.context, CL_MEM_READ_ONLY, kLiteralLengthSymbols * sizeof(cl_uint));
        cell_bits = cl::Buffer(cl.context, CL_MEM_READ_WRITE, cells * sizeof(cl_uint));
        first_bit = cl::Buffer(cl.context, CL_MEM_READ_WRITE, (cells + 1) * sizeof(cl_ulong));
        words = create_image_buffer(cl, mode, CL_MEM_READ_WRITE, block_bytes_at_most(size),
                                    "a PNG chunk's deflate block");
        cell_adler = cl::Buffer(cl.context, CL_MEM_WRITE_ONLY, cells * sizeof(cl_uint));
        capacity = size;
    }
    void reserve_pixels(std::size_t pixel_bytes)
    {
        if (pixel_bytes <= pixel_capacity) return;
        pixels =
            create_image_buffer(cl, mode, CL_MEM_READ_ONLY, pixel_bytes, "a PNG chunk's pixels");
        pixel_capacity = pixel_bytes;
    }
    // `local_bytes`: the local memory its arguments ask for, named with the group if it fails.
    void run(cl::Kernel& kernel, const cl::NDRange& global, const cl::NDRange& local,
             std::size_t local_bytes = 0)
    {
        cl::Event event;
        const std::string name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
        while_doing("enqueueing the PNG encoder's " + name + " kernel (" +
                        std::to_string(global[0]) + " work-items in groups of " +
                        std::to_string(local[0]) +
                        (local_bytes ? ", " + std::to_string(local_bytes) + " bytes of local memory"
                                     : std::string()) +
                        "; the device's limits: " + describe_limits(cl.device) + ")",
                    [&] {
                        cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr,
                                                      &event);
                    });
        cl.record(kernel, event);
    }
    static std::string describe_limits(const cl::Device& device)
    {
        const DeviceLimits limits = device_limits(device);
        return std::to_string(limits.max_work_group_size) + " work-items a group" +
               limit_setting("SDK_MAX_WORK_GROUP_SIZE") + ", " +
               std::to_string(limits.local_memory_bytes) + " bytes of local memory" +
               limit_setting("SDK_MAX_LOCAL_MEM_BYTES");
    }

    OpenClContext cl;
    MemoryMode mode;
    cl::Kernel count_symbols;
    cl::Kernel count_cell_bits;
    cl::Kernel scan_cell_bits;
    cl::Kernel pack_cells;
    cl::Kernel filter_rows_up;
    cl::Kernel adler_cells;
    std::size_t capacity = 0;        // chunk bytes the buffers are sized for
    std::size_t pixel_capacity = 0;  // pixel bytes `pixels` holds
    cl::Buffer pixels;
    cl::Buffer cell_adler;
    cl::Buffer bytes;
    cl::Buffer histogram;
    cl::Buffer codes;
    cl::Buffer cell_bits;
    cl::Buffer first_bit;
    cl::Buffer words;
};

PngDeflateEncoder::PngDeflateEncoder(const OpenClContext& cl, std::size_t lanes)
    : PngDeflateEncoder(cl, build_program(cl, "png_deflate.cl", ""), lanes)
{
}

PngDeflateEncoder::PngDeflateEncoder(const OpenClContext& cl, const cl::Program& program,
                                     std::size_t lanes)
    : cl_(cl), program_(program)
{
    if (const std::string why = unavailable(cl.device); !why.empty())
        throw std::runtime_error("PNG deflate on the device: " + why);
    for (std::size_t i = 0; i < std::max<std::size_t>(1, lanes); ++i) {
        lanes_.push_back(std::make_unique<Lane>(cl, program_));
        free_lanes_.push_back(lanes_.back().get());
    }
    // The largest work-group every kernel accepts, as the filters read it (work_size.hpp: the
    // kernel's own limit and the device's, SDK_MAX_WORK_GROUP_SIZE's included).
    const Lane& lane = *lanes_.front();
    std::size_t largest = SIZE_MAX;
    for (const cl::Kernel* kernel :
         {&lane.count_symbols, &lane.count_cell_bits, &lane.scan_cell_bits, &lane.pack_cells,
          &lane.filter_rows_up, &lane.adler_cells})
        largest = std::min(largest, kernel_group_limit(*kernel, cl.device));
    group_size_ = std::min<std::size_t>(64, largest);
    // The scan's one work-group: as wide as allowed, up to 256, a power of two, with a ulong of
    // local memory a work-item.
    const DeviceLimits limits = device_limits(cl.device);
    scan_group_size_ = 1;
    while (scan_group_size_ * 2 <= std::min<std::size_t>(256, largest) &&
           scan_group_size_ * 2 * sizeof(cl_ulong) <= limits.local_memory_bytes)
        scan_group_size_ *= 2;
    // A block's largest buffer, its packed words, within the device's largest allocation.
    const std::uint64_t allocation = limits.max_allocation_bytes;
    block_bytes_ = allocation > 2 * kBlockHeaderBytes
                       ? std::min<std::uint64_t>(kChunkBytes, (allocation - kBlockHeaderBytes - 4) /
                                                                  kMostBitsPerByte * 8)
                       : 1;
}

PngDeflateEncoder::~PngDeflateEncoder() = default;

template <typename Work>
auto PngDeflateEncoder::on_a_lane(const Work& work)
{
    Lane* lane = nullptr;
    {
        std::unique_lock<std::mutex> lock(mutex_);
        lane_freed_.wait(lock, [&] { return !free_lanes_.empty(); });
        lane = free_lanes_.back();
        free_lanes_.pop_back();
    }
    // Back to the free list however the chunk ends, an exception included.
    struct Release {
        PngDeflateEncoder& encoder;
        Lane* lane;
        ~Release()
        {
            {
                std::lock_guard<std::mutex> lock(encoder.mutex_);
                encoder.free_lanes_.push_back(lane);
            }
            encoder.lane_freed_.notify_one();
        }
    } release{*this, lane};
    try {
        return work(*lane);
    } catch (...) {
        // Nothing of this chunk may still be in flight: the caller frees its input next.
        try {
            lane->cl.queue.finish();
        } catch (...) {
        }
        throw;
    }
}

namespace {

void check_chunk_size(std::size_t size)
{
    if (size == 0) throw std::invalid_argument("PNG deflate on the device: an empty chunk");
    if (size > UINT32_MAX / kMostBitsPerByte)
        throw std::invalid_argument("PNG deflate on the device: a chunk over 256 MiB");
}

}  // namespace

std::uint32_t PngDeflateEncoder::compress_rows(const Image& image, std::size_t first_row,
                                               std::size_t count, bool last,
                                               std::vector<std::uint8_t>& out)
{
    // A block's rows: as many as its buffers hold within the device's largest allocation (a
    // chunk may be rounded up to whole rows, past chunking()'s bytes), at least one.
    const std::size_t row_bytes = image.width * static_cast<std::size_t>(image.channels);
    const std::size_t rows_a_block = std::max<std::size_t>(1, block_bytes_ / (row_bytes + 1));
    uLong adler = adler32(0, nullptr, 0);
    for (std::size_t done = 0; done < count;) {
        const std::size_t rows = std::min(rows_a_block, count - done);
        const std::uint32_t block_adler =
            compress_block(image, first_row + done, rows, last && done + rows == count, out);
        adler = adler32_combine(adler, block_adler, static_cast<z_off_t>(rows * (row_bytes + 1)));
        done += rows;
    }
    return static_cast<std::uint32_t>(adler);
}

std::uint32_t PngDeflateEncoder::compress_block(const Image& image, std::size_t first_row,
                                                std::size_t count, bool last,
                                                std::vector<std::uint8_t>& out)
{
    const std::size_t row_bytes = image.width * static_cast<std::size_t>(image.channels);
    const std::size_t size = count * (row_bytes + 1);
    check_chunk_size(size);
    if (first_row + count > image.height)
        throw std::invalid_argument("PNG deflate on the device: rows past the image");
    return on_a_lane([&](Lane& lane) {
        // The rows and the one above them (what Up subtracts), filtered on the device.
        const std::size_t above = first_row > 0 ? 1 : 0;
        const std::size_t pixel_bytes = (count + above) * row_bytes;
        lane.reserve(size);
        lane.reserve_pixels(pixel_bytes);
        upload_bytes(lane.cl, lane.mode, lane.pixels,
                     image.pixels.data() + (first_row - above) * row_bytes, pixel_bytes,
                     "a PNG chunk's pixels");
        const cl::NDRange group(group_size_);
        set_args(lane.filter_rows_up, lane.pixels, static_cast<cl_uint>(row_bytes),
                 static_cast<cl_uint>(count), static_cast<cl_uint>(above), lane.bytes);
        lane.run(lane.filter_rows_up, cl::NDRange(round_up(size, group_size_)), group);
        // The filtered rows' Adler-32, a cell at a time, combined on the host below.
        const std::size_t cells = cell_count(size);
        set_args(lane.adler_cells, lane.bytes, static_cast<cl_uint>(size), lane.cell_adler);
        lane.run(lane.adler_cells, cl::NDRange(round_up(cells, group_size_)), group);
        std::vector<cl_uint> cell_adler(cells);
        lane.cl.queue.enqueueReadBuffer(lane.cell_adler, CL_TRUE, 0, cells * sizeof(cl_uint),
                                        cell_adler.data());
        compress_in(lane, size, last, out);
        uLong adler = adler32(0, nullptr, 0);
        for (std::size_t cell = 0; cell < cells; ++cell) {
            const std::size_t bytes = std::min(kCellBytes, size - cell * kCellBytes);
            adler = adler32_combine(adler, cell_adler[cell], static_cast<z_off_t>(bytes));
        }
        return static_cast<std::uint32_t>(adler);
    });
}

void PngDeflateEncoder::compress_in(Lane& lane, std::size_t size, bool last,
                                    std::vector<std::uint8_t>& out)
{
    cl::CommandQueue& queue = lane.cl.queue;
    const std::size_t cells = cell_count(size);
    const cl::NDRange per_cell(round_up(cells, group_size_));
    const cl::NDRange group(group_size_);
    const cl_uint chunk_size = static_cast<cl_uint>(size);

    // 1. The symbol counts, back to the host for the codes.
    queue.enqueueFillBuffer(lane.histogram, cl_uint{0}, 0, kLiteralLengthSymbols * sizeof(cl_uint));
    set_args(lane.count_symbols, lane.bytes, chunk_size, lane.histogram,
             cl::Local(kHistogramBytes));
    lane.run(lane.count_symbols, per_cell, group, kHistogramBytes);
    SymbolCounts counts{};
    queue.enqueueReadBuffer(lane.histogram, CL_TRUE, 0, sizeof counts, counts.data());

    // 2. The codes and the block's header, on the host.
    const BlockCodes codes = block_codes(counts);
    BitWriter header;
    write_block_header(codes, last, header);
    const std::uint64_t header_bits = header.bit_count();
    std::vector<std::uint8_t> header_bytes = header.take();
    header_bytes.resize(round_up(header_bytes.size(), sizeof(cl_uint)), 0);
    std::vector<cl_uint> table(kLiteralLengthSymbols);
    for (int s = 0; s < kLiteralLengthSymbols; ++s)
        table[s] = codes.literal_length_codes[s] |
                   static_cast<cl_uint>(codes.literal_length_lengths[s]) << 16;

    // 3. Each cell's bits, their scan, and the packing behind the header. The writes need not
    //    block: the blocking read at the end keeps `table` and `header_bytes` alive past them.
    queue.enqueueWriteBuffer(lane.codes, CL_FALSE, 0, table.size() * sizeof(cl_uint), table.data());
    set_args(lane.count_cell_bits, lane.bytes, chunk_size, lane.codes,
             static_cast<cl_uint>(BlockCodes::kDistanceBits), lane.cell_bits);
    lane.run(lane.count_cell_bits, per_cell, group);
    set_args(lane.scan_cell_bits, lane.cell_bits, static_cast<cl_uint>(cells), lane.first_bit,
             cl::Local(scan_group_size_ * sizeof(cl_ulong)));
    lane.run(lane.scan_cell_bits, cl::NDRange(scan_group_size_), cl::NDRange(scan_group_size_),
             scan_group_size_ * sizeof(cl_ulong));
    queue.enqueueFillBuffer(lane.words, cl_uint{0}, 0, block_bytes_at_most(size));
    queue.enqueueWriteBuffer(lane.words, CL_FALSE, 0, header_bytes.size(), header_bytes.data());
    set_args(lane.pack_cells, lane.bytes, chunk_size, lane.codes,
             static_cast<cl_uint>(BlockCodes::kDistanceCode),
             static_cast<cl_uint>(BlockCodes::kDistanceBits), lane.first_bit,
             static_cast<cl_ulong>(header_bits), lane.words);
    lane.run(lane.pack_cells, per_cell, group);
    cl_ulong token_bits = 0;
    queue.enqueueReadBuffer(lane.first_bit, CL_TRUE, cells * sizeof(cl_ulong), sizeof token_bits,
                            &token_bits);

    // 4. The block's bytes back, and its end written on the host.
    const std::uint64_t end_bit = header_bits + token_bits;
    std::vector<std::uint8_t> block(static_cast<std::size_t>((end_bit + 7) / 8));
    download_bytes(
        lane.cl, lane.mode, lane.words, block.size(),
        [&](const unsigned char* data, std::size_t offset, std::size_t piece) {
            std::copy_n(data, piece, block.begin() + static_cast<std::ptrdiff_t>(offset));
        },
        "a PNG chunk's deflate block");
    BitWriter bits(std::move(block), end_bit);
    finish_chunk(codes, last, bits);
    const std::vector<std::uint8_t> bytes = bits.take();
    out.insert(out.end(), bytes.begin(), bytes.end());
}

}  // namespace sdk
