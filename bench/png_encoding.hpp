// SPDX-License-Identifier: Apache-2.0
#pragma once
// Writing a PNG: encode_png in memory (filter, compression on all cores, the container) on a
// photograph-like image, grey and RGB, so the number compares with the step table's "compress
// and write" without the file system in it.
#include "bench_support.hpp"

namespace sdk::bench {

// The bundled photograph scaled up to `size` with a little sensor-like noise, grey (1) or RGB (3).
Image photo_like_image(Size size, int channels);

// Registers encode/png/grey/<size> and encode/png/rgb/<size>. Each reports median_ms, Mpix/s,
// GB/s of pixel bytes compressed, and ratio (the PNG's size over the pixel bytes).
void register_png_encoding(Size size);

}  // namespace sdk::bench
