#pragma once

#include "common/imageio/image.hpp"
#include "common/imageio/input_file.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

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

// Decodes the whole file, read in place (never all held in memory).
Image read_jpeg(const InputFile& file);

// Decodes a JPEG held in memory; never reads outside [data, data + size).
Image decode_jpeg(const std::uint8_t* data, std::size_t size, const std::string& name);

}  // namespace sdk
