// SPDX-License-Identifier: Apache-2.0
// The per-byte half of a chunk's dynamic-Huffman deflate block (docs/png_deflate.md). The chunk
// is cut into cells of CELL_BYTES bytes, one work-item each, each finding its own tokens (a
// literal, or a run of at least 3 bytes equal to the byte before them as a distance-1 match);
// the kernels walk the cells three times: to count the symbols (the host then builds the codes),
// to count each cell's bits, and, after a scan has turned those into each cell's first bit, to
// pack the codes. Everything here must equal common/codecs/png_deflate/png_deflate_reference.cpp.

#define CELL_BYTES 258
#define LITERAL_LENGTH_SYMBOLS 286

// RFC 1951 section 3.2.5: the first length of each length symbol 257..285, and its extra bits.
__constant ushort length_base[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
                                     15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
                                     67, 83, 99, 115, 131, 163, 195, 227, 258};
__constant uchar length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
                                     2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};

typedef struct {
    int symbol;  // 0..255 a literal, 257..285 a match length's symbol
    int length;  // bytes covered: 1 for a literal, 3..258 for a match
    int index;   // a match's row in length_base
} Token;

#define LONGEST_MATCH 258

// Whether `at` starts a run: the first of bytes that repeat the byte before them.
bool starts_run(__global const uchar* bytes, uint at)
{
    return at >= 1 && bytes[at] == bytes[at - 1] && (at == 1 || bytes[at - 1] != bytes[at - 2]);
}

// How many bytes from `at` on, before `end`, repeat the byte before `at`. The bytes left are
// counted once: a loop bound of `at + run < end` lets LLVM use a saturating subtraction that
// oclgrind 21.10 cannot run.
uint repeats(__global const uchar* bytes, uint at, uint end)
{
    const uint left = end - at;
    uint run = 0;
    while (run < left && bytes[at + run] == bytes[at - 1]) ++run;
    return run;
}

// The token at `at`: a match when at least 3 bytes repeat the byte before `at`, else a literal.
// A run's first match may reach past the cell's end, as far as deflate allows, so that a cell
// boundary does not cut a short run in two; later pieces of a long run end at the cell's end.
// [Next token]
Token next_token(__global const uchar* bytes, uint at, uint cell_end, uint size)
{
    Token token = {bytes[at], 1, 0};
    if (at > 0 && bytes[at] == bytes[at - 1]) {
        const uint end = starts_run(bytes, at) ? min(size, at + LONGEST_MATCH) : cell_end;
        const uint run = repeats(bytes, at, end);
        if (run >= 3) {
            int index = 28;
            while (length_base[index] > run) --index;
            token.symbol = 257 + index;
            token.length = (int)run;
            token.index = index;
        }
    }
    return token;
}
// [Next token]

// Where the cell starting at `begin` has its first token: after a match from the cell before
// that reaches into it, if one does. A run's start is always a token's, so the cell finds that
// match by looking back for its run's start, at most one cell back.
uint first_token(__global const uchar* bytes, uint begin, uint size)
{
    if (begin == 0 || bytes[begin] != bytes[begin - 1]) return begin;
    uint start = begin;
    while (start > 1 && start + CELL_BYTES > begin && bytes[start - 1] == bytes[start - 2]) --start;
    if (start == begin || !starts_run(bytes, start)) return begin;
    const uint run = repeats(bytes, start, min(size, start + LONGEST_MATCH));
    return run >= 3 ? max(begin, start + run) : begin;
}

/**
 * The PNG row filter Up, as common/imageio/png_writer.cpp's filter_png_rows_up: each of `rows`
 * rows a filter byte (2) and each byte minus the byte above it, one work-item per byte.
 * @param pixels the rows' pixels, `row_bytes` apart, after the row above them when `has_above`
 *        (else the first row is the image's, filtered against zeros)
 * @param bytes the filtered rows, rows * (row_bytes + 1) bytes
 */
__kernel void filter_rows_up(__global const uchar* pixels, uint row_bytes, uint rows,
                             uint has_above, __global uchar* bytes)
{
    const uint at = (uint)get_global_id(0);
    const uint line = row_bytes + 1;
    if (at >= rows * line) return;
    const uint y = at / line + has_above;  // the row in `pixels`
    const uint x = at % line;
    if (x == 0) {
        bytes[at] = 2;
        return;
    }
    const uint source = y * row_bytes + x - 1;
    bytes[at] = (uchar)(pixels[source] - (y > 0 ? pixels[source - row_bytes] : 0));
}

/**
 * Each cell's Adler-32 (RFC 1950), as if the cell were all the data: the host combines them
 * with zlib's adler32_combine. A cell's sums fit in 32 bits before their remainders: at most
 * 1 + 258 x 255 and 258 times that.
 * @param cell_adler one Adler-32 per cell
 */
__kernel void adler_cells(__global const uchar* bytes, uint size, __global uint* cell_adler)
{
    const uint cell = (uint)get_global_id(0);
    const uint begin = cell * CELL_BYTES;
    if (begin >= size) return;
    const uint end = min(begin + CELL_BYTES, size);
    uint a = 1;
    uint b = 0;
    for (uint at = begin; at < end; ++at) {
        a += bytes[at];
        b += a;
    }
    cell_adler[cell] = (b % 65521) << 16 | (a % 65521);
}

// A code table entry: the bit-reversed code in the low 16 bits, its length above.
#define CODE_OF(entry) ((entry)&0xFFFFu)
#define LENGTH_OF(entry) ((entry) >> 16)

/**
 * The chunk's literal/length symbol counts: each work-group counts its cells in local memory,
 * then adds them to `histogram` (zeroed by the host) once per symbol.
 * @param bytes the chunk, `size` bytes
 * @param histogram LITERAL_LENGTH_SYMBOLS counts
 * @param group_histogram local memory of LITERAL_LENGTH_SYMBOLS counts
 */
__kernel void count_symbols(__global const uchar* bytes, uint size, __global uint* histogram,
                            __local uint* group_histogram)
{
    for (uint s = get_local_id(0); s < LITERAL_LENGTH_SYMBOLS; s += get_local_size(0))
        group_histogram[s] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    const uint begin = (uint)get_global_id(0) * CELL_BYTES;
    if (begin < size) {
        // A symbol's repeats are added at once: filtered images repeat a symbol (zero, or a
        // long match) many times in a row, and every work-item adding 1 to the same counter
        // would wait on the others.
        const uint end = min(begin + CELL_BYTES, size);
        int symbol = -1;
        uint count = 0;
        for (uint at = first_token(bytes, begin, size); at < end;) {
            const Token token = next_token(bytes, at, end, size);
            if (token.symbol != symbol) {
                if (count != 0) atomic_add(&group_histogram[symbol], count);
                symbol = token.symbol;
                count = 0;
            }
            ++count;
            at += (uint)token.length;
        }
        if (count != 0) atomic_add(&group_histogram[symbol], count);  // 0: the cell was covered
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = get_local_id(0); s < LITERAL_LENGTH_SYMBOLS; s += get_local_size(0))
        if (group_histogram[s] != 0) atomic_add(&histogram[s], group_histogram[s]);
}

// The bits of one token: its code, a match's extra bits and the one distance code.
uint token_bits(Token token, __global const uint* codes, uint distance_bits)
{
    uint bits = LENGTH_OF(codes[token.symbol]);
    if (token.length > 1) bits += length_extra[token.index] + distance_bits;
    return bits;
}

/**
 * How many bits each cell's tokens take, once the codes are known.
 * @param codes LITERAL_LENGTH_SYMBOLS code table entries (CODE_OF, LENGTH_OF)
 * @param cell_bits one count per cell
 */
__kernel void count_cell_bits(__global const uchar* bytes, uint size, __global const uint* codes,
                              uint distance_bits, __global uint* cell_bits)
{
    const uint cell = (uint)get_global_id(0);
    const uint begin = cell * CELL_BYTES;
    if (begin >= size) return;
    const uint end = min(begin + CELL_BYTES, size);
    uint bits = 0;
    for (uint at = first_token(bytes, begin, size); at < end;) {
        const Token token = next_token(bytes, at, end, size);
        bits += token_bits(token, codes, distance_bits);
        at += (uint)token.length;
    }
    cell_bits[cell] = bits;
}

/**
 * Each cell's first bit, relative to the first cell's: the exclusive prefix sum of `cell_bits`,
 * and the total in first_bit[cells]. One work-group: each work-item sums a run of consecutive
 * cells, the work-group scans those sums in local memory (Hillis and Steele: log2(size) steps),
 * and each work-item then walks its run again from its sum's offset.
 * @param partial local memory of one ulong per work-item
 */
// [Scan]
__kernel void scan_cell_bits(__global const uint* cell_bits, uint cells, __global ulong* first_bit,
                             __local ulong* partial)
{
    const uint item = (uint)get_local_id(0);
    const uint items = (uint)get_local_size(0);
    const uint per_item = (cells + items - 1) / items;
    const uint begin = min(item * per_item, cells);
    const uint end = min(begin + per_item, cells);
    ulong sum = 0;
    for (uint cell = begin; cell < end; ++cell) sum += cell_bits[cell];
    partial[item] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint step = 1; step < items; step *= 2) {
        const ulong left = item >= step ? partial[item - step] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        partial[item] += left;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    ulong offset = partial[item] - sum;  // the inclusive sum, less this item's own
    for (uint cell = begin; cell < end; ++cell) {
        first_bit[cell] = offset;
        offset += cell_bits[cell];
    }
    if (item == items - 1) first_bit[cells] = partial[item];
}
// [Scan]

// Appends `count` bits of `value` to the bits held in `pending`; each whole 32-bit word goes out.
// Only a cell's first and last words can hold a neighbour's bits too: those are ORed in
// atomically, into a block the host zeroed; the words between belong to this cell alone.
// [Bit packing]
void put_bits(uint value, uint count, ulong* pending, uint* pending_bits, uint* word,
              bool* first_word, __global uint* words)
{
    *pending |= (ulong)value << *pending_bits;
    *pending_bits += count;
    if (*pending_bits >= 32) {
        if (*first_word)
            atomic_or(&words[*word], (uint)*pending);
        else
            words[*word] = (uint)*pending;
        *first_word = false;
        ++*word;
        *pending >>= 32;
        *pending_bits -= 32;
    }
}
// [Bit packing]

/**
 * Writes each cell's codes from its first bit on: the block's bits after the host's header.
 * @param first_bit from scan_cell_bits
 * @param header_bits where the first cell starts: the header's bits, already in `words`
 * @param words the block, as little-endian 32-bit words, zero but for the header
 */
__kernel void pack_cells(__global const uchar* bytes, uint size, __global const uint* codes,
                         uint distance_code, uint distance_bits, __global const ulong* first_bit,
                         ulong header_bits, __global uint* words)
{
    const uint cell = (uint)get_global_id(0);
    const uint begin = cell * CELL_BYTES;
    if (begin >= size) return;
    const uint end = min(begin + CELL_BYTES, size);
    const ulong start = header_bits + first_bit[cell];
    uint word = (uint)(start / 32);
    // The first word's lower bits are the neighbour's: zeros here, ORed in.
    uint pending_bits = (uint)(start % 32);
    ulong pending = 0;
    bool first_word = true;
    for (uint at = first_token(bytes, begin, size); at < end;) {
        const Token token = next_token(bytes, at, end, size);
        const uint entry = codes[token.symbol];
        put_bits(CODE_OF(entry), LENGTH_OF(entry), &pending, &pending_bits, &word, &first_word,
                 words);
        if (token.length > 1) {
            put_bits((uint)token.length - length_base[token.index], length_extra[token.index],
                     &pending, &pending_bits, &word, &first_word, words);
            put_bits(distance_code, distance_bits, &pending, &pending_bits, &word, &first_word,
                     words);
        }
        at += (uint)token.length;
    }
    if (pending_bits != 0) atomic_or(&words[word], (uint)pending);
}
