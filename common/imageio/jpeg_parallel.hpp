// SPDX-License-Identifier: Apache-2.0
#pragma once
// Decoding a JPEG's restart intervals (jpeg_restarts.hpp) on several cores with libjpeg itself.
//
// The intervals are cut into one piece per thread, between strips (jpeg_restarts.hpp: where an
// interval and a row of MCUs start together). Each piece is given to its own libjpeg
// decompressor as a small JPEG file of its own, assembled without copying the file: the file's
// headers as they are, with the frame's height changed to the piece's, then the piece's
// intervals, which keep the file's restart interval, with their restart markers numbered again
// from RST0 (libjpeg expects RST0 first after a scan starts), then EOI. Each piece writes its own
// rows of the one output image.
#include "common/imageio/image.hpp"
#include "common/imageio/jpeg_restarts.hpp"
#include "common/imageio/row_target.hpp"

namespace sdk {

// Decodes the file laid out as `layout` into `rows` (the layout's width and height; `channels`
// 1: grey, 3: RGB, as the sequential decoder makes them) on up to `threads` threads, the calling
// thread one of them. Returns false when any piece fails or libjpeg warns about one (damage it
// would decode around): the caller then decodes the whole file sequentially, which is what
// decides what such a file gives, and rows not reported written mean nothing until then. Pixels
// from a true return are those libjpeg gives decoding the whole file
// (tests/common/imageio/test_jpeg_parallel.cpp).
bool decode_restart_intervals(const JpegBytes& bytes, const RestartLayout& layout, unsigned threads,
                              int channels, RowTarget& rows);

}  // namespace sdk
