// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/jpeg_parallel.hpp"

#include "common/imageio/each_on_a_thread.hpp"
#include "common/imageio/libjpeg_callbacks.hpp"

#include <algorithm>
#include <vector>

namespace sdk {
namespace {

constexpr std::uint8_t kRestartMarkers[8][2] = {{0xFF, 0xD0}, {0xFF, 0xD1}, {0xFF, 0xD2},
                                                {0xFF, 0xD3}, {0xFF, 0xD4}, {0xFF, 0xD5},
                                                {0xFF, 0xD6}, {0xFF, 0xD7}};
constexpr std::uint8_t kEndOfImage[2] = {0xFF, 0xD9};
constexpr std::size_t kInputBufferBytes = 64 * 1024;

// Part of a piece's bytes: `constant` when they are held here (a marker, the new height), else
// the file's bytes [offset, offset + size).
struct Span {
    const std::uint8_t* constant = nullptr;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};

// Strips [first_strip, end_strip) (RestartLayout) decoded to the image rows [first_row,
// first_row + height), of which rows [keep_begin, keep_end) are written; the others are the
// neighbouring strips decoded only for their chroma (RestartLayout::needs_neighbour_rows).
struct Piece {
    std::size_t width = 0;
    std::size_t first_interval = 0, end_interval = 0;  // the strips' intervals
    std::size_t first_row = 0, height = 0;
    std::size_t keep_begin = 0, keep_end = 0;
    std::uint8_t height_bytes[2] = {};
};

// Where to cut: each piece about the same share of the work, since the calling thread waits for
// the slowest. Decoding costs in proportion to the compressed bytes (Huffman decoding) and to
// the pixels (inverse DCT, upsampling, colour conversion). Rows of smooth sky hold far fewer
// bytes than rows of foliage, so rows alone would misjudge a photograph; the weight of a pixel
// byte against a compressed byte (1/8) is a rough guess, which only moves the cuts a little.
std::vector<Piece> cut_into_pieces(const RestartLayout& layout, std::size_t row_bytes,
                                   unsigned threads)
{
    const std::size_t strips = layout.strips();
    const std::size_t per_strip = layout.intervals_per_strip;
    const auto interval_of = [&](std::size_t strip) {
        return std::min(layout.intervals(), strip * per_strip);
    };
    const std::size_t count = std::min<std::size_t>(std::max(1u, threads), strips);
    std::vector<double> cost_before(strips + 1, 0.0);  // of strips [0, s)
    const double pixel_bytes = static_cast<double>(layout.rows_per_strip * row_bytes);
    for (std::size_t s = 0; s < strips; ++s) {
        const std::size_t first = interval_of(s), last = interval_of(s + 1) - 1;
        const auto compressed =
            static_cast<double>(layout.interval_end[last] - layout.interval_begin[first]);
        cost_before[s + 1] = cost_before[s] + compressed + pixel_bytes / 8.0;
    }
    std::vector<std::size_t> cuts{0};
    for (std::size_t p = 1; p < count; ++p) {
        const double share =
            cost_before[strips] * static_cast<double>(p) / static_cast<double>(count);
        std::size_t cut = static_cast<std::size_t>(
            std::lower_bound(cost_before.begin(), cost_before.end(), share) - cost_before.begin());
        cut = std::clamp(cut, cuts.back() + 1, strips - (count - p));  // no piece empty
        cuts.push_back(cut);
    }
    cuts.push_back(strips);

    const std::size_t neighbours = layout.needs_neighbour_rows ? 1 : 0;
    const std::size_t rows = layout.rows_per_strip;
    std::vector<Piece> pieces(count);
    for (std::size_t p = 0; p < count; ++p) {
        Piece& piece = pieces[p];
        const std::size_t first_strip = cuts[p] - std::min(cuts[p], neighbours);
        const std::size_t end_strip = std::min(strips, cuts[p + 1] + neighbours);
        piece.width = layout.width;
        piece.first_interval = interval_of(first_strip);
        piece.end_interval = interval_of(end_strip);
        piece.first_row = first_strip * rows;
        piece.height = std::min<std::size_t>(layout.height, end_strip * rows) - piece.first_row;
        piece.keep_begin = cuts[p] * rows;
        piece.keep_end = std::min<std::size_t>(layout.height, cuts[p + 1] * rows);
        piece.height_bytes[0] = static_cast<std::uint8_t>(piece.height >> 8);
        piece.height_bytes[1] = static_cast<std::uint8_t>(piece.height);
    }
    return pieces;
}

// The piece as a JPEG file of its own (jpeg_parallel.hpp says how it is made).
std::vector<Span> spans_of(const RestartLayout& layout, const Piece& piece)
{
    std::vector<Span> spans;
    spans.push_back({nullptr, 0, layout.height_offset});
    spans.push_back({piece.height_bytes, 0, 2});
    spans.push_back(
        {nullptr, layout.height_offset + 2, layout.entropy_begin - (layout.height_offset + 2)});
    for (std::size_t i = piece.first_interval; i < piece.end_interval; ++i) {
        const std::size_t restarts_before = i - piece.first_interval;
        if (restarts_before > 0)
            spans.push_back({kRestartMarkers[(restarts_before - 1) % 8], 0, 2});
        const std::uint64_t begin = layout.interval_begin[i];
        spans.push_back({nullptr, begin, layout.interval_end[i] - begin});
    }
    spans.push_back({kEndOfImage, 0, 2});
    return spans;
}

// libjpeg's source manager over a piece's spans: bytes held in memory are handed to libjpeg
// where they lie; a file's are read kInputBufferBytes at a time.
struct PieceSource {
    jpeg_source_mgr manager;
    const JpegBytes* bytes = nullptr;
    const std::vector<Span>* spans = nullptr;
    std::size_t span = 0;     // the next span to give
    std::uint64_t given = 0;  // bytes of it given already
    std::uint8_t* buffer = nullptr;
};

PieceSource& source_of(j_decompress_ptr cinfo)
{
    return *reinterpret_cast<PieceSource*>(cinfo->src);
}

boolean on_fill_input_buffer(j_decompress_ptr cinfo)
{
    PieceSource& source = source_of(cinfo);
    const std::vector<Span>& spans = *source.spans;
    while (source.span < spans.size() && source.given == spans[source.span].size) {
        ++source.span;
        source.given = 0;
    }
    libjpeg::Errors& errors = libjpeg::errors_of(cinfo);
    if (source.span == spans.size()) {
        // Past the EOI given: only a damaged piece reads on. Not a message for a user: the
        // whole file is then decoded again sequentially, which names the damage.
        std::snprintf(errors.reason, sizeof errors.reason, "piece read past its end");
        libjpeg::jump_back(cinfo);
    }
    const Span& span = spans[source.span];
    std::uint64_t count = span.size - source.given;
    if (span.constant || source.bytes->memory()) {
        const std::uint8_t* start =
            span.constant ? span.constant : source.bytes->memory() + span.offset;
        source.manager.next_input_byte = start + source.given;
    } else {
        count = std::min<std::uint64_t>(count, kInputBufferBytes);
        try {
            source.bytes->read(span.offset + source.given, source.buffer,
                               static_cast<std::size_t>(count));
        } catch (...) {
            errors.exception = std::current_exception();
        }
        // Outside the catch block: jumping out of one would leave the exception alive for ever.
        if (errors.exception) libjpeg::jump_back(cinfo);
        source.manager.next_input_byte = source.buffer;
    }
    source.manager.bytes_in_buffer = static_cast<std::size_t>(count);
    source.given += count;
    return TRUE;
}

void on_skip_input_data(j_decompress_ptr cinfo, long count)
{
    PieceSource& source = source_of(cinfo);
    if (count <= 0) return;
    auto remaining = static_cast<std::uint64_t>(count);
    if (remaining <= source.manager.bytes_in_buffer) {
        source.manager.next_input_byte += remaining;
        source.manager.bytes_in_buffer -= static_cast<std::size_t>(remaining);
        return;
    }
    // Past what was given: move through the spans without reading them.
    remaining -= source.manager.bytes_in_buffer;
    source.manager.bytes_in_buffer = 0;
    const std::vector<Span>& spans = *source.spans;
    while (remaining > 0 && source.span < spans.size()) {
        const std::uint64_t step = std::min(remaining, spans[source.span].size - source.given);
        source.given += step;
        remaining -= step;
        if (source.given == spans[source.span].size) {
            ++source.span;
            source.given = 0;
        }
    }
}

// One piece's decompressor, its error handlers and its source, destroyed together.
class PieceDecompressor {
public:
    PieceDecompressor(const JpegBytes& bytes, const RestartLayout& layout, const Piece& piece,
                      std::size_t row_bytes)
        : spans_(spans_of(layout, piece)), scratch_row_(row_bytes)
    {
        if (!bytes.memory()) buffer_.resize(kInputBufferBytes);
        libjpeg::use_errors(errors_, &cinfo_);
        source_.bytes = &bytes;
        source_.spans = &spans_;
        source_.buffer = buffer_.data();
        libjpeg::use_source(source_.manager, on_fill_input_buffer, on_skip_input_data);
    }
    ~PieceDecompressor() { jpeg_destroy_decompress(&cinfo_); }  // safe when never created
    PieceDecompressor(const PieceDecompressor&) = delete;
    PieceDecompressor& operator=(const PieceDecompressor&) = delete;

    j_decompress_ptr cinfo() { return &cinfo_; }
    libjpeg::Errors& errors() { return errors_; }
    PieceSource& source() { return source_; }
    std::uint8_t* scratch_row() { return scratch_row_.data(); }  // for the neighbours' rows

private:
    std::vector<Span> spans_;
    std::vector<std::uint8_t> buffer_;
    std::vector<std::uint8_t> scratch_row_;
    libjpeg::Errors errors_;
    PieceSource source_{};
    jpeg_decompress_struct cinfo_{};
};

// Calls into libjpeg (libjpeg_callbacks.hpp: no object with a destructor lives here). Stops after
// the last row it keeps: the rest of a neighbour interval is never decoded. The calling thread
// hands over finished rows between its own.
bool decode_piece(PieceDecompressor* jpeg, const Piece* piece, int channels, RowTarget* rows,
                  bool calling_thread)
{
    if (setjmp(jpeg->errors().jump)) return false;
    j_decompress_ptr cinfo = jpeg->cinfo();
    jpeg_create_decompress(cinfo);
    cinfo->src = &jpeg->source().manager;
    jpeg_read_header(cinfo, TRUE);
    cinfo->out_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_start_decompress(cinfo);
    if (cinfo->output_width != piece->width || cinfo->output_height != piece->height ||
        cinfo->output_components != channels)
        return false;
    while (piece->first_row + cinfo->output_scanline < piece->keep_end) {
        const std::size_t row = piece->first_row + cinfo->output_scanline;
        const bool kept = row >= piece->keep_begin;
        JSAMPROW out = kept ? rows->row(row) : jpeg->scratch_row();
        jpeg_read_scanlines(cinfo, &out, 1);
        if (kept) rows->rows_written(row, 1);
        if (calling_thread) rows->hand_over();
    }
    return jpeg->errors().warnings == 0;
}

}  // namespace

bool decode_restart_intervals(const JpegBytes& bytes, const RestartLayout& layout, unsigned threads,
                              int channels, RowTarget& rows)
{
    if (layout.intervals() == 0 || layout.intervals_per_strip == 0) return false;
    const std::size_t row_bytes = layout.width * static_cast<std::size_t>(channels);
    const std::vector<Piece> pieces = cut_into_pieces(layout, row_bytes, threads);
    std::vector<char> decoded(pieces.size(), 0);  // not vector<bool>: each thread writes its own
    const auto decode = [&](std::size_t p) {
        try {
            PieceDecompressor jpeg(bytes, layout, pieces[p], row_bytes);
            decoded[p] = decode_piece(&jpeg, &pieces[p], channels, &rows, p == 0);
        } catch (...) {
            decoded[p] = 0;  // out of memory for a buffer: the sequential decoder will say so
        }
    };
    run_each_on_a_thread(pieces.size(), decode);
    return std::all_of(decoded.begin(), decoded.end(), [](char ok) { return ok != 0; });
}

}  // namespace sdk
