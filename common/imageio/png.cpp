// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/png.hpp"

#include "common/imageio/byte_source.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/png_writer.hpp"
#include "common/imageio/while_loading.hpp"

#include <png.h>

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <exception>
#include <new>
#include <stdexcept>

// Reading goes through libpng; writing does not (png_writer.cpp compresses on all cores).
//
// How libpng reports errors, and what that means here: it calls our error function, which must
// not return; we longjmp back to the setjmp of the step that called into libpng. A longjmp skips
// destructors, so the functions holding a setjmp, and our callbacks, keep no C++ object with a
// destructor alive across a call into libpng: the Image, the row pointers and the libpng structs
// (in an RAII owner) live in the callers, which the jump never leaves. An exception thrown by
// our own code inside a callback (a failed read) is caught there, kept as an exception_ptr, and
// thrown again once libpng has given control back.

namespace sdk {
namespace {

// The best deflate can do is about 1032 output bytes for one input byte: a header declaring more
// pixel bytes than that times the file's size cannot be a whole file, and is refused before the
// image is allocated.
constexpr std::uint64_t kMaxDeflateRatio = 1032;

// What our callbacks share with the code that called libpng. Owned by that code.
struct PngContext {
    ByteSource* source = nullptr;
    std::exception_ptr exception;  // thrown by our code inside a callback, to rethrow
    char reason[256] = {};         // libpng's message, or ours for a truncated file
};

void remember(PngContext& context, const char* reason)
{
    if (context.reason[0] == '\0')
        std::snprintf(context.reason, sizeof context.reason, "%s", reason);
}

[[noreturn]] void on_error(png_structp png, png_const_charp message)
{
    remember(*static_cast<PngContext*>(png_get_error_ptr(png)), message);
    png_longjmp(png, 1);
}

// Warnings concern chunks we do not use (a bad gAMA, an oversized text chunk) or are benign;
// none changes the pixels, and stderr is kept for the one line that says why a run failed.
void on_warning(png_structp, png_const_charp) {}

void on_read(png_structp png, png_bytep data, std::size_t length)
{
    auto& context = *static_cast<PngContext*>(png_get_io_ptr(png));
    std::size_t got = 0;
    try {
        got = context.source->read(data, length);
    } catch (...) {
        context.exception = std::current_exception();
    }
    // Outside the catch block: jumping out of one would leave the exception alive for ever.
    if (context.exception) png_error(png, "read failed");
    if (got < length) {
        remember(context, ("truncated: the file ends at byte " +
                           std::to_string(context.source->size()) + ", before its last chunk does")
                              .c_str());
        png_error(png, "truncated");
    }
}

// A reading png_struct and its png_info, destroyed together on every way out.
class PngStructs {
public:
    explicit PngStructs(PngContext& context)
    {
        png_ = png_create_read_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
        if (png_) info_ = png_create_info_struct(png_);
        if (!png_ || !info_) {
            destroy();
            throw std::bad_alloc();
        }
    }
    ~PngStructs() { destroy(); }
    PngStructs(const PngStructs&) = delete;
    PngStructs& operator=(const PngStructs&) = delete;

    png_structp png() const { return png_; }
    png_infop info() const { return info_; }

private:
    void destroy()
    {
        if (png_) png_destroy_read_struct(&png_, info_ ? &info_ : nullptr, nullptr);
    }

    png_structp png_ = nullptr;
    png_infop info_ = nullptr;
};

// The steps that call into libpng, each returning false when libpng failed (the reason is in
// the context). No object with a destructor lives in them.
bool read_info(png_structp png, png_infop info)
{
    if (setjmp(png_jmpbuf(png))) return false;
    png_read_info(png, info);
    return true;
}

// Asks libpng for 8-bit grey or RGB whatever is stored: palettes and low bit depths expanded,
// 16-bit samples cut to their high byte (png_set_strip_16, not png_set_scale_16: OpenCV's
// choice), alpha dropped, and the interlaced passes merged.
bool choose_output(png_structp png, png_infop info)
{
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_strip_alpha(png);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    return true;
}

bool read_rows(png_structp png, png_bytepp rows)
{
    if (setjmp(png_jmpbuf(png))) return false;
    png_read_image(png, rows);
    png_read_end(png, nullptr);  // the chunks after the pixels, up to IEND: a whole file
    return true;
}

bool read_some_rows(png_structp png, png_bytepp rows, std::size_t count)
{
    if (setjmp(png_jmpbuf(png))) return false;
    png_read_rows(png, rows, nullptr, static_cast<png_uint_32>(count));
    return true;
}

bool read_end(png_structp png)
{
    if (setjmp(png_jmpbuf(png))) return false;
    png_read_end(png, nullptr);
    return true;
}

class PngDecoder {
public:
    PngDecoder(ByteSource& source, const std::string& name) : name_(name), structs_(context_)
    {
        context_.source = &source;
    }

    ImageHeader header()
    {
        std::uint8_t signature[8];
        if (context_.source->read(signature, sizeof signature) != sizeof signature ||
            !has_png_signature(signature, sizeof signature))
            fail("not a PNG file (no PNG signature)");
        png_structp png = structs_.png();
        png_set_read_fn(png, &context_, on_read);
        png_set_sig_bytes(png, sizeof signature);
        // Our limit, with our message: libpng's own (1000000 a side) would speak first otherwise.
        png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
        // Every ancillary chunk but tRNS is skipped unread into memory, known ones too (-1): we
        // use none of them, and libpng would inflate each zTXt, iTXt and iCCP chunk (up to its
        // 8 MB limit) and keep up to 1000 texts: gigabytes from a file of a few megabytes.
        png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, nullptr, -1);
        check(read_info(png, structs_.info()));

        const std::uint64_t width = png_get_image_width(png, structs_.info());
        const std::uint64_t height = png_get_image_height(png, structs_.info());
        check_image_limits(width, height, name_);
        // The filtered rows as stored (a filter byte each), before any expansion.
        const std::uint64_t stored = (png_get_rowbytes(png, structs_.info()) + 1) * height;
        if (stored / kMaxDeflateRatio > context_.source->size())
            fail("declares " + std::to_string(width) + "x" + std::to_string(height) +
                 " pixels, more than a file of " + std::to_string(context_.source->size()) +
                 " bytes can hold (truncated?)");
        check(choose_output(png, structs_.info()));
        const int channels = png_get_channels(png, structs_.info());
        return {static_cast<std::size_t>(width), static_cast<std::size_t>(height), channels};
    }

    Image decode() { return decode_rows_of(header_of_rows()); }

    void decode_runs(const PngRuns& runs)
    {
        const ImageHeader declared = header_of_rows();
        const std::size_t row_bytes = declared.width * static_cast<std::size_t>(declared.channels);
        png_structp png = structs_.png();
        if (runs.started) runs.started(declared);
        if (png_get_interlace_type(png, structs_.info()) != PNG_INTERLACE_NONE) {
            const Image image = decode_rows_of(declared);
            runs.rows(0, declared.height, image.pixels.data());
            return;
        }
        const std::size_t per_run = std::clamp<std::size_t>(runs.rows_per_run, 1, declared.height);
        std::vector<std::uint8_t> pixels(per_run * row_bytes);
        std::vector<png_bytep> rows(per_run);
        for (std::size_t y = 0; y < per_run; ++y) rows[y] = pixels.data() + y * row_bytes;
        for (std::size_t first = 0; first < declared.height; first += per_run) {
            const std::size_t count = std::min(per_run, declared.height - first);
            check(read_some_rows(png, rows.data(), count));
            runs.rows(first, count, pixels.data());
        }
        check(read_end(png));  // the chunks after the pixels, up to IEND: a whole file
    }

private:
    // header(), for a decoder about to read rows: libpng's rows must be the 8-bit ones asked for.
    ImageHeader header_of_rows()
    {
        const ImageHeader declared = header();
        if (png_get_rowbytes(structs_.png(), structs_.info()) !=
            declared.width * static_cast<std::size_t>(declared.channels))
            fail("unexpected row size after conversion to 8 bits");  // a libpng surprise: refuse
        return declared;
    }

    // After header_of_rows(): every row at once, the passes of an interlaced file merged.
    Image decode_rows_of(const ImageHeader& declared)
    {
        Image image = allocate_image(declared);
        const std::size_t row_bytes = image.width * static_cast<std::size_t>(image.channels);
        std::vector<png_bytep> rows(image.height);
        for (std::size_t y = 0; y < image.height; ++y)
            rows[y] = image.pixels.data() + y * row_bytes;
        check(read_rows(structs_.png(), rows.data()));
        return image;
    }

    [[noreturn]] void fail(const std::string& reason) const
    {
        throw ImageError(name_ + ": " + reason);
    }

    void check(bool succeeded)
    {
        if (succeeded) return;
        if (context_.exception) std::rethrow_exception(context_.exception);
        fail(context_.reason);
    }

    const std::string& name_;
    PngContext context_;  // before structs_: the structs point at it
    PngStructs structs_;
};

void check_encodable(const Image& image)
{
    const std::string shape = std::to_string(image.width) + "x" + std::to_string(image.height);
    if (image.channels != 1 && image.channels != 3)
        throw std::invalid_argument("encode_png: " + std::to_string(image.channels) +
                                    " channels (supported: 1, 3)");
    if (image.width == 0 || image.height == 0 || !within_image_limits(image.width, image.height))
        throw std::invalid_argument("encode_png: no PNG of " + shape + " pixels");
    if (image.pixels.size() !=
        image.width * image.height * static_cast<std::size_t>(image.channels))
        throw std::invalid_argument("encode_png: " + shape + " image has " +
                                    std::to_string(image.pixels.size()) + " pixel bytes");
}

Image decode_from(ByteSource& source, const std::string& name)
{
    return while_loading([&] { return PngDecoder(source, name).decode(); });
}

}  // namespace

bool has_png_signature(const std::uint8_t* prefix, std::size_t size)
{
    static const std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    return prefix && size >= sizeof kSignature && std::equal(kSignature, kSignature + 8, prefix);
}

ImageHeader read_png_header(const InputFile& file)
{
    ByteSource source(file);
    return while_loading([&] { return PngDecoder(source, file.path().string()).header(); });
}

Image read_png(const InputFile& file)
{
    ByteSource source(file);
    return decode_from(source, file.path().string());
}

Image decode_png(const std::uint8_t* data, std::size_t size, const std::string& name)
{
    ByteSource source(data, size);
    return decode_from(source, name);
}

void read_png_runs(const InputFile& file, const PngRuns& runs)
{
    ByteSource source(file);
    while_loading([&] { PngDecoder(source, file.path().string()).decode_runs(runs); });
}

std::vector<std::uint8_t> encode_png(const Image& image)
{
    check_encodable(image);
    std::vector<std::uint8_t> bytes;
    write_png_stream(image, [&](const std::uint8_t* data, std::size_t size) {
        bytes.insert(bytes.end(), data, data + size);
    });
    return bytes;
}

void write_png(const std::filesystem::path& path, const Image& image)
{
    try {
        check_encodable(image);
    } catch (const std::invalid_argument& error) {
        throw std::invalid_argument(path.string() + ": " + error.what());
    }
    AtomicFile file(path);
    write_png_stream(image,
                     [&](const std::uint8_t* data, std::size_t size) { file.write(data, size); });
    file.commit();
}

}  // namespace sdk
