// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where a JPEG's restart intervals lie, so that they can be decoded apart (jpeg_parallel.hpp).
//
// A restart marker (RST0..RST7, FF D0..FF D7) between two intervals of the entropy-coded data
// resets the decoder: DC prediction starts again from 0 and the bit reader from a byte boundary.
// What follows a marker therefore decodes without anything before it, given the file's tables.
// Only the simplest case is taken, and everything else is left to the sequential decoder:
// one baseline or extended Huffman scan (SOF0/SOF1) holding every component, 8-bit samples, a
// restart interval (DRI), and exactly the markers that layout implies, RST0, RST1, ... RST7,
// RST0, ... then EOI.
//
// A piece given to a decoder of its own must be a JPEG of its own, so it holds whole rows of
// MCUs and starts where an interval starts: at an interval whose first MCU is the first of an
// MCU row. With an interval of whole rows that is every interval; with one that does not divide
// a row (OpenCV's IMWRITE_JPEG_RST_INTERVAL writes every 64 MCUs, say, on rows of 1000) it is
// every lcm(interval, MCUs per row) MCUs. The intervals between two such cuts make a strip.
#include "common/imageio/input_file.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace sdk {

// A JPEG's bytes, readable at any offset from any thread: held in memory, or a file read in
// place (InputFile::read_at is a pread), so the compressed data is never all held at once.
class JpegBytes {
public:
    JpegBytes(const std::uint8_t* data, std::size_t size) : memory_(data), size_(data ? size : 0) {}
    explicit JpegBytes(const InputFile& file) : file_(&file), size_(file.size()) {}

    std::uint64_t size() const { return size_; }
    // The bytes themselves when held in memory, else nullptr.
    const std::uint8_t* memory() const { return memory_; }
    // Copies [offset, offset + count), which must lie within size(), to `destination`. Throws
    // FileError when a file cannot be read (or has shrunk since it was opened).
    void read(std::uint64_t offset, std::uint8_t* destination, std::size_t count) const;

private:
    const std::uint8_t* memory_ = nullptr;
    const InputFile* file_ = nullptr;
    std::uint64_t size_ = 0;
};

struct RestartLayout {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    // Pieces start only at a strip's first interval. Each strip is `intervals_per_strip`
    // intervals that decode to `rows_per_strip` pixel rows (the last strip: fewer of both).
    std::uint32_t intervals_per_strip = 0;
    std::uint32_t rows_per_strip = 0;
    // Chroma stored at fewer rows than luma: libjpeg's smooth upsampling then blends each output
    // row with the chroma row above or below it, so a piece must decode one strip beyond each of
    // its ends for its own first and last rows to come out as in the whole file.
    bool needs_neighbour_rows = false;
    // Byte offsets in the file: the two bytes of the frame header's height; the first byte of
    // entropy-coded data (after SOS). Everything before entropy_begin is header, given to every
    // piece as it is, with the height changed.
    std::uint64_t height_offset = 0;
    std::uint64_t entropy_begin = 0;
    // Interval i's entropy-coded bytes are [interval_begin[i], interval_end[i]): without the RST
    // marker after it (the last one: without the EOI marker that ends the scan).
    std::vector<std::uint64_t> interval_begin;
    std::vector<std::uint64_t> interval_end;

    std::size_t intervals() const { return interval_begin.size(); }
    std::size_t strips() const
    {
        return (intervals() + intervals_per_strip - 1) / intervals_per_strip;
    }
};

// What the headers before the scan say, for a file of the simple case above (its restart
// interval may be 0: none), as far as cutting the scan or decoding its Huffman codes needs.
struct JpegScanHeader {
    int width = 0;
    int height = 0;
    int components = 0;          // 1 or 3
    int most_h = 1, most_v = 1;  // the largest sampling factors
    bool vertically_subsampled = false;
    int restart_interval = 0;  // in MCUs; 0 when the file has no DRI (or a DRI of 0)
    // Byte offsets: the two bytes of the frame header's height; the FF of the SOS marker; the
    // first byte of entropy-coded data (after SOS).
    std::uint64_t height_offset = 0;
    std::uint64_t scan_offset = 0;
    std::uint64_t entropy_begin = 0;
    // The scan's components in the scan's order (which is the order of their blocks in an MCU).
    struct ScanComponent {
        int h = 1, v = 1;                // sampling factors
        int dc_table = 0, ac_table = 0;  // Huffman table numbers, 0-3
    };
    std::vector<ScanComponent> scan;
    // The Huffman tables as the last DHT before the scan defined them (`counts[l]`: how many
    // codes of l + 1 bits; `values`: their symbols in code order); `defined` false when none did.
    struct HuffmanTable {
        bool defined = false;
        std::uint8_t counts[16] = {};
        std::vector<std::uint8_t> values;
    };
    HuffmanTable dc[4], ac[4];
};

// The header of `bytes` when it is a file of the simple case (any restart interval); nullopt
// for any other file, malformed ones included.
std::optional<JpegScanHeader> read_scan_header(const JpegBytes& bytes);

// The layout of `bytes` when it is a file of the simple case above with at least two strips;
// nullopt for any other file, malformed ones included (the sequential decoder then reports what
// is wrong). Looks for the markers on up to `threads` threads, reading the file once.
std::optional<RestartLayout> find_restart_intervals(const JpegBytes& bytes, unsigned threads);

}  // namespace sdk
