// SPDX-License-Identifier: Apache-2.0
#include "common/codecs/png_deflate/deflate_block.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace sdk {
namespace {

// RFC 1951 section 3.2.5: the first length of each length symbol 257..285, and its extra bits.
constexpr int kLengthBase[29] = {3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
                                 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
constexpr int kLengthExtra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                  2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

// The order in which the header sends the code-length code's own lengths (section 3.2.7).
constexpr int kCodeLengthOrder[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                      11, 4,  12, 3, 13, 2, 14, 1, 15};

// One symbol of the code-length alphabet with its extra bits: 0..15 a length, 16 repeat the
// previous length 3..6 times (2 extra bits), 17 zeros 3..10 times (3), 18 zeros 11..138 times (7).
struct LengthToken {
    int symbol;
    int extra_value;
};
int extra_bits_of(int code_length_symbol)
{
    return code_length_symbol == 16   ? 2
           : code_length_symbol == 17 ? 3
           : code_length_symbol == 18 ? 7
                                      : 0;
}

// The lengths, run-length coded as the header sends them.
std::vector<LengthToken> run_length_code(const std::vector<int>& lengths)
{
    std::vector<LengthToken> tokens;
    for (std::size_t i = 0; i < lengths.size();) {
        const int value = lengths[i];
        std::size_t run = 1;
        while (i + run < lengths.size() && lengths[i + run] == value) ++run;
        i += run;
        if (value == 0) {
            for (; run >= 11; run -= std::min<std::size_t>(run, 138))
                tokens.push_back({18, static_cast<int>(std::min<std::size_t>(run, 138) - 11)});
            if (run >= 3) {
                tokens.push_back({17, static_cast<int>(run - 3)});
                run = 0;
            }
        } else {
            tokens.push_back({value, 0});  // the first is sent as it is, repeats refer to it
            --run;
            for (; run >= 3; run -= std::min<std::size_t>(run, 6))
                tokens.push_back({16, static_cast<int>(std::min<std::size_t>(run, 6) - 3)});
        }
        for (; run > 0; --run) tokens.push_back({value, 0});
    }
    return tokens;
}

}  // namespace

LengthSymbol length_symbol(int length)
{
    if (length < kShortestMatch || length > 258)
        throw std::invalid_argument("deflate: no such match length");
    int index = 28;
    while (kLengthBase[index] > length) --index;
    return {257 + index, kLengthExtra[index], length - kLengthBase[index]};
}

std::vector<int> limited_code_lengths(const std::vector<std::uint32_t>& counts, int longest)
{
    std::vector<std::uint32_t> weights = counts;
    // Two symbols at least, so that the code is complete: the unused ones with the lowest indices
    // stand in, with the smallest weight.
    for (std::size_t i = 0, used = std::count_if(weights.begin(), weights.end(),
                                                 [](std::uint32_t count) { return count != 0; });
         used < 2 && i < weights.size(); ++i)
        if (weights[i] == 0) weights[i] = 1, ++used;

    // A node is a leaf (one symbol) or a package of two nodes of the level below.
    struct Node {
        std::uint64_t weight;
        int symbol;  // -1 for a package
        int left, right;
    };
    std::vector<Node> nodes;
    std::vector<int> leaves;
    for (std::size_t i = 0; i < weights.size(); ++i)
        if (weights[i] != 0) {
            leaves.push_back(static_cast<int>(nodes.size()));
            nodes.push_back({weights[i], static_cast<int>(i), -1, -1});
        }
    std::stable_sort(leaves.begin(), leaves.end(),
                     [&](int a, int b) { return nodes[a].weight < nodes[b].weight; });
    if (leaves.size() > (std::size_t{1} << longest))
        throw std::invalid_argument("deflate: too many symbols for the code length limit");

    // Level by level: pair the previous level's list into packages and merge them with the leaves.
    std::vector<int> level = leaves;
    for (int depth = 2; depth <= longest; ++depth) {
        std::vector<int> packages;
        for (std::size_t k = 0; k + 1 < level.size(); k += 2) {
            packages.push_back(static_cast<int>(nodes.size()));
            nodes.push_back(
                {nodes[level[k]].weight + nodes[level[k + 1]].weight, -1, level[k], level[k + 1]});
        }
        std::vector<int> merged;
        std::merge(leaves.begin(), leaves.end(), packages.begin(), packages.end(),
                   std::back_inserter(merged),
                   [&](int a, int b) { return nodes[a].weight < nodes[b].weight; });
        level = std::move(merged);
    }

    // The first 2n - 2 nodes of the last level: a symbol's code length is how many of them
    // hold its leaf.
    std::vector<int> lengths(counts.size(), 0);
    std::vector<int> pending(level.begin(), level.begin() + (2 * leaves.size() - 2));
    while (!pending.empty()) {
        const Node node = nodes[pending.back()];
        pending.pop_back();
        if (node.symbol >= 0) {
            ++lengths[node.symbol];
        } else {
            pending.push_back(node.left);
            pending.push_back(node.right);
        }
    }
    return lengths;
}

std::vector<std::uint32_t> reversed_canonical_codes(const std::vector<int>& lengths)
{
    std::array<std::uint32_t, kLongestCode + 2> count_of_length{};
    for (int length : lengths) ++count_of_length[length];
    count_of_length[0] = 0;
    std::array<std::uint32_t, kLongestCode + 2> next_code{};
    std::uint32_t code = 0;
    for (int bits = 1; bits <= kLongestCode + 1; ++bits) {
        code = (code + count_of_length[bits - 1]) << 1;
        next_code[bits] = code;
    }
    std::vector<std::uint32_t> codes(lengths.size(), 0);
    for (std::size_t symbol = 0; symbol < lengths.size(); ++symbol) {
        const int length = lengths[symbol];
        if (length == 0) continue;
        const std::uint32_t canonical = next_code[length]++;
        std::uint32_t reversed = 0;
        for (int bit = 0; bit < length; ++bit)
            reversed |= ((canonical >> bit) & 1u) << (length - 1 - bit);
        codes[symbol] = reversed;
    }
    return codes;
}

BitWriter::BitWriter(std::vector<std::uint8_t> bytes, std::uint64_t bit_count)
    : bytes_(std::move(bytes))
{
    const std::size_t whole = static_cast<std::size_t>(bit_count / 8);
    pending_bits_ = static_cast<int>(bit_count % 8);
    if (pending_bits_ != 0) pending_ = bytes_.at(whole) & ((1u << pending_bits_) - 1);
    bytes_.resize(whole);
}

void BitWriter::put(std::uint32_t value, int bits)
{
    pending_ |= value << pending_bits_;  // bits <= 16 and pending_bits_ < 8 leave room in 32
    pending_bits_ += bits;
    for (; pending_bits_ >= 8; pending_bits_ -= 8, pending_ >>= 8)
        bytes_.push_back(static_cast<std::uint8_t>(pending_));
}

void BitWriter::align()
{
    if (pending_bits_ != 0) put(0, 8 - pending_bits_);
}

std::vector<std::uint8_t> BitWriter::take()
{
    std::vector<std::uint8_t> bytes = std::move(bytes_);
    if (pending_bits_ != 0) bytes.push_back(static_cast<std::uint8_t>(pending_));
    bytes_.clear();
    pending_ = 0;
    pending_bits_ = 0;
    return bytes;
}

BlockCodes block_codes(const SymbolCounts& counts)
{
    std::vector<std::uint32_t> with_end(counts.begin(), counts.end());
    with_end[kEndOfBlock] = 1;
    BlockCodes codes;
    codes.literal_length_lengths = limited_code_lengths(with_end, kLongestCode);
    codes.literal_length_codes = reversed_canonical_codes(codes.literal_length_lengths);
    return codes;
}

void write_block_header(const BlockCodes& codes, bool last, BitWriter& out)
{
    // The literal/length lengths up to the last symbol used (257 at least), then the two
    // distance codes' lengths, run-length coded together as one sequence.
    int literal_lengths = kLiteralLengthSymbols;
    while (literal_lengths > 257 && codes.literal_length_lengths[literal_lengths - 1] == 0)
        --literal_lengths;
    std::vector<int> lengths(codes.literal_length_lengths.begin(),
                             codes.literal_length_lengths.begin() + literal_lengths);
    lengths.push_back(BlockCodes::kDistanceBits);
    lengths.push_back(BlockCodes::kDistanceBits);
    const std::vector<LengthToken> tokens = run_length_code(lengths);

    std::vector<std::uint32_t> token_counts(19, 0);
    for (const LengthToken& token : tokens) ++token_counts[token.symbol];
    const std::vector<int> token_lengths = limited_code_lengths(token_counts, kLongestLengthCode);
    const std::vector<std::uint32_t> token_codes = reversed_canonical_codes(token_lengths);
    int sent_lengths = 19;  // of the code-length code, in kCodeLengthOrder; 4 at least
    while (sent_lengths > 4 && token_lengths[kCodeLengthOrder[sent_lengths - 1]] == 0)
        --sent_lengths;

    out.put(last ? 1 : 0, 1);                                       // BFINAL
    out.put(2, 2);                                                  // BTYPE: dynamic Huffman codes
    out.put(static_cast<std::uint32_t>(literal_lengths - 257), 5);  // HLIT
    out.put(2 - 1, 5);                                              // HDIST
    out.put(static_cast<std::uint32_t>(sent_lengths - 4), 4);       // HCLEN
    for (int i = 0; i < sent_lengths; ++i)
        out.put(static_cast<std::uint32_t>(token_lengths[kCodeLengthOrder[i]]), 3);
    for (const LengthToken& token : tokens) {
        out.put(token_codes[token.symbol], token_lengths[token.symbol]);
        if (const int extra = extra_bits_of(token.symbol); extra != 0)
            out.put(static_cast<std::uint32_t>(token.extra_value), extra);
    }
}

void finish_chunk(const BlockCodes& codes, bool last, BitWriter& out)
{
    out.put(codes.literal_length_codes[kEndOfBlock], codes.literal_length_lengths[kEndOfBlock]);
    if (!last) {
        out.put(0, 3);  // an empty stored block: BFINAL 0, BTYPE 00, ...
        out.align();
        out.put(0x0000, 16);  // ... LEN 0 and NLEN, its complement
        out.put(0xFFFF, 16);
    }
    out.align();
}

}  // namespace sdk
