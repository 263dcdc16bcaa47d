// SPDX-License-Identifier: Apache-2.0
#pragma once
// A JPEG without restart markers cut for every core anyway: speculative Huffman decoding.
//
// A baseline scan is one stream of Huffman codes with nowhere marked to start, and each MCU's DC
// terms are coded as differences from the MCU before. Yet Huffman codes resynchronise: a decoder
// started at a guessed bit (here: a byte, taken as the start of an MCU) decodes garbage for a
// while and then, with high probability within a few MCUs, falls into step with the true codes
// and stays there (Klein and Wiseman, "Parallel Huffman decoding with applications to JPEG
// files", 2003; on GPUs, Weissenberger and Schmidt, 2018). So:
//
// 1. The scan's bytes are cut into one chunk per thread, and each thread decodes its chunk from
//    its first byte, noting where each MCU it decodes starts, and its DC differences. Nothing is
//    kept but those notes: no coefficients, no pixels.
// 2. Each thread then decodes on past its chunk's end until it reaches an MCU start that the
//    next thread also noted. From there both decode the same codes. Thread 0 starts at the true
//    start, so by induction the true path through the scan is thread 0's notes up to that meeting
//    point, then thread 1's up to the next, and so on; the DC differences summed along it give
//    each MCU's true DC predictions.
// 3. With every MCU row's first bit and DC predictions known, the scan is written again with a
//    restart marker before each row (what `jpegtran -restart 1B` writes, the other way round):
//    each row's bits copied as they are, but for the first DC difference of each component,
//    which after a restart is coded against 0 and so is coded again, with the file's own table.
//
// The result decodes to the same coefficients, so libjpeg makes the same pixels of it, and it is
// decoded on every core by the decoder of restart intervals (jpeg_parallel.hpp). Anything not
// just so gives up, and the caller decodes the original sequentially, which then decides what a
// damaged file gives: on the true path, a code no table holds or a block of more than 64
// coefficients; a decoder that meets no later chunk's path (past all of the next chunk's notes,
// the chunk after is tried); a path that does not end with exactly the frame's MCUs, followed by
// less than a byte of fill; no EOI, or a restart marker in the scan; a DC value of more than 11
// bits; a DC table with no room for the codes it lacks; running out of memory. Progressive
// files are left to the sequential decoder: each of their
// scans refines coefficients that an earlier scan left (end-of-band runs span blocks, and
// refinement bits depend on what earlier scans decoded), so a cut point would need the state of
// every scan before, and pieces could not be decoded as files of their own.
//
// Memory: the scan's bytes held once without their stuffed zeros, notes of about 6-10 bytes an
// MCU, and the rewritten file: about twice or three times the compressed size, while it runs.
#include "common/imageio/jpeg_restarts.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>

namespace sdk {

// Bytes in memory that are written before they are read, so left unset at first: a vector would
// set them all to 0 first, one core taking 30-50 ms for the 100 MB of a large photo's scan.
class UnsetBytes {
public:
    explicit UnsetBytes(std::size_t size) : bytes_(new std::uint8_t[size]), size_(size) {}
    std::uint8_t* data() { return bytes_.get(); }
    const std::uint8_t* data() const { return bytes_.get(); }
    std::size_t size() const { return size_; }

private:
    std::unique_ptr<std::uint8_t[]> bytes_;
    std::size_t size_;
};

// `bytes` with a restart marker before every MCU row, when it is a file of the simple case
// (jpeg_restarts.hpp) with no restart interval, whose scan's data is at least two chunks of
// `least_chunk_bytes`; its Huffman decoding done on up to `threads` threads. nullopt for every
// other file, and whenever anything is not just so (the comment above).
std::optional<UnsetBytes> add_row_restart_markers(const JpegBytes& bytes, unsigned threads,
                                                  std::size_t least_chunk_bytes);

}  // namespace sdk
