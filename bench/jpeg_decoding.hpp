// SPDX-License-Identifier: Apache-2.0
#pragma once
// Reading a JPEG: decode_jpeg in memory, on one thread and on all cores, of a photograph-like
// image written as a camera writes it (4:2:0, quality 90), once with a restart marker after
// every MCU row (what `jpegtran -restart 1` adds), once after every 64 MCUs (what OpenCV's
// IMWRITE_JPEG_RST_INTERVAL writes, intervals that do not start a row) and once without: what a
// file without them costs (docs/whole_run.md).
#include "bench_support.hpp"
#include "common/runtime/device.hpp"

#include <cstdint>
#include <vector>

namespace sdk::bench {

// Registers decode/jpeg/{restarts,restarts_64_mcus,no_restarts}/{one_thread,all_cores}/<size>.
// Each reports median_ms, Mpix/s, GB/s of decoded pixel bytes, cpu_ms (the process's CPU time,
// all threads, median), file_MB (the JPEG's size) and parallel (1 when decoded across restart
// intervals).
// Also decode/jpeg/luminance_on_device/{host_decode,device_idct}/<size>: a camera's file (4:2:0,
// quality 92) to its luminance in a device buffer, decoded by libjpeg and uploaded, or
// entropy-decoded by libjpeg, its coefficients uploaded and the IDCT run on `cl`'s device
// (common/codecs/jpeg_idct/); the latter's counters split it into entropy_ms (libjpeg's entropy
// decoding and the copy of the luminance's blocks), check_ms (idct_exact_for), upload_ms and
// kernel_ms (medians).
void register_jpeg_decoding(const OpenClContext& cl, Size size);

// Where a JPEG's restart markers are: none, after every MCU row, or after every 64 MCUs.
enum class Restarts { none, every_row, every_64_mcus };

// The bundled photograph scaled up to `size` with noise, as a camera writes it (4:2:0, quality
// 90 unless told), with restart markers as `restarts` says.
std::vector<std::uint8_t> photo_like_jpeg(Size size, Restarts restarts, int quality = 90);

}  // namespace sdk::bench
