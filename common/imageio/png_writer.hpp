// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "common/imageio/deflate_parallel.hpp"
#include "common/imageio/image.hpp"

namespace sdk {

// The PNG file of a 1-channel (8-bit grey) or 3-channel (8-bit RGB) image, written by our own
// code rather than libpng's, so that the pixels are compressed on all cores (deflate_parallel):
// the signature, IHDR, the pixels in IDAT chunks of bounded size, IEND. Every row is filtered
// with Up. `write` receives the file's bytes in order, on the calling thread; an exception it
// throws leaves through here. The image must already be checked (png.cpp's check_encodable).
// An empty `chunking.compress_chunk` means the process's PNG chunk compressor (below).
void write_png_stream(const Image& image, const StreamWriter& write,
                      const DeflateChunking& chunking = {});

// The chunk compressor of every PNG this process writes from now on (write_png, encode_png,
// write_image, a batch's outputs), for an application that chose the device's encoder
// (samples/app does, kernels/png_deflate/); empty, the default, means zlib. Image I/O knows no
// device: the application hands it this function.
void use_png_chunk_compressor(ChunkCompressor compress_chunk);
ChunkCompressor png_chunk_compressor();

}  // namespace sdk
