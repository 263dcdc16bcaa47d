// SPDX-License-Identifier: Apache-2.0
#include "common/codecs/png_deflate/png_deflate_reference.hpp"

#include <algorithm>
#include <stdexcept>

namespace sdk {

namespace {

// Whether `at` starts a run: the first of bytes that repeat the byte before them.
bool starts_run(const std::uint8_t* input, std::size_t at)
{
    return at >= 1 && input[at] == input[at - 1] && (at == 1 || input[at - 1] != input[at - 2]);
}

// How many bytes from `at` on, before `end`, repeat the byte before `at`.
std::size_t repeats(const std::uint8_t* input, std::size_t at, std::size_t end)
{
    std::size_t run = 0;
    while (at + run < end && input[at + run] == input[at - 1]) ++run;
    return run;
}

}  // namespace

CellToken next_token(const std::uint8_t* input, std::size_t at, std::size_t cell_end,
                     std::size_t size)
{
    if (at > 0 && input[at] == input[at - 1]) {
        // A run's first match may reach past the cell, as far as deflate allows; later pieces of
        // a long run end at the cell's end.
        const std::size_t end =
            starts_run(input, at) ? std::min(size, at + kLongestMatch) : cell_end;
        const std::size_t run = repeats(input, at, end);
        if (run >= kShortestMatch) {
            const int length = static_cast<int>(run);
            return {length_symbol(length).symbol, length};
        }
    }
    return {input[at], 1};
}

std::size_t first_token(const std::uint8_t* input, std::size_t begin, std::size_t size)
{
    if (begin == 0 || input[begin] != input[begin - 1]) return begin;
    // The start of the run `begin` is in, if it lies in the cell before (a run's start is
    // always a token's).
    std::size_t start = begin;
    while (start > 1 && start + kCellBytes > begin && input[start - 1] == input[start - 2]) --start;
    if (start == begin || !starts_run(input, start)) return begin;
    const std::size_t run = repeats(input, start, std::min(size, start + kLongestMatch));
    return run >= kShortestMatch ? std::max(begin, start + run) : begin;
}

SymbolCounts count_symbols_reference(const std::uint8_t* input, std::size_t size)
{
    SymbolCounts counts{};
    for (std::size_t cell = 0; cell < size; cell += kCellBytes) {
        const std::size_t end = std::min(size, cell + kCellBytes);
        for (std::size_t at = first_token(input, cell, size); at < end;) {
            const CellToken token = next_token(input, at, end, size);
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
        for (std::size_t at = first_token(input, cell, size); at < end;) {
            const CellToken token = next_token(input, at, end, size);
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
