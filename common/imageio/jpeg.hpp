// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "common/imageio/image.hpp"
#include "common/imageio/input_file.hpp"
#include "common/imageio/row_target.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sdk {

// JPEG through libjpeg(-turbo), decoded with the library's defaults (the accurate integer DCT,
// smooth chroma upsampling), as OpenCV's imread decodes. Read: baseline and progressive,
// Huffman-coded; grey gives a 1-channel Image, YCbCr (any chroma subsampling) and RGB give RGB.
// Refused with ImageError naming the file, one line: CMYK and YCCK (Adobe's print files),
// arithmetic coding, truncated or malformed files, and files of more than kMaxJpegScans scans.
// Warnings about recoverable damage (stray
// bytes between markers) are not printed, and the image is decoded as libjpeg recovers it.

// A progressive file's scans each refine the whole image, and nothing stops a file from
// repeating one: a few bytes a scan, a pass over every 8x8 block each, so decoding time grows with
// scans x pixels, unbounded by the file's size. Encoders write about 10 (libjpeg's progression:
// 6 for grey, 10 for colour); libjpeg-turbo's own fuzzers and TurboJPEG users stop at 500.
constexpr int kMaxJpegScans = 500;

// A JPEG file starts with the SOI marker FF D8 followed by another marker (FF).
bool has_jpeg_signature(const std::uint8_t* prefix, std::size_t size);

// Reads the markers up to the first scan and checks the declared size against the pixel limit
// (check_image_limits) and against what a file this long can hold, without decoding.
ImageHeader read_jpeg_header(const InputFile& file);

// A baseline file with restart markers every few MCU rows (`jpegtran -restart 1` adds them) is
// decoded on all cores, its restart intervals apart (jpeg_restarts.hpp, jpeg_parallel.hpp), into
// exactly the pixels the sequential decoder gives. A baseline file without restart markers (what
// cameras and most encoders write) is given them first, its Huffman codes decoded on all cores
// from guessed starting points (jpeg_resync.hpp), then decoded the same way. Every other file
// (progressive ones), and one where either step gives up, is decoded sequentially. How to choose,
// for tests and benchmarks:
enum class JpegPath { sequential, restart_intervals, restarts_added };
struct JpegDecoding {
    unsigned threads = 0;  // 0: one per core; 1: always sequentially
    // Smaller images are decoded on one thread: each piece reads the headers and builds the
    // tables again, and threads must start, which a small image does not repay.
    std::size_t parallel_from_pixels = std::size_t{1} << 20;
    // A file without restart markers is given them only from this size on: a camera's photo
    // (12 MP) already decodes while the device starts, in less time, and on the H200 machine
    // the process's exit took 118 ms instead of 50 after one decoded this way (medians of 11,
    // 2026-11-29; not explained). A 16384x16384 photo's decoding outlasts the start by seconds.
    std::size_t add_restarts_from_pixels = std::size_t{1} << 25;
    // Its scan is cut into chunks of at least this many bytes, one a thread: a decoder needs a
    // few MCUs to fall into step, which a chunk should far outweigh. Tests make both small, to
    // cut small files in many places.
    std::size_t least_chunk_bytes = std::size_t{64} << 10;
    JpegPath* path_taken = nullptr;  // when set, told which decoder made the image
    // For a caller that wants grey: a YCbCr file (every camera's) gives its luminance channel Y
    // as stored, 1 channel, and libjpeg skips the chroma's inverse DCT, upsampling and colour
    // conversion (with luminance() after, RGB took 1.97x as long for a 4032x3024 photo, 1.93x
    // for a 16384x16384 one, on a 2-core machine here). The same pixels as OpenCV's
    // imread(IMREAD_GRAYSCALE); a grey or RGB-coded file decodes as without it.
    bool luminance_only = false;
};

// The header as `decoding` will decode the file: its channels are 1 for a YCbCr file under
// luminance_only.
ImageHeader read_jpeg_header(const InputFile& file, const JpegDecoding& decoding);

// Decodes the whole file, read in place (never all held in memory).
Image read_jpeg(const InputFile& file);
Image read_jpeg(const InputFile& file, const JpegDecoding& decoding);

// Decodes a JPEG held in memory; never reads outside [data, data + size).
Image decode_jpeg(const std::uint8_t* data, std::size_t size, const std::string& name);
Image decode_jpeg(const std::uint8_t* data, std::size_t size, const std::string& name,
                  const JpegDecoding& decoding);

// The same, into the caller's memory band by band (row_target.hpp: Bands), each band handed to
// bands.ready as soon as its rows are decoded, so that it can move on while later rows are
// decoded. The header is read first (read_jpeg_header gives the size to allocate for). When the
// decoding fails (ImageError), some bands may have been handed over already: the image as a
// whole is not to be used.
void read_jpeg_bands(const InputFile& file, const Bands& bands, const JpegDecoding& decoding = {});
void decode_jpeg_bands(const std::uint8_t* data, std::size_t size, const std::string& name,
                       const Bands& bands, const JpegDecoding& decoding = {});

// An 8-bit grey or RGB image as a baseline JPEG in memory, libjpeg's defaults (4:2:0 chroma for
// RGB) at `quality` (1-100): what a camera writes, for a measurement that needs one made on the
// spot (common/codecs/codec_choice.cpp). Throws ImageError should libjpeg fail.
std::vector<std::uint8_t> encode_jpeg(const Image& image, int quality);

// The luminance's entropy-decoded half, for a decoder that runs the inverse DCT itself
// (common/codecs/jpeg_idct/): the luminance plane's quantised DCT coefficients as libjpeg's entropy
// decoder leaves them (jpeg_read_coefficients), and the table they are quantised by. The plane's
// first width x height samples, after the inverse DCT, are the luminance read_jpeg gives with
// luminance_only (a grey file's only plane, a YCbCr file's Y).
struct JpegLuminanceCoefficients {
    std::size_t width = 0;  // the image's size in pixels
    std::size_t height = 0;
    std::size_t blocks_wide = 0;  // the plane's 8x8 blocks: width / 8 and height / 8, rounded up
    std::size_t blocks_high = 0;
    std::array<std::uint16_t, 64> quantisation{};  // row by row, as each block's coefficients
    // blocks_high rows of blocks_wide blocks, each 64 coefficients row by row (frequency u across,
    // v down), the DC term first.
    std::vector<std::int16_t> coefficients;
};

// Reads the file's headers and entropy-decodes its scans (baseline or progressive, with restart
// markers or not), refusing what read_jpeg refuses, with the same messages. std::nullopt for the
// files whose luminance is not one plane's inverse DCT alone: an RGB-coded file (its luminance
// is computed from three planes), a Y plane sampled more coarsely than another (upsampled), and
// a progressive file whose scans leave coefficients unrefined (libjpeg smooths those blocks).
std::optional<JpegLuminanceCoefficients> read_jpeg_luminance_coefficients(const InputFile& file);
std::optional<JpegLuminanceCoefficients> decode_jpeg_luminance_coefficients(
    const std::uint8_t* data, std::size_t size, const std::string& name);

}  // namespace sdk
