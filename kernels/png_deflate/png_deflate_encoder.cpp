// SPDX-License-Identifier: Apache-2.0
#include "kernels/png_deflate/png_deflate_encoder.hpp"

#include "common/runtime/kernel_args.hpp"
#include "common/runtime/program.hpp"
#include "kernels/png_deflate/deflate_block.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace sdk {
namespace {

// The most bits a token can take: a 15-bit length code, 5 extra bits and the distance code's bit.
constexpr std::size_t kMostBitsPerByte = 15;

std::size_t cell_count(std::size_t size) { return (size + kCellBytes - 1) / kCellBytes; }

std::size_t round_up(std::size_t value, std::size_t multiple)
{
    return (value + multiple - 1) / multiple * multiple;
}

// The packed block of a `size`-byte chunk at its largest: the header (a few hundred bytes) and
// the tokens, in whole 32-bit words.
std::size_t block_bytes_at_most(std::size_t size)
{
    return round_up(size * kMostBitsPerByte / 8 + 1024, sizeof(cl_uint));
}

}  // namespace

std::string PngDeflateEncoder::unavailable(const cl::Device& device)
{
    if (device.getInfo<CL_DEVICE_ENDIAN_LITTLE>() != CL_TRUE)
        return "the device stores words big-endian; deflate's bit order needs little-endian";
    return "";
}

PngDeflateEncoder::PngDeflateEncoder(const OpenClContext& cl)
    : cl_(cl), queue_(cl.context, cl.device), program_(build_program(cl, "png_deflate.cl", ""))
{
    if (const std::string why = unavailable(cl.device); !why.empty())
        throw std::runtime_error("PNG deflate on the device: " + why);
    count_symbols_ = create_kernel(program_, "count_symbols");
    count_cell_bits_ = create_kernel(program_, "count_cell_bits");
    scan_cell_bits_ = create_kernel(program_, "scan_cell_bits");
    pack_cells_ = create_kernel(program_, "pack_cells");
    const std::size_t largest = cl.device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    group_size_ = std::min<std::size_t>(64, largest);
    // The scan's one work-group: as wide as the device allows, up to 256, a power of two.
    scan_group_size_ = 1;
    while (scan_group_size_ * 2 <= std::min<std::size_t>(256, largest)) scan_group_size_ *= 2;
}

void PngDeflateEncoder::reserve(std::size_t size)
{
    if (size <= capacity_) return;
    const std::size_t cells = cell_count(size);
    bytes_ = cl::Buffer(cl_.context, CL_MEM_READ_ONLY, size);
    histogram_ = cl::Buffer(cl_.context, CL_MEM_READ_WRITE, kLiteralLengthSymbols * sizeof(cl_uint));
    codes_ = cl::Buffer(cl_.context, CL_MEM_READ_ONLY, kLiteralLengthSymbols * sizeof(cl_uint));
    cell_bits_ = cl::Buffer(cl_.context, CL_MEM_READ_WRITE, cells * sizeof(cl_uint));
    first_bit_ = cl::Buffer(cl_.context, CL_MEM_READ_WRITE, (cells + 1) * sizeof(cl_ulong));
    words_ = cl::Buffer(cl_.context, CL_MEM_READ_WRITE, block_bytes_at_most(size));
    capacity_ = size;
}

void PngDeflateEncoder::compress(const std::uint8_t* input, std::size_t size, bool last,
                                 std::vector<std::uint8_t>& out)
{
    if (size == 0) throw std::invalid_argument("PNG deflate on the device: an empty chunk");
    if (size > UINT32_MAX / kMostBitsPerByte)
        throw std::invalid_argument("PNG deflate on the device: a chunk over 256 MiB");
    std::lock_guard<std::mutex> lock(mutex_);
    reserve(size);
    const std::size_t cells = cell_count(size);
    const cl::NDRange per_cell(round_up(cells, group_size_));
    const cl_uint chunk_size = static_cast<cl_uint>(size);

    // 1. The symbol counts, back to the host for the codes.
    queue_.enqueueWriteBuffer(bytes_, CL_FALSE, 0, size, input);
    queue_.enqueueFillBuffer(histogram_, cl_uint{0}, 0, kLiteralLengthSymbols * sizeof(cl_uint));
    set_args(count_symbols_, bytes_, chunk_size, histogram_,
             cl::Local(kLiteralLengthSymbols * sizeof(cl_uint)));
    queue_.enqueueNDRangeKernel(count_symbols_, cl::NullRange, per_cell, cl::NDRange(group_size_));
    SymbolCounts counts{};
    queue_.enqueueReadBuffer(histogram_, CL_TRUE, 0, sizeof counts, counts.data());

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

    // 3. Each cell's bits, their scan, and the packing behind the header.
    queue_.enqueueWriteBuffer(codes_, CL_FALSE, 0, table.size() * sizeof(cl_uint), table.data());
    set_args(count_cell_bits_, bytes_, chunk_size, codes_,
             static_cast<cl_uint>(BlockCodes::kDistanceBits), cell_bits_);
    queue_.enqueueNDRangeKernel(count_cell_bits_, cl::NullRange, per_cell, cl::NDRange(group_size_));
    set_args(scan_cell_bits_, cell_bits_, static_cast<cl_uint>(cells), first_bit_,
             cl::Local(scan_group_size_ * sizeof(cl_ulong)));
    queue_.enqueueNDRangeKernel(scan_cell_bits_, cl::NullRange, cl::NDRange(scan_group_size_),
                                cl::NDRange(scan_group_size_));
    queue_.enqueueFillBuffer(words_, cl_uint{0}, 0, block_bytes_at_most(size));
    queue_.enqueueWriteBuffer(words_, CL_FALSE, 0, header_bytes.size(), header_bytes.data());
    set_args(pack_cells_, bytes_, chunk_size, codes_, static_cast<cl_uint>(BlockCodes::kDistanceCode),
             static_cast<cl_uint>(BlockCodes::kDistanceBits), first_bit_,
             static_cast<cl_ulong>(header_bits), words_);
    queue_.enqueueNDRangeKernel(pack_cells_, cl::NullRange, per_cell, cl::NDRange(group_size_));
    cl_ulong token_bits = 0;
    queue_.enqueueReadBuffer(first_bit_, CL_TRUE, cells * sizeof(cl_ulong), sizeof token_bits,
                             &token_bits);

    // 4. The block's bytes back, and its end written on the host.
    const std::uint64_t end_bit = header_bits + token_bits;
    std::vector<std::uint8_t> block(static_cast<std::size_t>((end_bit + 7) / 8));
    queue_.enqueueReadBuffer(words_, CL_TRUE, 0, block.size(), block.data());
    BitWriter bits(std::move(block), end_bit);
    finish_chunk(codes, last, bits);
    const std::vector<std::uint8_t> bytes = bits.take();
    out.insert(out.end(), bytes.begin(), bytes.end());
}

}  // namespace sdk
