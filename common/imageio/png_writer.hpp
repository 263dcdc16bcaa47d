// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "common/imageio/deflate_parallel.hpp"
#include "common/imageio/image.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace sdk {

// The PNG file of a 1-channel (8-bit grey) or 3-channel (8-bit RGB) image, written by our own
// code rather than libpng's, so that the pixels are compressed on all cores (deflate_parallel):
// the signature, IHDR, the pixels in IDAT chunks of bounded size, IEND. Every row is filtered
// with Up. `write` receives the file's bytes in order, on the calling thread; an exception it
// throws leaves through here. The image must already be checked (png.cpp's check_encodable).
// The rows are compressed by the process's PNG rows encoder (below) when one is set, else zlib.
void write_png_stream(const Image& image, const StreamWriter& write,
                      const DeflateChunking& chunking = {});

// Rows [first_row, first_row + count) of `image` as the compressor takes them: each a filter
// byte (Up) and each byte minus the one above it (the image's first row against zeros).
void filter_png_rows_up(const Image& image, std::size_t first_row, std::size_t count,
                        std::uint8_t* out);

// An encoder that filters and compresses a run of an image's rows itself, where it holds them
// (the device's, common/codecs/png_deflate/): rows [first_row, first_row + count) filtered as
// filter_png_rows_up does, appended to `out` as DeflateRows::compress_rows appends a chunk's
// blocks; it returns the Adler-32 of the filtered rows. Called on the writer's worker threads.
using PngRowsEncoder =
    std::function<std::uint32_t(const Image& image, std::size_t first_row, std::size_t count,
                                bool last, std::vector<std::uint8_t>& out)>;

// The image's rows as write_png_stream hands them to deflate_rows: filtered with Up and
// compressed by zlib, or filtered and compressed by `encoder` when it is set. The result refers
// to `image` and `encoder`, which must outlive it. For a measurement that times one path against
// the other as the writer runs them (common/codecs/codec_choice.cpp).
DeflateRows png_deflate_rows(const Image& image, const PngRowsEncoder& encoder);

// The rows encoder of every PNG this process writes from now on (write_png, encode_png,
// write_image, a batch's outputs), for an application that chose the device (samples/app
// does); empty, the default, means zlib on the host's cores. Image I/O knows no device: the
// application hands it this function, with the chunk size and the chunks in flight it works
// best with (zero: the writer's own, sized to the host's cores): a device wants a few large
// chunks, each worth its round trips, not one small chunk per core.
void use_png_rows_encoder(PngRowsEncoder encoder, DeflateChunking chunking = {});

}  // namespace sdk
