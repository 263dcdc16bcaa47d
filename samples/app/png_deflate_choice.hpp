// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "common/runtime/device.hpp"

#include <string>

namespace sdk {

// Where the PNG files of a run are compressed: zlib on the host's cores (png_writer's own), or
// the device's encoder (kernels/png_deflate/). On a CPU device such as PoCL the host's zlib is
// expected to win, so the host is the default until a measurement says otherwise:
//   SDK_PNG_DEFLATE=host     zlib, always
//   SDK_PNG_DEFLATE=device   the device's encoder, always (when the device can run it)
//   SDK_PNG_DEFLATE=measure  the cached choice for this device; if none, times both on an edge
//                            image's filtered rows and keeps the faster in the tuning cache
//                            (kernels/tuning_cache.hpp; --retune does not touch it: delete the
//                            line `png_deflate ...` to measure again)
//   unset                    the cached choice for this device, else the host
enum class PngDeflatePlace { host, device };

// What the environment and the cache choose for this device; measures when asked to. Throws
// UsageError for an SDK_PNG_DEFLATE it does not know.
PngDeflatePlace choose_png_deflate(const OpenClContext& cl);
std::string place_name(PngDeflatePlace place);

// Hands the PNG writer (common/imageio/png_writer.hpp) the device's encoder when the choice is
// the device, else leaves zlib; the encoder is built once per process and context.
void use_chosen_png_deflate(const OpenClContext& cl);

}  // namespace sdk
