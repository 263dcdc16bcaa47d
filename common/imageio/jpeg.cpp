#include "common/imageio/jpeg.hpp"

#include "common/imageio/byte_source.hpp"
#include "common/imageio/file_io.hpp"

#include <csetjmp>
#include <cstdio>  // jpeglib.h uses FILE without including it
#include <exception>
#include <vector>

#include <jpeglib.h>

// How libjpeg reports errors, and what that means here: it calls error_exit, which must not
// return; ours longjmps back to the setjmp of the step that called into libjpeg. A longjmp skips
// destructors, so the functions holding a setjmp, and our callbacks, keep no C++ object with a
// destructor alive across a call into libjpeg: the Image, the input buffer and the decompressor
// (in an RAII owner) live in the callers, which the jump never leaves. An exception from our own
// reading code is caught in the callback, kept as an exception_ptr and thrown again afterwards.

namespace sdk {
namespace {

constexpr std::size_t kInputBufferBytes = 64 * 1024;

// libjpeg's error manager with what our handlers need beside it. libjpeg only sees the first
// member; our handlers get back to the whole from that pointer (a standard-layout struct starts
// at its first member).
struct JpegErrors {
    jpeg_error_mgr manager;
    std::jmp_buf jump;
    std::exception_ptr exception;        // thrown by our reading code inside a callback
    char reason[JMSG_LENGTH_MAX + 64] = {};
};

// The same for the source manager: libjpeg's fields first, then where the bytes come from.
struct JpegSource {
    jpeg_source_mgr manager;
    ByteSource* bytes = nullptr;
    JOCTET* buffer = nullptr;
};

JpegErrors& errors_of(j_common_ptr cinfo) { return *reinterpret_cast<JpegErrors*>(cinfo->err); }

[[noreturn]] void jump_back(j_common_ptr cinfo) { std::longjmp(errors_of(cinfo).jump, 1); }

[[noreturn]] void on_error(j_common_ptr cinfo)
{
    JpegErrors& errors = errors_of(cinfo);
    if (errors.reason[0] == '\0') (*cinfo->err->format_message)(cinfo, errors.reason);
    jump_back(cinfo);
}

// Warnings (recoverable damage) and trace messages: not printed; stderr is kept for the one line
// that says why a run failed.
void on_message(j_common_ptr, int) {}

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

void on_init_source(j_decompress_ptr) {}
void on_term_source(j_decompress_ptr) {}

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
    if (got == 0) {
        // libjpeg's own answer to an early end is a warning and a grey remainder: refuse instead.
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
        cinfo_.err = jpeg_std_error(&errors_.manager);
        errors_.manager.error_exit = on_error;
        errors_.manager.emit_message = on_message;
        source_.bytes = &bytes;
        source_.buffer = buffer_.data();
        source_.manager.init_source = on_init_source;
        source_.manager.fill_input_buffer = on_fill_input_buffer;
        source_.manager.skip_input_data = on_skip_input_data;
        source_.manager.resync_to_restart = jpeg_resync_to_restart;
        source_.manager.term_source = on_term_source;
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

bool read_rows(JpegDecompressor* jpeg, std::uint8_t* pixels, std::size_t row_bytes)
{
    if (setjmp(jpeg->errors().jump)) return false;
    j_decompress_ptr cinfo = jpeg->cinfo();
    jpeg_start_decompress(cinfo);
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW row = pixels + std::size_t{cinfo->output_scanline} * row_bytes;
        jpeg_read_scanlines(cinfo, &row, 1);
    }
    jpeg_finish_decompress(cinfo);
    return true;
}

class JpegDecoder {
public:
    JpegDecoder(ByteSource& bytes, const std::string& name) : bytes_(bytes), name_(name), jpeg_(bytes) {}

    ImageHeader header()
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

    Image decode()
    {
        Image image = allocate_image(header());
        const std::size_t row_bytes = image.width * static_cast<std::size_t>(image.channels);
        check(read_rows(&jpeg_, image.pixels.data(), row_bytes));
        return image;
    }

private:
    [[noreturn]] void fail(const std::string& reason) const { throw ImageError(name_ + ": " + reason); }

    void check(bool succeeded)
    {
        if (succeeded) return;
        if (jpeg_.errors().exception) std::rethrow_exception(jpeg_.errors().exception);
        fail(jpeg_.errors().reason);
    }

    ByteSource& bytes_;
    const std::string& name_;
    JpegDecompressor jpeg_;
};

template <typename Step>
auto run(Step step)
{
    try {
        return step();
    } catch (const FileError& error) {
        throw ImageError(error.what());  // one exception type for "this image cannot be loaded"
    }
}

}  // namespace

bool has_jpeg_signature(const std::uint8_t* prefix, std::size_t size)
{
    return prefix && size >= 3 && prefix[0] == 0xFF && prefix[1] == 0xD8 && prefix[2] == 0xFF;
}

ImageHeader read_jpeg_header(const InputFile& file)
{
    ByteSource bytes(file);
    return run([&] { return JpegDecoder(bytes, file.path().string()).header(); });
}

Image read_jpeg(const InputFile& file)
{
    ByteSource bytes(file);
    return run([&] { return JpegDecoder(bytes, file.path().string()).decode(); });
}

Image decode_jpeg(const std::uint8_t* data, std::size_t size, const std::string& name)
{
    ByteSource bytes(data, size);
    return run([&] { return JpegDecoder(bytes, name).decode(); });
}

}  // namespace sdk
