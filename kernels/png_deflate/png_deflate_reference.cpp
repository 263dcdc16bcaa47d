// SPDX-License-Identifier: Apache-2.0
#include "kernels/png_deflate/png_deflate_reference.hpp"

#include <algorithm>
#include <stdexcept>

namespace sdk {

CellToken next_token(const std::uint8_t* input, std::size_t at, std::size_t cell_end)
{
    std::size_t run = 0;
    if (at > 0)
        while (at + run < cell_end && input[at + run] == input[at - 1]) ++run;
    if (run >= kShortestMatch) {
        const int length = static_cast<int>(run);
        return {length_symbol(length).symbol, length};
    }
    return {input[at], 1};
}

SymbolCounts count_symbols_reference(const std::uint8_t* input, std::size_t size)
{
    SymbolCounts counts{};
    for (std::size_t cell = 0; cell < size; cell += kCellBytes) {
        const std::size_t end = std::min(size, cell + kCellBytes);
        for (std::size_t at = cell; at < end;) {
            const CellToken token = next_token(input, at, end);
            ++counts[token.symbol];
            at += static_cast<std::size_t>(token.length);
        }
    }
    return counts;
}

void deflate_chunk_reference(const std::uint8_t* input, std::size_t size, bool last,
                             std::vector<std::uint8_t>& out)
{
    if (size == 0) throw std::invalid_argument("deflate_chunk_reference: an empty chunk");
    const BlockCodes codes = block_codes(count_symbols_reference(input, size));
    BitWriter bits;
    write_block_header(codes, last, bits);
    for (std::size_t cell = 0; cell < size; cell += kCellBytes) {
        const std::size_t end = std::min(size, cell + kCellBytes);
        for (std::size_t at = cell; at < end;) {
            const CellToken token = next_token(input, at, end);
            bits.put(codes.literal_length_codes[token.symbol],
                     codes.literal_length_lengths[token.symbol]);
            if (token.length > 1) {
                const LengthSymbol length = length_symbol(token.length);
                bits.put(static_cast<std::uint32_t>(length.extra_value), length.extra_bits);
                bits.put(BlockCodes::kDistanceCode, BlockCodes::kDistanceBits);
            }
            at += static_cast<std::size_t>(token.length);
        }
    }
    finish_chunk(codes, last, bits);
    const std::vector<std::uint8_t> bytes = bits.take();
    out.insert(out.end(), bytes.begin(), bytes.end());
}

}  // namespace sdk
