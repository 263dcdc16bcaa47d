// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace sdk {

// The pieces of one dynamic-Huffman deflate block (RFC 1951 section 3.2.7) that the device
// encoder and its C++ reference share: how a chunk is cut into tokens, the code lengths, the
// block header and a bit writer. The device does the per-byte work (png_deflate.cl); everything
// here is per chunk, on the host.

// A chunk is cut into cells of this many bytes, one work-item each, which finds its tokens
// without waiting for the cells before it: a byte that repeats the byte before it starts a
// run-length match (distance 1) when at least 3 bytes in a row do, as zlib's Z_RLE does, else
// it is a literal. A run's first match may reach into the next cell (which looks back for it,
// png_deflate_reference.hpp's first_token); later pieces of a long run end at cell ends, so
// with cells of deflate's longest match a zero run costs one match per 258 bytes, as with zlib.
constexpr std::size_t kCellBytes = 258;
constexpr int kShortestMatch = 3;
constexpr std::size_t kLongestMatch = 258;

// Literal/length symbols: 0..255 literals, 256 end of block, 257..285 match lengths.
constexpr int kLiteralLengthSymbols = 286;
constexpr int kEndOfBlock = 256;
constexpr int kLongestCode = 15;       // deflate's limit for the literal/length and distance codes
constexpr int kLongestLengthCode = 7;  // and for the code-length code

// Match length `length` (3..258) as deflate's symbol (257 + index), its extra bits and their value.
struct LengthSymbol {
    int symbol;
    int extra_bits;
    int extra_value;
};
LengthSymbol length_symbol(int length);

// How many times each literal/length symbol occurs in a chunk (end of block not counted).
using SymbolCounts = std::array<std::uint32_t, kLiteralLengthSymbols>;

// Code lengths of at most `longest` bits for symbols that occur `counts` times, by package-merge
// (Larmore and Hirschberg): the optimal prefix code under the limit. A symbol that never occurs
// gets 0. Fewer than two occurring symbols still get a complete code of two 1-bit codes (zlib's
// inflate refuses an incomplete code-length code).
std::vector<int> limited_code_lengths(const std::vector<std::uint32_t>& counts, int longest);

// The canonical codes of RFC 1951 section 3.2.2, each bit-reversed: deflate sends a Huffman code
// from its first bit on, into a stream that fills each byte from its lowest bit.
std::vector<std::uint32_t> reversed_canonical_codes(const std::vector<int>& lengths);

// Deflate's bit order: each value's lowest bit first, each byte filled from its lowest bit.
class BitWriter {
public:
    BitWriter() = default;
    // Continues a stream whose last `bit_count` bits end inside `bytes` (its last byte partial
    // when bit_count is not a multiple of 8).
    BitWriter(std::vector<std::uint8_t> bytes, std::uint64_t bit_count);
    void put(std::uint32_t value, int bits);
    void align();  // zero bits up to the next byte boundary
    std::uint64_t bit_count() const { return bytes_.size() * 8 + pending_bits_; }
    // The bytes so far, the last one partial until align().
    std::vector<std::uint8_t> take();

private:
    std::vector<std::uint8_t> bytes_;
    std::uint32_t pending_ = 0;
    int pending_bits_ = 0;
};

// One block's codes, from the chunk's symbol counts: what the tokens are written with, and the
// block's header (BFINAL, BTYPE = 2, the code lengths coded with the code-length code).
struct BlockCodes {
    std::vector<int> literal_length_lengths;          // kLiteralLengthSymbols entries
    std::vector<std::uint32_t> literal_length_codes;  // bit-reversed
    // Only distance 1 (code 0) is ever used; codes 0 and 1 both get one bit, a complete code
    // every inflate accepts.
    static constexpr std::uint32_t kDistanceCode = 0;
    static constexpr int kDistanceBits = 1;
};
BlockCodes block_codes(const SymbolCounts& counts);
void write_block_header(const BlockCodes& codes, bool last, BitWriter& out);

// After the tokens: the end-of-block code, then either the final block's padding or (not last)
// an empty stored block, which ends the chunk on a byte boundary as zlib's sync flush does.
void finish_chunk(const BlockCodes& codes, bool last, BitWriter& out);

}  // namespace sdk
