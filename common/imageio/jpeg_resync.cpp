// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/jpeg_resync.hpp"

#include "common/imageio/each_on_a_thread.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <exception>
#include <memory>
#include <new>

namespace sdk {
namespace {

// Runs work(0) ... work(count - 1) each on a thread of its own (run_each_on_a_thread); false when
// any ran out of memory, for the caller to give up (the sequential decoder needs far less).
template <typename Work>
bool run_on_threads(std::size_t count, const Work& work)
{
    std::vector<char> out_of_memory(count, 0);
    run_each_on_a_thread(count, [&](std::size_t i) {
        try {
            work(i);
        } catch (const std::bad_alloc&) {
            out_of_memory[i] = 1;
        }
    });
    return std::find(out_of_memory.begin(), out_of_memory.end(), 1) == out_of_memory.end();
}

// ----- Huffman tables ---------------------------------------------------------------------------

// Codes this short are looked up at once, longer ones length by length. A photo's AC codes at
// high quality run to 10 or 11 bits (larger terms); 2048 entries of 4 bytes stay in L1.
constexpr int kFastBits = 11;

struct HuffmanCodes {
    // For codes this short: advance << 16 | length << 8 | symbol, where advance is the code's
    // length and an AC symbol's extra bits (its low 4 bits); 0 for a longer code.
    std::uint32_t fast[1 << kFastBits] = {};
    std::int32_t max_code[17] = {};  // the largest code of each length; -1: none
    std::int32_t offset[17] = {};    // an l-bit code's symbol: values[code + offset[l]]
    std::uint8_t values[256] = {};
    // To code a symbol again: its code and length (0: the table has no code for it).
    std::uint16_t code_of[256] = {};
    std::uint8_t length_of[256] = {};
};

// The canonical codes of a table (ITU T.81, C.2), refusing what libjpeg refuses (more codes of a
// length than it has room for, which would make an all-ones code) and DC categories above 11,
// which 8-bit samples never need.
bool build_codes(const JpegScanHeader::HuffmanTable& table, bool dc, HuffmanCodes& codes)
{
    if (!table.defined) return false;
    std::copy(table.values.begin(), table.values.end(), codes.values);
    std::uint32_t code = 0;
    int k = 0;
    for (int length = 1; length <= 16; ++length) {
        codes.max_code[length] = -1;
        const int count = table.counts[length - 1];
        if (count > 0) {
            codes.offset[length] = k - static_cast<int>(code);
            for (int i = 0; i < count; ++i, ++k, ++code) {
                if (code >= (1u << length) - 1) return false;  // no room, or an all-ones code
                const std::uint8_t symbol = table.values[static_cast<std::size_t>(k)];
                if (dc && symbol > 11) return false;
                if (codes.length_of[symbol] == 0) {
                    codes.code_of[symbol] = static_cast<std::uint16_t>(code);
                    codes.length_of[symbol] = static_cast<std::uint8_t>(length);
                }
                if (length <= kFastBits) {
                    const int spare = kFastBits - length;
                    for (std::uint32_t j = 0; j < (1u << spare); ++j)
                        codes.fast[code << spare | j] = static_cast<std::uint32_t>(
                            (length + (dc ? 0 : symbol & 15)) << 16 | length << 8 | symbol);
                }
            }
            codes.max_code[length] = static_cast<std::int32_t>(code) - 1;
        }
        code <<= 1;
    }
    return true;
}

// The 64 bits from bit `position` of `data` on, the first in the top bit; at least 57 of them
// are from `data` (the rest are 0). The scan's data is followed by zeros (kPadding), so that a
// decoder reading past its end reads them.
inline std::uint64_t bits_at(const std::uint8_t* data, std::uint64_t position)
{
    std::uint64_t word;
    std::memcpy(&word, data + (position >> 3), 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    return word << (position & 7);
}

// Reads codes from bit `position` on, a word of bits at a time: the next bits are `word` shifted
// left by `used`, and the word is loaded again once more than 30 of its 57 sure bits are used,
// so that at least 27 (the longest code with its extra bits) are always there.
class BitReader {
public:
    BitReader(const std::uint8_t* data, std::uint64_t position)
        : data_(data), position_(position), word_(bits_at(data, position))
    {
    }
    std::uint64_t next() const { return word_ << used_; }
    void skip(int bits)
    {
        used_ += bits;
        if (used_ > 30) {
            position_ += static_cast<unsigned>(used_);
            used_ = 0;
            word_ = bits_at(data_, position_);
        }
    }
    std::uint64_t position() const { return position_ + static_cast<unsigned>(used_); }

private:
    const std::uint8_t* data_;
    std::uint64_t position_;
    std::uint64_t word_;
    int used_ = 0;
};

// `word`'s first bits as a code of `codes`: false when no code of 16 bits or fewer matches.
// `fast` is the code's entry of codes.fast (HuffmanCodes).
inline bool decode_symbol(const HuffmanCodes& codes, std::uint64_t word, std::uint32_t& fast)
{
    fast = codes.fast[word >> (64 - kFastBits)];
    if (fast != 0) return true;
    for (int l = kFastBits + 1; l <= 16; ++l) {
        const auto code = static_cast<std::int32_t>(word >> (64 - l));
        if (code <= codes.max_code[l]) {
            const std::uint32_t symbol = codes.values[code + codes.offset[l]];
            fast = (static_cast<std::uint32_t>(l) + (symbol & 15)) << 16 |
                   static_cast<std::uint32_t>(l) << 8 | symbol;
            return true;
        }
    }
    return false;
}

// A category's extra bits as the value they code (T.81, F.2.2.1).
inline int extend(int bits, int category)
{
    return bits < (1 << (category - 1)) ? bits - (1 << category) + 1 : bits;
}

// ----- The scan ----------------------------------------------------------------------------------

// A decoder that runs off the data reads these zeros, and is stopped after the block in which it
// does: a block spends at most 27 bits on each of its 64 terms (216 bytes).
constexpr std::size_t kPadding = 512;

struct Block {
    int component = 0;
    bool first_of_component = false;  // its DC difference is the one a restart changes
    const HuffmanCodes* dc = nullptr;
    const HuffmanCodes* ac = nullptr;
};

struct Scan {
    UnsetBytes data{0};         // the entropy-coded bytes without stuffed zeros, padded
    std::uint64_t bits = 0;     // how many of them are the scan's
    std::vector<Block> blocks;  // an MCU's blocks in order
    int components = 0;
    const HuffmanCodes* component_dc[3] = {};  // each component's DC table
    std::uint64_t mcus_per_row = 0, mcu_rows = 0;
    std::array<HuffmanCodes, 4> dc_codes, ac_codes;
    // The DC tables the rewritten file codes each row's first DC values with (extended_dc).
    std::array<HuffmanCodes, 4> dc_rewritten;
    std::vector<std::uint8_t> new_tables;  // a DHT segment for those, when any was extended
};

// `done`, or `odd`: the MCU broke a rule (a code no table has, more than 64 terms in a block, a
// term of more than 10 bits), and the decoder went on as if it had not, so that a decoder on a
// wrong path does not stop but keeps its chance of falling into step; on the true path it means
// damage. `ran_off`: past the data.
enum class Step { done, odd, ran_off };

// Where a component's first DC difference in an MCU lies, and what it is.
struct FirstDc {
    std::uint64_t begin = 0, end = 0;
    int difference = 0;
};

// Decodes the MCU at `position` and moves it past: its DC differences are added to `dc_sums`
// (per component) and, when `firsts` is given, each component's first one is noted there.
Step decode_mcu(const Scan& scan, std::uint64_t& position, int* dc_sums, FirstDc* firsts)
{
    BitReader in(scan.data.data(), position);
    Step step = Step::done;
    for (const Block& block : scan.blocks) {
        std::uint32_t code = 0;
        const std::uint64_t word = in.next();
        if (!decode_symbol(*block.dc, word, code)) {
            code = 16u << 8;  // as libjpeg does, a bad code is taken as category 0
            step = Step::odd;
        }
        const int length = code >> 8 & 0xFF, category = code & 0xFF;
        int difference = 0;
        if (category != 0)
            difference = extend(static_cast<int>((word << length) >> (64 - category)), category);
        if (firsts && block.first_of_component)
            firsts[block.component] = {in.position(),
                                       in.position() + static_cast<unsigned>(length + category),
                                       difference};
        in.skip(length + category);
        dc_sums[block.component] += difference;
        for (int k = 1; k < 64;) {
            if (!decode_symbol(*block.ac, in.next(), code)) {
                in.skip(16);
                step = Step::odd;
                break;
            }
            in.skip(static_cast<int>(code >> 16));
            const int run = code >> 4 & 15, size = code & 15;
            if (size == 0) {
                if (run != 15) break;  // end of block
                k += 16;               // sixteen zeros
                if (k > 64) step = Step::odd;
                continue;
            }
            k += run + 1;
            if (k > 64 || size > 10) step = Step::odd;
        }
        if (in.position() > scan.bits) {
            position = in.position();
            return Step::ran_off;
        }
    }
    position = in.position();
    return step;
}

// ----- Step 1: each chunk decoded from a guess --------------------------------------------------

// The MCUs one decoder went through: where they start and their DC differences.
struct Notes {
    std::uint64_t first = 0;          // the first noted MCU's first bit
    std::uint64_t next = 0;           // the bit after the last noted MCU
    std::vector<std::uint32_t> bits;  // each noted MCU's length in bits
    std::vector<std::int16_t> dc;     // each one's DC differences summed, per component
    std::vector<std::uint32_t> odd;   // the noted MCUs that broke a rule (Step::odd)
    bool ran_off = false;             // stopped because the MCU at `next` ran past the data

    void start_at(std::uint64_t position)
    {
        first = next = position;
        bits.clear();
        dc.clear();
        odd.clear();
    }
    void add(std::uint64_t end, const int* sums, int components, Step step)
    {
        if (step == Step::odd) odd.push_back(static_cast<std::uint32_t>(bits.size()));
        bits.push_back(static_cast<std::uint32_t>(end - next));
        for (int c = 0; c < components; ++c) dc.push_back(static_cast<std::int16_t>(sums[c]));
        next = end;
    }
};

// Decodes the MCUs that start in [from, to), the first taken to start at `from`.
void decode_from_a_guess(const Scan& scan, std::uint64_t from, std::uint64_t to, Notes& notes)
{
    notes.start_at(from);
    std::uint64_t position = from;
    while (position < to) {
        int sums[3] = {};
        const Step step = decode_mcu(scan, position, sums, nullptr);
        if (step == Step::ran_off) {
            notes.ran_off = true;
            return;
        }
        notes.add(position, sums, scan.components, step);
    }
}

// ----- Step 2: where each decoder meets the next ------------------------------------------------

struct Meeting {
    bool found = false;
    std::size_t chunk = 0;        // the later chunk met: the next, unless it was passed over
    std::size_t their_index = 0;  // that chunk's noted MCU at which they meet
    Notes overrun;                // this decoder's MCUs from its chunk's end to the meeting
};

// Decodes on from where chunk `t` stopped until an MCU starts where a later chunk noted one: the
// next chunk's notes, or, when this decoder passes all of them without meeting (a chunk of a few
// bytes), the one after. Not found when it runs off the data first.
void meet_a_later_chunk(const Scan& scan, const std::vector<Notes>& chunks, std::size_t t,
                        Meeting& meeting)
{
    const Notes& mine = chunks[t];
    if (mine.ran_off) return;
    std::uint64_t position = mine.next;
    meeting.overrun.start_at(position);
    for (std::size_t later = t + 1; later < chunks.size(); ++later) {
        const Notes& theirs = chunks[later];
        std::size_t index = 0;
        std::uint64_t their_position = theirs.first;
        for (;;) {
            while (index < theirs.bits.size() && their_position < position)
                their_position += theirs.bits[index++];
            if (their_position == position) {
                meeting.found = true;
                meeting.chunk = later;
                meeting.their_index = index;
                return;
            }
            if (their_position < position) break;  // past every MCU they noted
            int sums[3] = {};
            const Step step = decode_mcu(scan, position, sums, nullptr);
            if (step == Step::ran_off) return;
            meeting.overrun.add(position, sums, scan.components, step);
        }
    }
}

// Where an MCU row starts, and each component's DC prediction there. The predictions are sums
// along the path of up to millions of MCUs' differences: 64 bits, so that even a damaged scan's
// sums cannot overflow before write_rows refuses a value no DC table can code.
struct RowStart {
    std::uint64_t position = 0;
    std::int64_t dc[3] = {};
};

// The true path: chunk 0's notes up to where chunk 0 met chunk 1 (or a later one), chunk 1's
// from there, and so on; each MCU row's start on it, and where the last MCU ends. False unless the
// path is whole: every chunk met the next, no MCU on it broke a rule, and it ends where the data
// does (but for the last byte's fill bits) after exactly the scan's MCUs.
bool follow_the_true_path(const Scan& scan, const std::vector<Notes>& chunks,
                          const std::vector<Meeting>& meetings, std::vector<RowStart>& rows,
                          std::uint64_t& end)
{
    std::uint64_t mcu = 0;
    std::int64_t dc[3] = {};
    const auto visit = [&](std::uint64_t position, const Notes& notes, std::size_t index) {
        if (mcu % scan.mcus_per_row == 0) {
            if (rows.size() == scan.mcu_rows) return false;  // more MCUs than the frame has
            RowStart row;
            row.position = position;
            std::copy(dc, dc + scan.components, row.dc);
            rows.push_back(row);
        }
        for (int c = 0; c < scan.components; ++c)
            dc[c] += notes.dc[index * static_cast<std::size_t>(scan.components) +
                              static_cast<std::size_t>(c)];
        ++mcu;
        return true;
    };
    const auto walk = [&](const Notes& notes, std::size_t from) {
        // Damage on the true path: the sequential decoder decides what it gives.
        if (!notes.odd.empty() && notes.odd.back() >= from) return false;
        std::uint64_t position = notes.first;
        for (std::size_t i = 0; i < notes.bits.size(); ++i) {
            if (i >= from && !visit(position, notes, i)) return false;
            position += notes.bits[i];
        }
        return true;
    };
    std::size_t from = 0;
    for (std::size_t t = 0;;) {
        if (!walk(chunks[t], from)) return false;
        if (t + 1 == chunks.size()) break;
        if (!meetings[t].found || !walk(meetings[t].overrun, 0)) return false;
        from = meetings[t].their_index;
        t = meetings[t].chunk;
    }
    const Notes& last = chunks.back();
    end = last.next;
    return last.ran_off && mcu == scan.mcus_per_row * scan.mcu_rows && end <= scan.bits &&
           scan.bits - end < 8;
}

// ----- Step 3: the scan written again, a restart before each row -------------------------------

// Bits into bytes, a zero stuffed after each FF (T.81, F.1.2.3). `out` has room for every byte
// (twice the bits' bytes, were every byte FF).
class BitWriter {
public:
    explicit BitWriter(std::uint8_t* out) : out_(out) {}

    // The low `count` bits of `value`, count <= 32.
    void put(std::uint32_t value, int count)
    {
        if (count == 0) return;
        held_ = held_ << count | (value & (0xFFFFFFFFu >> (32 - count)));
        count_ += count;
        while (count_ >= 8) {
            count_ -= 8;
            const auto byte = static_cast<std::uint8_t>(held_ >> count_);
            *out_++ = byte;
            if (byte == 0xFF) *out_++ = 0x00;
        }
    }
    // Copies bits [from, to) of the unstuffed `data`.
    void copy(const std::uint8_t* data, std::uint64_t from, std::uint64_t to)
    {
        for (; to - from >= 32; from += 32)
            put(static_cast<std::uint32_t>(bits_at(data, from) >> 32), 32);
        const auto left = static_cast<int>(to - from);
        if (left > 0) put(static_cast<std::uint32_t>(bits_at(data, from) >> (64 - left)), left);
    }
    // Ones up to the next byte (T.81, F.1.2.3), then a marker.
    void end_with_marker(std::uint8_t code)
    {
        if (count_ % 8 != 0) put(0xFF, 8 - count_ % 8);
        *out_++ = 0xFF;
        *out_++ = code;
    }
    std::uint8_t* at() const { return out_; }

private:
    std::uint8_t* out_;
    std::uint64_t held_ = 0;
    int count_ = 0;
};

// Rows [first, last) written with a restart marker after each but the scan's last row.
bool write_rows(const Scan& scan, const std::vector<RowStart>& rows, std::uint64_t end,
                std::size_t first, std::size_t last, BitWriter& out)
{
    for (std::size_t r = first; r < last; ++r) {
        const RowStart& row = rows[r];
        std::uint64_t position = row.position;
        int sums[3] = {};
        FirstDc firsts[3];
        if (decode_mcu(scan, position, sums, firsts) != Step::done) return false;  // never so
        std::uint64_t copied = row.position;
        for (int c = 0; c < scan.components; ++c) {
            // After a restart, the prediction is 0: the difference is the value itself.
            const std::int64_t value = row.dc[c] + firsts[c].difference;
            const std::int64_t magnitude = value < 0 ? -value : value;
            if (magnitude > 2047) return false;  // more than DC's 11 bits: a damaged scan
            int category = 0;
            while ((magnitude >> category) != 0) ++category;
            const HuffmanCodes* table = scan.component_dc[c];
            if (table->length_of[category] == 0) return false;
            out.copy(scan.data.data(), copied, firsts[c].begin);
            out.put(table->code_of[category], table->length_of[category]);
            const std::int64_t extra = value < 0 ? value + (1 << category) - 1 : value;
            out.put(static_cast<std::uint32_t>(extra), category);
            copied = firsts[c].end;
        }
        const std::uint64_t row_end = r + 1 < rows.size() ? rows[r + 1].position : end;
        out.copy(scan.data.data(), copied, row_end);
        if (r + 1 < rows.size())
            out.end_with_marker(static_cast<std::uint8_t>(0xD0 + r % 8));
        else
            out.end_with_marker(0xD9);
    }
    return true;
}

// ----- The scan's bytes, without their stuffed zeros --------------------------------------------

// Chunk [begin, end) of `source` without the zero after each FF (the zero belongs to the chunk
// holding it), stopping at the first FF not followed by a zero (a marker, or fill before one):
// `kept` bytes, and `stop`, that FF's offset, when found.
struct Unstuffed {
    std::size_t kept = 0;
    std::optional<std::size_t> stop;
};

Unstuffed unstuff(const std::uint8_t* source, std::size_t size, std::size_t begin, std::size_t end,
                  std::uint8_t* out)
{
    Unstuffed result;
    std::size_t at = begin;
    if (at > 0 && at < end && source[at] == 0x00 && source[at - 1] == 0xFF) ++at;
    while (at < end) {
        const void* found = std::memchr(source + at, 0xFF, end - at);
        const std::size_t ff =
            found ? static_cast<std::size_t>(static_cast<const std::uint8_t*>(found) - source)
                  : end;
        const std::size_t run = ff - at + (found ? 1 : 0);  // the FF itself is data when stuffed
        if (found && (ff + 1 >= size || source[ff + 1] != 0x00)) {
            if (out) std::memcpy(out + result.kept, source + at, ff - at);
            result.kept += ff - at;
            result.stop = ff;
            return result;
        }
        if (out) std::memcpy(out + result.kept, source + at, run);
        result.kept += run;
        at = ff + 2;  // past the stuffed zero (which may lie in the next chunk: then it skips it)
    }
    return result;
}

// Reads the scan's bytes and drops their stuffing, on `threads` threads. False when the scan
// does not end with EOI (after any fill bytes).
bool read_scan_data(const JpegBytes& bytes, const JpegScanHeader& header, unsigned threads,
                    Scan& scan)
{
    const std::uint64_t begin = header.entropy_begin;
    const auto size = static_cast<std::size_t>(bytes.size() - begin);
    std::optional<UnsetBytes> held;
    const std::uint8_t* source = bytes.memory() ? bytes.memory() + begin : nullptr;
    const std::size_t count = std::max<std::size_t>(1, std::min<std::size_t>(threads, size >> 16));
    const auto chunk_begin = [&](std::size_t c) { return size / count * c; };
    const auto chunk_end = [&](std::size_t c) {
        return c + 1 == count ? size : size / count * (c + 1);
    };
    std::vector<std::exception_ptr> errors(count);
    if (!source) {
        held.emplace(size);
        run_each_on_a_thread(count, [&](std::size_t c) {
            try {
                bytes.read(begin + chunk_begin(c), held->data() + chunk_begin(c),
                           chunk_end(c) - chunk_begin(c));
            } catch (...) {
                errors[c] = std::current_exception();
            }
        });
        for (const auto& error : errors)
            if (error) std::rethrow_exception(error);
        source = held->data();
    }
    std::vector<Unstuffed> counted(count);
    run_each_on_a_thread(count, [&](std::size_t c) {
        counted[c] = unstuff(source, size, chunk_begin(c), chunk_end(c), nullptr);
    });
    std::size_t chunks = 0, total = 0;
    std::optional<std::size_t> stop;
    std::vector<std::size_t> offset(count, 0);
    for (; chunks < count; ++chunks) {
        offset[chunks] = total;
        total += counted[chunks].kept;
        if (counted[chunks].stop) {
            stop = counted[chunks].stop;
            ++chunks;
            break;
        }
    }
    if (!stop) return false;
    std::size_t marker = *stop;
    while (marker + 1 < size && source[marker + 1] == 0xFF) ++marker;    // fill bytes
    if (marker + 1 >= size || source[marker + 1] != 0xD9) return false;  // not EOI

    scan.data = UnsetBytes(total + kPadding);
    run_each_on_a_thread(chunks, [&](std::size_t c) {
        unstuff(source, size, chunk_begin(c), chunk_end(c), scan.data.data() + offset[c]);
    });
    std::fill(scan.data.data() + total, scan.data.data() + total + kPadding, std::uint8_t{0});
    scan.bits = std::uint64_t{total} * 8;
    return true;
}

// A DC table with a code for every category 0-11. After a restart each component's first DC
// value is coded against 0: a value that the file only ever coded as a small difference may need
// a category its table (made for the image: cjpeg -optimize) has no code for. Codes of 16 bits
// for the missing categories are added after the table's last code, where canonical codes leave
// room (every table leaves at least the all-ones code unused), so the table's own codes stay as
// they are and the rest of the scan is copied unchanged. False when there is no room.
bool extend_dc_table(const JpegScanHeader::HuffmanTable& table, JpegScanHeader::HuffmanTable& out)
{
    out = table;
    bool present[12] = {};
    for (const std::uint8_t symbol : table.values)
        if (symbol < 12) present[symbol] = true;
    for (std::uint8_t category = 0; category < 12; ++category)
        if (!present[category]) {
            out.values.push_back(category);
            ++out.counts[15];
        }
    HuffmanCodes check;
    return build_codes(out, true, check);
}

bool describe_scan(const JpegScanHeader& header, Scan& scan)
{
    scan.components = header.components;
    const bool interleaved = header.components > 1;
    const int mcu_width = interleaved ? 8 * header.most_h : 8;
    const int mcu_height = interleaved ? 8 * header.most_v : 8;
    scan.mcus_per_row = (static_cast<std::uint64_t>(header.width) + mcu_width - 1) / mcu_width;
    scan.mcu_rows = (static_cast<std::uint64_t>(header.height) + mcu_height - 1) / mcu_height;
    // DRI holds 16 bits; one row leaves nothing to decode apart.
    if (scan.mcus_per_row > 0xFFFF || scan.mcu_rows < 2) return false;
    bool dc_used[4] = {};
    for (int c = 0; c < header.components; ++c) {
        const JpegScanHeader::ScanComponent& component = header.scan[static_cast<std::size_t>(c)];
        const auto dc = static_cast<std::size_t>(component.dc_table);
        const auto ac = static_cast<std::size_t>(component.ac_table);
        if (!build_codes(header.dc[dc], true, scan.dc_codes[dc]) ||
            !build_codes(header.ac[ac], false, scan.ac_codes[ac]))
            return false;
        dc_used[dc] = true;
        scan.component_dc[c] = &scan.dc_rewritten[dc];
        const int blocks = interleaved ? component.h * component.v : 1;
        for (int b = 0; b < blocks; ++b)
            scan.blocks.push_back({c, b == 0, &scan.dc_codes[dc], &scan.ac_codes[ac]});
    }
    std::vector<std::uint8_t> segment;
    for (std::size_t t = 0; t < 4; ++t) {
        if (!dc_used[t]) continue;
        scan.dc_rewritten[t] = scan.dc_codes[t];
        JpegScanHeader::HuffmanTable extended;
        if (!extend_dc_table(header.dc[t], extended) ||
            extended.values.size() == header.dc[t].values.size())
            continue;  // kept as it is: any missing code gives up later, where it is needed
        build_codes(extended, true, scan.dc_rewritten[t]);
        segment.push_back(static_cast<std::uint8_t>(t));  // class 0 (DC), table t
        segment.insert(segment.end(), extended.counts, extended.counts + 16);
        segment.insert(segment.end(), extended.values.begin(), extended.values.end());
    }
    if (!segment.empty()) {
        const std::size_t length = segment.size() + 2;
        scan.new_tables = {0xFF, 0xC4, static_cast<std::uint8_t>(length >> 8),
                           static_cast<std::uint8_t>(length & 0xFF)};
        scan.new_tables.insert(scan.new_tables.end(), segment.begin(), segment.end());
    }
    return true;
}

}  // namespace

namespace {

std::optional<UnsetBytes> add_markers(const JpegBytes& bytes, unsigned threads,
                                      std::size_t least_chunk_bytes)
{
    const std::optional<JpegScanHeader> header = read_scan_header(bytes);
    if (!header || header->restart_interval != 0 || threads < 2) return std::nullopt;
    auto scan = std::make_unique<Scan>();
    if (!describe_scan(*header, *scan) || !read_scan_data(bytes, *header, threads, *scan))
        return std::nullopt;

    // Steps 1 and 2: one chunk a thread, each decoded from a guess, then each decoder on until
    // it meets the next one's path.
    const std::uint64_t scan_bytes = scan->bits / 8;
    const auto chunk_count = static_cast<std::size_t>(
        std::min<std::uint64_t>(threads, scan_bytes / std::max<std::size_t>(1, least_chunk_bytes)));
    if (chunk_count < 2) return std::nullopt;
    const auto chunk_start = [&](std::size_t t) {
        // The last chunk's decoder goes on until it runs off the data.
        return t == chunk_count ? ~std::uint64_t{0} : scan_bytes * t / chunk_count * 8;
    };
    std::vector<Notes> chunks(chunk_count);
    if (!run_on_threads(chunk_count, [&](std::size_t t) {
            decode_from_a_guess(*scan, chunk_start(t), chunk_start(t + 1), chunks[t]);
        }))
        return std::nullopt;
    std::vector<Meeting> meetings(chunk_count - 1);
    if (!run_on_threads(chunk_count - 1,
                        [&](std::size_t t) { meet_a_later_chunk(*scan, chunks, t, meetings[t]); }))
        return std::nullopt;
    std::vector<RowStart> rows;
    std::uint64_t end = 0;
    if (!follow_the_true_path(*scan, chunks, meetings, rows, end) || rows.size() != scan->mcu_rows)
        return std::nullopt;
    chunks.clear();
    meetings.clear();

    // Step 3: rows shared out by their bits, each thread writing its own into a buffer of its
    // own, then the file put together: the headers with a DRI of one row added before SOS.
    std::vector<std::size_t> cuts{0};
    for (std::size_t t = 1; t < chunk_count; ++t) {
        const std::uint64_t share = end * t / chunk_count;
        const auto cut =
            static_cast<std::size_t>(std::lower_bound(rows.begin(), rows.end(), share,
                                                      [](const RowStart& row, std::uint64_t p) {
                                                          return row.position < p;
                                                      }) -
                                     rows.begin());
        cuts.push_back(std::max(cuts.back(), cut));
    }
    cuts.push_back(rows.size());
    std::vector<std::unique_ptr<std::uint8_t[]>> written(chunk_count);
    std::vector<std::size_t> written_size(chunk_count, 0);
    std::vector<char> failed(chunk_count, 0);
    run_each_on_a_thread(chunk_count, [&](std::size_t t) {
        const auto position_of = [&](std::size_t r) {
            return r < rows.size() ? rows[r].position : end;
        };
        const std::uint64_t bits = position_of(cuts[t + 1]) - position_of(cuts[t]);
        // Each byte may gain a stuffed zero; each row 3 DC codes of up to 27 bits more (stuffed
        // too), fill and a marker.
        const std::size_t room =
            static_cast<std::size_t>(bits / 8 * 2) + 48 * (cuts[t + 1] - cuts[t]) + 64;
        written[t].reset(new (std::nothrow) std::uint8_t[room]);
        if (!written[t]) {
            failed[t] = 1;
            return;
        }
        BitWriter out(written[t].get());
        failed[t] = !write_rows(*scan, rows, end, cuts[t], cuts[t + 1], out);
        written_size[t] = static_cast<std::size_t>(out.at() - written[t].get());
    });
    if (std::find(failed.begin(), failed.end(), 1) != failed.end()) return std::nullopt;

    // The headers as they are, and before SOS a DRI of one MCU row and any extended DC tables.
    std::vector<std::uint8_t> added = {0xFF,
                                       0xDD,
                                       0x00,
                                       0x04,
                                       static_cast<std::uint8_t>(scan->mcus_per_row >> 8),
                                       static_cast<std::uint8_t>(scan->mcus_per_row & 0xFF)};
    added.insert(added.end(), scan->new_tables.begin(), scan->new_tables.end());
    const auto before_scan = static_cast<std::size_t>(header->scan_offset);
    const auto scan_header = static_cast<std::size_t>(header->entropy_begin - header->scan_offset);
    std::size_t total = before_scan + added.size() + scan_header;
    std::vector<std::size_t> place(chunk_count);
    for (std::size_t t = 0; t < chunk_count; ++t) {
        place[t] = total;
        total += written_size[t];
    }
    UnsetBytes file(total);
    bytes.read(0, file.data(), before_scan);
    std::copy(added.begin(), added.end(), file.data() + before_scan);
    bytes.read(header->scan_offset, file.data() + before_scan + added.size(), scan_header);
    run_each_on_a_thread(chunk_count, [&](std::size_t t) {
        std::memcpy(file.data() + place[t], written[t].get(), written_size[t]);
    });
    return file;
}

}  // namespace

std::optional<UnsetBytes> add_row_restart_markers(const JpegBytes& bytes, unsigned threads,
                                                  std::size_t least_chunk_bytes)
{
    try {
        return add_markers(bytes, threads, least_chunk_bytes);
    } catch (const std::bad_alloc&) {
        return std::nullopt;  // the sequential decoder needs far less
    }
}

}  // namespace sdk
