// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/png_writer.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <utility>

namespace sdk {
namespace {

// Up (each byte minus the byte above it) on every row: of the single filters it compresses
// photographs and edge maps best, and it costs one subtraction a byte (docs/whole_run.md).
constexpr std::uint8_t kFilterUp = 2;

// IDAT chunks hold at most this many bytes: a compressed chunk of deflate_parallel usually fits
// one, and no reader has to buffer a huge chunk to check its CRC.
constexpr std::size_t kLargestIdat = std::size_t{4} << 20;

constexpr std::uint8_t kSignature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};

void put32(std::uint8_t* at, std::uint32_t value)
{
    for (int i = 0; i < 4; ++i) at[i] = static_cast<std::uint8_t>(value >> (24 - 8 * i));
}

// One chunk: its length, its type, its data, and the CRC-32 of type and data.
void write_chunk(const StreamWriter& write, const char (&type)[5], const std::uint8_t* data,
                 std::size_t size)
{
    std::uint8_t head[8];
    put32(head, static_cast<std::uint32_t>(size));
    std::memcpy(head + 4, type, 4);
    uLong crc = crc32(0, head + 4, 4);
    if (size != 0) crc = crc32_z(crc, data, size);  // a null `data` would restart the CRC
    std::uint8_t tail[4];
    put32(tail, static_cast<std::uint32_t>(crc));
    write(head, sizeof head);
    if (size != 0) write(data, size);
    write(tail, sizeof tail);
}

// The process's rows encoder and the cut it asked for: set once by the application, read by
// every PNG written, on any thread.
std::mutex encoder_mutex;
PngRowsEncoder process_encoder;
DeflateChunking process_encoder_cut;

}  // namespace

void filter_png_rows_up(const Image& image, std::size_t first_row, std::size_t count,
                        std::uint8_t* out)
{
    const std::size_t row_bytes = image.width * static_cast<std::size_t>(image.channels);
    for (std::size_t y = first_row; y < first_row + count; ++y) {
        const std::uint8_t* row = image.pixels.data() + y * row_bytes;
        *out++ = kFilterUp;
        if (y == 0) {
            std::memcpy(out, row, row_bytes);
        } else {
            const std::uint8_t* above = row - row_bytes;
            for (std::size_t i = 0; i < row_bytes; ++i)
                out[i] = static_cast<std::uint8_t>(row[i] - above[i]);
        }
        out += row_bytes;
    }
}

void use_png_rows_encoder(PngRowsEncoder encoder, DeflateChunking chunking)
{
    std::lock_guard<std::mutex> lock(encoder_mutex);
    process_encoder = std::move(encoder);
    process_encoder_cut = chunking;
}

DeflateRows png_deflate_rows(const Image& image, const PngRowsEncoder& encoder)
{
    DeflateRows rows;
    rows.row_count = image.height;
    rows.row_bytes = 1 + image.width * static_cast<std::size_t>(image.channels);
    rows.make_rows = [&image](std::size_t first_row, std::size_t count, std::uint8_t* out) {
        filter_png_rows_up(image, first_row, count, out);
    };
    if (encoder)
        rows.compress_rows = [&image, &encoder](std::size_t first_row, std::size_t count, bool last,
                                                std::vector<std::uint8_t>& out) {
            return encoder(image, first_row, count, last, out);
        };
    return rows;
}

void write_png_stream(const Image& image, const StreamWriter& write,
                      const DeflateChunking& chunking)
{
    write(kSignature, sizeof kSignature);
    std::uint8_t header[13] = {};
    put32(header, static_cast<std::uint32_t>(image.width));
    put32(header + 4, static_cast<std::uint32_t>(image.height));
    header[8] = 8;                            // bits per sample
    header[9] = image.channels == 1 ? 0 : 2;  // colour type: grey or RGB
    // compression 0 (deflate), filter method 0 (the five filters), interlace 0 (none)
    write_chunk(write, "IHDR", header, sizeof header);

    PngRowsEncoder encoder;
    DeflateChunking cut = chunking;
    {
        std::lock_guard<std::mutex> lock(encoder_mutex);
        encoder = process_encoder;
        // The encoder's own cut, unless the caller (a test) asked for one.
        if (encoder && cut.chunk_bytes == 0 && cut.threads == 0) cut = process_encoder_cut;
    }
    deflate_rows(
        png_deflate_rows(image, encoder),
        [&](const std::uint8_t* data, std::size_t size) {
            for (std::size_t at = 0; at < size; at += kLargestIdat)
                write_chunk(write, "IDAT", data + at, std::min(kLargestIdat, size - at));
        },
        cut);
    write_chunk(write, "IEND", nullptr, 0);
}

}  // namespace sdk
