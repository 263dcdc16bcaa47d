// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/jpeg.hpp"

#include "common/imageio/byte_source.hpp"
#include "common/imageio/cores.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/jpeg_parallel.hpp"
#include "common/imageio/jpeg_resync.hpp"
#include "common/imageio/libjpeg_callbacks.hpp"
#include "common/imageio/while_loading.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <thread>
#include <vector>

// How libjpeg's errors come back to us (a longjmp, and what that forbids): libjpeg_callbacks.hpp.

namespace sdk {
namespace {

using JpegErrors = libjpeg::Errors;
using libjpeg::errors_of;
using libjpeg::jump_back;

constexpr std::size_t kInputBufferBytes = 64 * 1024;

// libjpeg's source manager with where the bytes come from beside it (libjpeg's fields first,
// as for JpegErrors).
struct JpegSource {
    jpeg_source_mgr manager;
    ByteSource* bytes = nullptr;
    JOCTET* buffer = nullptr;
    bool decoding = false;            // past the headers: jpeg_start_decompress was called
    bool end_marker_missing = false;  // the file ended there, and an EOI was given in its place
};

// Called by libjpeg as it reads, at least once per scan: where a file with too many scans is
// stopped (see kMaxJpegScans), before the scan past the limit is decoded.
void on_progress(j_common_ptr cinfo)
{
    if (!cinfo->is_decompressor) return;
    const int scan = reinterpret_cast<j_decompress_ptr>(cinfo)->input_scan_number;
    if (scan <= kMaxJpegScans) return;
    JpegErrors& errors = errors_of(cinfo);
    std::snprintf(errors.reason, sizeof errors.reason,
                  "too many scans: scan %d found, the limit is %d (each scan is a pass over the "
                  "whole image; encoders write about 10)",
                  scan, kMaxJpegScans);
    jump_back(cinfo);
}

boolean on_fill_input_buffer(j_decompress_ptr cinfo)
{
    auto& source = *reinterpret_cast<JpegSource*>(cinfo->src);
    JpegErrors& errors = errors_of(reinterpret_cast<j_common_ptr>(cinfo));
    std::size_t got = 0;
    try {
        got = source.bytes->read(source.buffer, kInputBufferBytes);
    } catch (...) {
        errors.exception = std::current_exception();
    }
    // Outside the catch block: jumping out of one would leave the exception alive for ever.
    if (errors.exception) jump_back(reinterpret_cast<j_common_ptr>(cinfo));
    if (got == 0 && source.decoding && !source.end_marker_missing) {
        // The end of the file while decoding: an end marker in its place, as libjpeg's own
        // sources do. A file cut only after its image data (the two bytes of EOI, as cameras and
        // downloads cut them) then decodes whole; one cut inside the data makes the entropy
        // decoder meet the marker early, a warning that on_message refuses (check() names it
        // as a truncation), and one cut between the scans of a progressive file is refused
        // by read_rows.
        static const JOCTET kEndMarker[2] = {0xFF, JPEG_EOI};
        source.end_marker_missing = true;
        source.manager.next_input_byte = kEndMarker;
        source.manager.bytes_in_buffer = sizeof kEndMarker;
        return TRUE;
    }
    if (got == 0) {
        // Before the image data: nothing to decode. (libjpeg's own answer to an early end is a
        // warning and a grey remainder.)
        std::snprintf(errors.reason, sizeof errors.reason,
                      "truncated: the file ends at byte %llu, before its image data does",
                      static_cast<unsigned long long>(source.bytes->size()));
        jump_back(reinterpret_cast<j_common_ptr>(cinfo));
    }
    source.manager.next_input_byte = source.buffer;
    source.manager.bytes_in_buffer = got;
    return TRUE;
}

void on_skip_input_data(j_decompress_ptr cinfo, long count)
{
    auto& source = *reinterpret_cast<JpegSource*>(cinfo->src);
    if (count <= 0) return;
    auto remaining = static_cast<std::size_t>(count);
    while (remaining > source.manager.bytes_in_buffer) {
        remaining -= source.manager.bytes_in_buffer;
        on_fill_input_buffer(cinfo);
    }
    source.manager.next_input_byte += remaining;
    source.manager.bytes_in_buffer -= remaining;
}

// A decompressor, its error handlers and its source, destroyed together on every way out.
class JpegDecompressor {
public:
    explicit JpegDecompressor(ByteSource& bytes) : buffer_(kInputBufferBytes)
    {
        libjpeg::use_errors(errors_, &cinfo_);
        source_.bytes = &bytes;
        source_.buffer = buffer_.data();
        libjpeg::use_source(source_.manager, on_fill_input_buffer, on_skip_input_data);
        progress_.progress_monitor = on_progress;
    }
    ~JpegDecompressor() { jpeg_destroy_decompress(&cinfo_); }  // safe when never created
    JpegDecompressor(const JpegDecompressor&) = delete;
    JpegDecompressor& operator=(const JpegDecompressor&) = delete;

    j_decompress_ptr cinfo() { return &cinfo_; }
    JpegErrors& errors() { return errors_; }
    JpegSource& source() { return source_; }
    jpeg_progress_mgr& progress() { return progress_; }

private:
    std::vector<JOCTET> buffer_;
    JpegErrors errors_;
    JpegSource source_{};
    jpeg_progress_mgr progress_{};
    jpeg_decompress_struct cinfo_{};
};

// The steps that call into libjpeg, each returning false when it failed (the reason is in the
// error manager). No object with a destructor lives in them.
bool read_header(JpegDecompressor* jpeg)
{
    if (setjmp(jpeg->errors().jump)) return false;
    jpeg_create_decompress(jpeg->cinfo());
    jpeg->cinfo()->src = &jpeg->source().manager;
    jpeg->cinfo()->progress = &jpeg->progress();
    jpeg_read_header(jpeg->cinfo(), TRUE);
    return true;
}

// Whether every coefficient of every component reached its last refinement (Al = 0) in the
// scans read: false for a progressive file whose later scans are missing.
bool every_coefficient_complete(j_decompress_ptr cinfo)
{
    if (!cinfo->progressive_mode || !cinfo->coef_bits) return false;
    for (int component = 0; component < cinfo->num_components; ++component)
        for (int k = 0; k < DCTSIZE2; ++k)
            if (cinfo->coef_bits[component][k] != 0) return false;
    return true;
}

// After a file of several scans is read whole (by jpeg_start_decompress or
// jpeg_read_coefficients), its end marker missing: the scans read must still be every scan, a
// progressive file's coefficients all refined (a sequential file of several scans has no such
// record, and is refused so). Jumps back when they are not.
void refuse_missing_scans(JpegDecompressor* jpeg)
{
    j_decompress_ptr cinfo = jpeg->cinfo();
    if (jpeg->source().end_marker_missing && jpeg_has_multiple_scans(cinfo) &&
        !every_coefficient_complete(cinfo)) {
        std::snprintf(jpeg->errors().reason, sizeof jpeg->errors().reason,
                      "truncated: the file ends after scan %d, before its last scan",
                      cinfo->input_scan_number);
        jump_back(cinfo);
    }
}

bool read_rows(JpegDecompressor* jpeg, RowTarget* rows)
{
    if (setjmp(jpeg->errors().jump)) return false;
    j_decompress_ptr cinfo = jpeg->cinfo();
    jpeg->source().decoding = true;
    jpeg_start_decompress(cinfo);
    refuse_missing_scans(jpeg);
    while (cinfo->output_scanline < cinfo->output_height) {
        const std::size_t y = cinfo->output_scanline;
        JSAMPROW row = rows->row(y);
        jpeg_read_scanlines(cinfo, &row, 1);
        rows->rows_written(y, 1);
        rows->hand_over();
    }
    jpeg_finish_decompress(cinfo);
    return true;
}

// Every coefficient of the luminance plane at its final precision: a progressive file's scans
// may leave some unrefined (or never sent), and libjpeg smooths such blocks while it runs the
// inverse DCT, which the coefficients alone do not tell.
bool luminance_complete(j_decompress_ptr cinfo)
{
    if (!cinfo->progressive_mode) return true;
    for (int k = 0; k < DCTSIZE2; ++k)
        if (cinfo->coef_bits[0][k] != 0) return false;
    return true;
}

// The entropy-decoded scans: the luminance plane's blocks copied into `blocks` (room for every
// block of comp_info[0]), its quantisation table into `quantisation`; `complete` tells whether
// luminance_complete.
bool read_coefficients(JpegDecompressor* jpeg, std::int16_t* blocks, std::uint16_t* quantisation,
                       bool* complete)
{
    if (setjmp(jpeg->errors().jump)) return false;
    j_decompress_ptr cinfo = jpeg->cinfo();
    jpeg->source().decoding = true;
    jvirt_barray_ptr* planes = jpeg_read_coefficients(cinfo);
    refuse_missing_scans(jpeg);
    const jpeg_component_info& luminance = cinfo->comp_info[0];
    const std::size_t row_bytes = std::size_t{luminance.width_in_blocks} * sizeof(JBLOCK);
    for (JDIMENSION row = 0; row < luminance.height_in_blocks; ++row) {
        JBLOCKARRAY stored = cinfo->mem->access_virt_barray(reinterpret_cast<j_common_ptr>(cinfo),
                                                            planes[0], row, 1, FALSE);
        std::memcpy(blocks + row * row_bytes / sizeof(std::int16_t), stored[0], row_bytes);
    }
    // libjpeg keeps the table each component was decoded with (a file may redefine a table
    // between scans); its values are in the blocks' order. A file whose scans never include the
    // luminance plane has no such table (libjpeg leaves it null): its pixels are what libjpeg's
    // own decoding makes of the missing plane, so it is reported as not complete.
    const JQUANT_TBL* table = luminance.quant_table;
    if (table != nullptr)
        for (int k = 0; k < DCTSIZE2; ++k) quantisation[k] = table->quantval[k];
    *complete = table != nullptr && luminance_complete(cinfo);
    jpeg_finish_decompress(cinfo);
    return true;
}

class JpegDecoder {
public:
    // `bytes` is read in order by the sequential decoder; `anywhere`, the same bytes, by the
    // decoder of restart intervals.
    JpegDecoder(ByteSource& bytes, const JpegBytes& anywhere, const std::string& name)
        : bytes_(bytes), anywhere_(anywhere), name_(name), jpeg_(bytes)
    {
    }

    ImageHeader header(bool luminance_only = false)
    {
        // The first bytes are read into libjpeg's input buffer, and left there for it.
        JpegSource& source = jpeg_.source();
        const std::size_t got = bytes_.read(source.buffer, 3);
        if (!has_jpeg_signature(source.buffer, got)) fail("not a JPEG file (no SOI marker)");
        source.manager.next_input_byte = source.buffer;
        source.manager.bytes_in_buffer = got;
        check(read_header(&jpeg_));

        j_decompress_ptr cinfo = jpeg_.cinfo();
        switch (cinfo->jpeg_color_space) {
            case JCS_GRAYSCALE:
                cinfo->out_color_space = JCS_GRAYSCALE;
                break;
            case JCS_YCbCr:
                cinfo->out_color_space = luminance_only ? JCS_GRAYSCALE : JCS_RGB;
                break;
            case JCS_RGB:
                cinfo->out_color_space = JCS_RGB;
                break;
            case JCS_CMYK:
            case JCS_YCCK:
                fail("CMYK JPEG is not supported (save it as RGB or greyscale)");
            default:
                fail("unsupported JPEG colour space (" + std::to_string(cinfo->num_components) +
                     " components of unknown meaning)");
        }
        if (cinfo->arith_code) fail("arithmetic-coded JPEG is not supported");
        check_image_limits(cinfo->image_width, cinfo->image_height, name_);
        // Huffman coding spends at least one bit on every 8x8 block of every component (its DC
        // term, even in a progressive file's first scan): a header declaring more blocks than the
        // file has bits cannot be a whole file, and is refused before the image is allocated.
        std::uint64_t blocks = 0;
        for (int i = 0; i < cinfo->num_components; ++i)
            blocks += std::uint64_t{cinfo->comp_info[i].width_in_blocks} *
                      cinfo->comp_info[i].height_in_blocks;
        if ((blocks + 7) / 8 > bytes_.size())
            fail("declares " + std::to_string(cinfo->image_width) + "x" +
                 std::to_string(cinfo->image_height) + " pixels, more than a file of " +
                 std::to_string(bytes_.size()) + " bytes can hold (truncated?)");
        const int channels = cinfo->out_color_space == JCS_GRAYSCALE ? 1 : 3;
        return {cinfo->image_width, cinfo->image_height, channels};
    }

    Image decode(const JpegDecoding& decoding)
    {
        Image image = allocate_image(header(decoding.luminance_only));
        ImageRows rows(image);
        decode_into(rows, image.channels, decoding);
        return image;
    }

    void decode_bands(const Bands& bands, const JpegDecoding& decoding)
    {
        const ImageHeader declared = header(decoding.luminance_only);
        RowBands rows(bands, declared.width, declared.height, declared.channels);
        decode_into(rows, declared.channels, decoding);
        rows.finish();
    }

    std::optional<JpegLuminanceCoefficients> luminance_coefficients()
    {
        const ImageHeader declared = header(true);
        if (declared.channels != 1) return std::nullopt;  // RGB-coded
        const j_decompress_ptr cinfo = jpeg_.cinfo();
        const jpeg_component_info& luminance = cinfo->comp_info[0];
        if (luminance.h_samp_factor != cinfo->max_h_samp_factor ||
            luminance.v_samp_factor != cinfo->max_v_samp_factor)
            return std::nullopt;
        JpegLuminanceCoefficients plane;
        plane.width = declared.width;
        plane.height = declared.height;
        plane.blocks_wide = luminance.width_in_blocks;
        plane.blocks_high = luminance.height_in_blocks;
        plane.coefficients.resize(plane.blocks_wide * plane.blocks_high * DCTSIZE2);
        bool complete = false;
        check(read_coefficients(&jpeg_, plane.coefficients.data(), plane.quantisation.data(),
                                &complete));
        if (!complete) return std::nullopt;
        return plane;
    }

private:
    // The parallel decoder for the files it takes (jpeg_restarts.hpp), after libjpeg has read
    // the headers (header()) and agrees on what they say; false for every other file, and when
    // a piece fails.
    // A file without restart markers is given them first (jpeg_resync.hpp), and `path` says so.
    bool decode_restart_intervals_into(RowTarget& rows, int channels, const JpegDecoding& decoding,
                                       JpegPath& path)
    {
        const unsigned threads = decoding.threads != 0 ? decoding.threads : threads_per_image();
        const j_decompress_ptr cinfo = jpeg_.cinfo();
        const std::size_t pixels = std::size_t{cinfo->image_width} * cinfo->image_height;
        if (threads < 2 || pixels < decoding.parallel_from_pixels || cinfo->progressive_mode ||
            cinfo->arith_code || cinfo->comps_in_scan != cinfo->num_components)
            return false;
        std::optional<UnsetBytes> with_restarts;
        const JpegBytes* bytes = &anywhere_;
        JpegBytes rewritten(nullptr, 0);
        if (cinfo->restart_interval == 0) {
            // Adding them costs a Huffman decoding of the whole scan, shared among the threads:
            // with 2 it costs what it saves (58 ms either way for a 3264x2448 q90 photo of
            // 2.9 MB on a 2-core machine here), from 3 on it saves.
            constexpr unsigned kLeastThreadsToAddRestarts = 3;
            if (threads < kLeastThreadsToAddRestarts || pixels < decoding.add_restarts_from_pixels)
                return false;
            with_restarts = add_row_restart_markers(anywhere_, threads, decoding.least_chunk_bytes);
            if (!with_restarts) return false;
            rewritten = JpegBytes(with_restarts->data(), with_restarts->size());
            bytes = &rewritten;
            path = JpegPath::restarts_added;
        }
        const std::optional<RestartLayout> layout = find_restart_intervals(*bytes, threads);
        return layout && layout->width == cinfo->image_width &&
               layout->height == cinfo->image_height &&
               decode_restart_intervals(*bytes, *layout, threads, channels, rows);
    }

    // After header(): the parallel decoder where it can, else (or when it fails) the sequential.
    void decode_into(RowTarget& rows, int channels, const JpegDecoding& decoding)
    {
        JpegPath path = JpegPath::restart_intervals;
        if (!decode_restart_intervals_into(rows, channels, decoding, path)) {
            // Whatever the other decoder left in the rows is overwritten, or the image dropped.
            path = JpegPath::sequential;
            rows.start_again();
            check(read_rows(&jpeg_, &rows));
            // Decoded whole (a cut inside the data was refused above): the user still hears why
            // the file is shorter than it should be, in case more of it was meant to be there.
            if (jpeg_.source().end_marker_missing)
                note_about_input(name_ +
                                 ": the file has no end marker (EOI, its last 2 bytes); its "
                                 "image data is whole and was decoded");
        }
        if (decoding.path_taken) *decoding.path_taken = path;
    }

    [[noreturn]] void fail(const std::string& reason) const
    {
        throw ImageError(name_ + ": " + reason);
    }

    void check(bool succeeded)
    {
        if (succeeded) return;
        if (jpeg_.errors().exception) std::rethrow_exception(jpeg_.errors().exception);
        const JpegSource& source = jpeg_.source();
        if (source.end_marker_missing &&
            std::string(jpeg_.errors().reason).rfind("truncated", 0) != 0)
            fail("truncated: the file ends at byte " + std::to_string(bytes_.size()) +
                 ", before its image data does (" + jpeg_.errors().reason + ")");
        fail(jpeg_.errors().reason);
    }

    ByteSource& bytes_;
    const JpegBytes& anywhere_;
    const std::string& name_;
    JpegDecompressor jpeg_;
};

}  // namespace

bool has_jpeg_signature(const std::uint8_t* prefix, std::size_t size)
{
    return prefix && size >= 3 && prefix[0] == 0xFF && prefix[1] == 0xD8 && prefix[2] == 0xFF;
}

ImageHeader read_jpeg_header(const InputFile& file, const JpegDecoding& decoding)
{
    ByteSource bytes(file);
    const JpegBytes anywhere(file);
    return while_loading([&] {
        return JpegDecoder(bytes, anywhere, file.path().string()).header(decoding.luminance_only);
    });
}

ImageHeader read_jpeg_header(const InputFile& file)
{
    return read_jpeg_header(file, JpegDecoding{});
}

Image read_jpeg(const InputFile& file, const JpegDecoding& decoding)
{
    ByteSource bytes(file);
    const JpegBytes anywhere(file);
    return while_loading(
        [&] { return JpegDecoder(bytes, anywhere, file.path().string()).decode(decoding); });
}

Image read_jpeg(const InputFile& file)
{
    return read_jpeg(file, JpegDecoding{});
}

Image decode_jpeg(const std::uint8_t* data, std::size_t size, const std::string& name,
                  const JpegDecoding& decoding)
{
    ByteSource bytes(data, size);
    const JpegBytes anywhere(data, size);
    return while_loading([&] { return JpegDecoder(bytes, anywhere, name).decode(decoding); });
}

void read_jpeg_bands(const InputFile& file, const Bands& bands, const JpegDecoding& decoding)
{
    ByteSource bytes(file);
    const JpegBytes anywhere(file);
    while_loading(
        [&] { JpegDecoder(bytes, anywhere, file.path().string()).decode_bands(bands, decoding); });
}

void decode_jpeg_bands(const std::uint8_t* data, std::size_t size, const std::string& name,
                       const Bands& bands, const JpegDecoding& decoding)
{
    ByteSource bytes(data, size);
    const JpegBytes anywhere(data, size);
    while_loading([&] { JpegDecoder(bytes, anywhere, name).decode_bands(bands, decoding); });
}

std::optional<JpegLuminanceCoefficients> read_jpeg_luminance_coefficients(const InputFile& file)
{
    ByteSource bytes(file);
    const JpegBytes anywhere(file);
    return while_loading([&] {
        return JpegDecoder(bytes, anywhere, file.path().string()).luminance_coefficients();
    });
}

std::optional<JpegLuminanceCoefficients> decode_jpeg_luminance_coefficients(
    const std::uint8_t* data, std::size_t size, const std::string& name)
{
    ByteSource bytes(data, size);
    const JpegBytes anywhere(data, size);
    return while_loading(
        [&] { return JpegDecoder(bytes, anywhere, name).luminance_coefficients(); });
}

namespace {
// The encoding's calls into libjpeg; as for the decoder's steps, no object with a destructor
// lives here (an error longjmps out).
bool compress(jpeg_compress_struct* cinfo, JpegErrors* errors, const Image& image, int quality,
              unsigned char** memory, unsigned long* size)
{
    if (setjmp(errors->jump)) return false;
    jpeg_create_compress(cinfo);
    jpeg_mem_dest(cinfo, memory, size);
    cinfo->image_width = static_cast<JDIMENSION>(image.width);
    cinfo->image_height = static_cast<JDIMENSION>(image.height);
    cinfo->input_components = image.channels;
    cinfo->in_color_space = image.channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    jpeg_start_compress(cinfo, TRUE);
    while (cinfo->next_scanline < cinfo->image_height) {
        JSAMPROW row = const_cast<JSAMPROW>(image.pixels.data() +
                                            std::size_t{cinfo->next_scanline} * image.width *
                                                static_cast<std::size_t>(image.channels));
        jpeg_write_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_compress(cinfo);
    return true;
}

void ignore_message(j_common_ptr, int) {}
}  // namespace

std::vector<std::uint8_t> encode_jpeg(const Image& image, int quality)
{
    jpeg_compress_struct cinfo{};
    JpegErrors errors;
    cinfo.err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = libjpeg::on_error;
    errors.manager.emit_message = ignore_message;
    unsigned char* memory = nullptr;  // libjpeg's, grown as it writes
    unsigned long size = 0;
    const bool done = compress(&cinfo, &errors, image, quality, &memory, &size);
    jpeg_destroy_compress(&cinfo);
    std::vector<std::uint8_t> bytes;
    try {
        if (done) bytes.assign(memory, memory + size);
    } catch (...) {
        std::free(memory);
        throw;
    }
    std::free(memory);
    if (!done) throw ImageError(std::string("encoding a JPEG: ") + errors.reason);
    return bytes;
}

Image decode_jpeg(const std::uint8_t* data, std::size_t size, const std::string& name)
{
    return decode_jpeg(data, size, name, JpegDecoding{});
}

}  // namespace sdk
