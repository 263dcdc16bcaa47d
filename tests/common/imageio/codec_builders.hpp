// SPDX-License-Identifier: Apache-2.0
#pragma once

// Small PNG and JPEG files for tests and the fuzzer's seeds, written with libpng and libjpeg
// directly, independent of the SDK's reader and writer: every PNG colour type, bit depth and
// interlacing, every JPEG colour space, subsampling and progression the reader must take. Errors
// abort: these run only on inputs the tests choose.

#include <png.h>
#include <zlib.h>

#include <csetjmp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <jpeglib.h>

namespace codectest {

struct PngSpec {
    std::uint32_t width = 1;
    std::uint32_t height = 1;
    int colour_type = PNG_COLOR_TYPE_GRAY;
    int bit_depth = 8;
    bool interlaced = false;
    // Every stored sample, top row first, each below 2^bit_depth: for a palette image one index
    // per pixel, else the channels of the colour type in order (grey, alpha / R, G, B, alpha).
    std::vector<std::uint16_t> samples;
    std::vector<png_color> palette;
    std::vector<std::uint8_t> palette_alpha;  // a tRNS chunk for the palette, when not empty
};

inline int stored_channels(int colour_type)
{
    switch (colour_type) {
        case PNG_COLOR_TYPE_GRAY_ALPHA:
            return 2;
        case PNG_COLOR_TYPE_RGB:
            return 3;
        case PNG_COLOR_TYPE_RGB_ALPHA:
            return 4;
        default:
            return 1;  // grey, palette
    }
}

inline void append_to(png_structp png, png_bytep data, std::size_t size)
{
    auto* out = static_cast<std::vector<std::uint8_t>*>(png_get_io_ptr(png));
    out->insert(out->end(), data, data + size);
}

// The samples packed as PNG stores them: big-endian 16-bit, low depths leftmost in the high bits.
inline std::vector<std::vector<std::uint8_t>> packed_rows(const PngSpec& spec)
{
    const std::size_t per_row = std::size_t{spec.width} * stored_channels(spec.colour_type);
    std::vector<std::vector<std::uint8_t>> rows(spec.height);
    for (std::uint32_t y = 0; y < spec.height; ++y) {
        std::vector<std::uint8_t>& row = rows[y];
        row.assign((per_row * spec.bit_depth + 7) / 8, 0);
        for (std::size_t i = 0; i < per_row; ++i) {
            const std::uint16_t value = spec.samples.at(y * per_row + i);
            if (spec.bit_depth == 16) {
                row[2 * i] = static_cast<std::uint8_t>(value >> 8);
                row[2 * i + 1] = static_cast<std::uint8_t>(value);
            } else {
                const std::size_t bit = i * spec.bit_depth;
                row[bit / 8] = static_cast<std::uint8_t>(row[bit / 8] |
                                                         (value << (8 - spec.bit_depth - bit % 8)));
            }
        }
    }
    return rows;
}

inline std::vector<std::uint8_t> build_png(const PngSpec& spec)
{
    std::vector<std::uint8_t> out;
    std::vector<std::vector<std::uint8_t>> rows = packed_rows(spec);
    std::vector<png_bytep> pointers;
    for (auto& row : rows) pointers.push_back(row.data());
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png))) std::abort();
    png_set_write_fn(png, &out, append_to, nullptr);
    png_set_IHDR(png, info, spec.width, spec.height, spec.bit_depth, spec.colour_type,
                 spec.interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (!spec.palette.empty())
        png_set_PLTE(png, info, spec.palette.data(), static_cast<int>(spec.palette.size()));
    if (!spec.palette_alpha.empty())
        png_set_tRNS(png, info, spec.palette_alpha.data(),
                     static_cast<int>(spec.palette_alpha.size()), nullptr);
    png_write_info(png, info);
    if (spec.interlaced) png_set_interlace_handling(png);
    png_write_image(png, pointers.data());
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    return out;
}

// The PNG with `count` copies of one chunk (a 4-letter type and its data, its CRC computed) put
// after IHDR, which ends 33 bytes in: how a file of many ancillary chunks is made.
inline std::vector<std::uint8_t> with_chunks_after_header(const std::vector<std::uint8_t>& png,
                                                          const char* type,
                                                          const std::vector<std::uint8_t>& data,
                                                          std::size_t count)
{
    std::vector<std::uint8_t> chunk;
    for (int shift = 24; shift >= 0; shift -= 8)
        chunk.push_back(static_cast<std::uint8_t>(data.size() >> shift));
    chunk.insert(chunk.end(), type, type + 4);
    chunk.insert(chunk.end(), data.begin(), data.end());
    const auto crc = static_cast<std::uint32_t>(
        crc32(0, chunk.data() + 4, static_cast<uInt>(chunk.size() - 4)));  // type and data
    for (int shift = 24; shift >= 0; shift -= 8)
        chunk.push_back(static_cast<std::uint8_t>(crc >> shift));
    constexpr std::size_t kAfterHeader = 33;  // signature (8), IHDR (4 + 4 + 13 + 4)
    std::vector<std::uint8_t> out(png.begin(), png.begin() + kAfterHeader);
    out.reserve(png.size() + count * chunk.size());
    for (std::size_t i = 0; i < count; ++i) out.insert(out.end(), chunk.begin(), chunk.end());
    out.insert(out.end(), png.begin() + kAfterHeader, png.end());
    return out;
}

struct JpegSpec {
    int width = 1;
    int height = 1;
    int components = 3;  // 1 grey, 3 RGB (stored as YCbCr), 4 CMYK
    int quality = 95;
    bool subsampled = false;     // 4:2:0 chroma, else 4:4:4
    int luma_h = 0, luma_v = 0;  // when not 0, Y's sampling factors (chroma 1x1): 2, 1 = 4:2:2
    bool progressive = false;
    bool optimize =
        false;  // Huffman tables made for the image (cjpeg -optimize), not the standard ones
    // Restart markers as cjpeg's -restart writes them: every `restart_rows` MCU rows, or every
    // `restart_mcus` MCUs (which wins when both are set); none when both are 0.
    int restart_rows = 0;
    int restart_mcus = 0;
    std::vector<std::uint8_t> pixels;  // width * height * components, top row first
};

inline void abort_on_error(j_common_ptr)
{
    std::abort();
}

inline std::vector<std::uint8_t> build_jpeg(const JpegSpec& spec)
{
    jpeg_compress_struct cinfo{};
    jpeg_error_mgr errors{};
    cinfo.err = jpeg_std_error(&errors);
    errors.error_exit = abort_on_error;
    jpeg_create_compress(&cinfo);
    unsigned char* memory = nullptr;
    unsigned long size = 0;
    jpeg_mem_dest(&cinfo, &memory, &size);
    cinfo.image_width = static_cast<JDIMENSION>(spec.width);
    cinfo.image_height = static_cast<JDIMENSION>(spec.height);
    cinfo.input_components = spec.components;
    cinfo.in_color_space = spec.components == 1   ? JCS_GRAYSCALE
                           : spec.components == 4 ? JCS_CMYK
                                                  : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, spec.quality, TRUE);
    if (spec.components == 3) {
        const int factor = spec.subsampled ? 2 : 1;
        cinfo.comp_info[0].h_samp_factor = spec.luma_h ? spec.luma_h : factor;
        cinfo.comp_info[0].v_samp_factor = spec.luma_v ? spec.luma_v : factor;
        for (int i = 1; i < 3; ++i)
            cinfo.comp_info[i].h_samp_factor = cinfo.comp_info[i].v_samp_factor = 1;
    }
    if (spec.progressive) jpeg_simple_progression(&cinfo);
    if (spec.optimize) cinfo.optimize_coding = TRUE;
    if (spec.restart_mcus != 0)
        cinfo.restart_interval = static_cast<unsigned>(spec.restart_mcus);
    else
        cinfo.restart_in_rows = spec.restart_rows;
    jpeg_start_compress(&cinfo, TRUE);
    const std::size_t row_bytes = static_cast<std::size_t>(spec.width) * spec.components;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = const_cast<JSAMPROW>(spec.pixels.data() + cinfo.next_scanline * row_bytes);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    std::vector<std::uint8_t> out(memory, memory + size);
    jpeg_destroy_compress(&cinfo);
    std::free(memory);
    return out;
}

// JPEG samplings the parallel decoders are tested on.
struct Sampling {
    const char* name;
    int components;
    int luma_h, luma_v;  // Y's factors; chroma is 1x1
};
inline const Sampling kSamplings[] = {
    {"grey", 1, 1, 1}, {"4:4:4", 3, 1, 1}, {"4:2:2", 3, 2, 1}, {"4:2:0", 3, 2, 2}};

// Photograph-like: smooth slopes with noise, so that the entropy-coded data holds stuffed FF
// bytes and intervals of different lengths.
inline JpegSpec noisy_spec(const Sampling& sampling, int width, int height, int restart_rows)
{
    JpegSpec spec;
    spec.width = width;
    spec.height = height;
    spec.components = sampling.components;
    spec.luma_h = sampling.luma_h;
    spec.luma_v = sampling.luma_v;
    spec.restart_rows = restart_rows;
    std::uint32_t random = 2463534242u;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < sampling.components; ++c) {
                random ^= random << 13;
                random ^= random >> 17;
                random ^= random << 5;
                spec.pixels.push_back(
                    static_cast<std::uint8_t>(40 * c + 3 * x + 5 * y + (random % 48)));
            }
    return spec;
}

// The JPEG with `copies` more copies of its last scan (from its SOS marker to EOI, which ends
// the file) before EOI: a progressive file may repeat a scan, each a pass over the image. No
// FF DA occurs inside entropy-coded data (an FF there is followed by 00), so the last is the SOS.
inline std::vector<std::uint8_t> with_last_scan_repeated(const std::vector<std::uint8_t>& jpeg,
                                                         std::size_t copies)
{
    std::size_t last_scan = 0;
    for (std::size_t i = 0; i + 1 < jpeg.size(); ++i)
        if (jpeg[i] == 0xFF && jpeg[i + 1] == 0xDA) last_scan = i;
    const std::size_t end_of_image = jpeg.size() - 2;
    if (last_scan == 0 || jpeg[end_of_image] != 0xFF || jpeg[end_of_image + 1] != 0xD9)
        std::abort();
    std::vector<std::uint8_t> out(jpeg.begin(), jpeg.begin() + end_of_image);
    for (std::size_t i = 0; i < copies; ++i)
        out.insert(out.end(), jpeg.begin() + last_scan, jpeg.begin() + end_of_image);
    out.push_back(0xFF);
    out.push_back(0xD9);
    return out;
}

// libjpeg's own decode with its defaults, as a reference: grey stays grey, colour becomes RGB.
// libjpeg's own decoding with its defaults: grey or RGB, or with `grey` a colour file's
// luminance channel (out_color_space JCS_GRAYSCALE, as OpenCV's IMREAD_GRAYSCALE asks).
inline std::vector<std::uint8_t> decode_jpeg_directly(const std::vector<std::uint8_t>& file,
                                                      bool grey = false)
{
    jpeg_decompress_struct cinfo{};
    jpeg_error_mgr errors{};
    cinfo.err = jpeg_std_error(&errors);
    errors.error_exit = abort_on_error;
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, file.data(), static_cast<unsigned long>(file.size()));
    jpeg_read_header(&cinfo, TRUE);
    cinfo.out_color_space = cinfo.num_components == 1 || grey ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_start_decompress(&cinfo);
    const std::size_t row_bytes = std::size_t{cinfo.output_width} * cinfo.output_components;
    std::vector<std::uint8_t> pixels(row_bytes * cinfo.output_height);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = pixels.data() + cinfo.output_scanline * row_bytes;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return pixels;
}

}  // namespace codectest
