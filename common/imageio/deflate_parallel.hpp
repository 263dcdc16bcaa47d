// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace sdk {

// One zlib stream (RFC 1950) compressed on all cores: the input, made of `row_count` rows of
// `row_bytes` bytes each, is cut into chunks of whole rows; each chunk is compressed on its own
// (raw deflate ending on a byte boundary with a sync flush, the last with the final block), and
// the chunks are joined in order behind one zlib header, with the Adler-32 values of the chunks
// combined into the one the trailer carries. Any inflate reads the result as one stream.
//
// The rows are produced on demand by `make_rows`, on the worker threads, so the whole filtered
// input is never held at once: make_rows(first_row, count, out) writes count * row_bytes bytes.
// `write` receives the stream's bytes in order, on the calling thread, in pieces no larger than
// a compressed chunk plus the 2-byte header and 4-byte trailer; an exception it throws (a full
// disk) stops the workers and leaves through deflate_rows, as does one from make_rows.
//
// `compress_rows`, when set, replaces both make_rows and the chunk's compression: an encoder that
// makes the rows itself where it compresses them (the device's, common/codecs/png_deflate/, which
// filters the pixels it uploads). It appends to `out` the raw deflate blocks (no zlib header or
// trailer) of the chunk's rows, ending on a byte boundary, with the final block when `last` and
// without it otherwise (then the next chunk's blocks follow), referring back only to bytes of
// this chunk, and returns the Adler-32 of the rows it compressed. It is called on the worker
// threads, several at a time; an exception it throws leaves through deflate_rows.
struct DeflateRows {
    std::size_t row_count = 0;
    std::size_t row_bytes = 0;
    std::function<void(std::size_t first_row, std::size_t count, std::uint8_t* out)> make_rows;
    std::function<std::uint32_t(std::size_t first_row, std::size_t count, bool last,
                                std::vector<std::uint8_t>& out)>
        compress_rows;
};
using StreamWriter = std::function<void(const std::uint8_t* data, std::size_t size)>;

// How the rows are cut. Zero means the default: chunks sized to the machine (deflate_parallel.cpp
// says how), and one worker per core. Tests force small chunks to see the joins. Without
// `compress_rows`, each chunk is compressed by zlib's level 1 (deflate_parallel.cpp).
struct DeflateChunking {
    std::size_t chunk_bytes = 0;  // input bytes per chunk, rounded up to whole rows
    unsigned threads = 0;
};

void deflate_rows(const DeflateRows& rows, const StreamWriter& write,
                  const DeflateChunking& chunking = {});

}  // namespace sdk
