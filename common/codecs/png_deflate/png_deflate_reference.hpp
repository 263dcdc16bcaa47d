// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "common/codecs/png_deflate/deflate_block.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace sdk {

// The plain C++ encoder the device encoder (png_deflate_encoder.hpp) is tested against, bit for
// bit: the same tokens, codes and block, one byte after another. Appends to `out` one
// dynamic-Huffman block of the `size` bytes at `input` (at least 1), ended as deflate_block.hpp's
// finish_chunk says: a chunk's part of the stream as DeflateRows::compress_rows appends it
// (common/imageio/deflate_parallel.hpp), for rows filtered already.
void deflate_chunk_reference(const std::uint8_t* input, std::size_t size, bool last,
                             std::vector<std::uint8_t>& out);

// One token of a cell: a literal byte, or a match of `length` bytes at distance 1.
struct CellToken {
    int symbol;  // 0..255 a literal; 257..285 a match length's symbol
    int length;  // bytes covered: 1 for a literal, 3..258 for a match
};
// The token at `at`, in the cell that ends at `cell_end`, of a chunk of `size` bytes
// (png_deflate.cl's next_token): a match when at least 3 bytes repeat the byte before `at`,
// else a literal. A match that starts a run may reach past the cell's end (up to deflate's
// longest, 258 bytes), so that a cell boundary does not cut a short run in two; the next cell
// then starts after it (first_token).
CellToken next_token(const std::uint8_t* input, std::size_t at, std::size_t cell_end,
                     std::size_t size);
// Where the cell starting at `begin` has its first token: `begin`, or the end of a match from
// the cell before that reaches into it.
std::size_t first_token(const std::uint8_t* input, std::size_t begin, std::size_t size);

// The literal/length symbols of all the chunk's tokens, end of block not counted.
SymbolCounts count_symbols_reference(const std::uint8_t* input, std::size_t size);

}  // namespace sdk
