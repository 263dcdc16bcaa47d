// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a user waits for: each sample run as its own process, from reading a BMP to renaming its
// output into place, timed on the host's clock against the floor measured in the same iterations
// (the input read from the page cache, the output's bytes written, and on a discrete GPU the
// input and output crossing the host link from pinned memory), one after the other in every
// iteration so that a noisy moment hits both.
#include "bench_support.hpp"
#include "common/runtime/device.hpp"

#include <string>

namespace sdk::bench {

// Registers file/<sample>/process/<size> for sobel, sobel_no_vectors, fir_float and
// morphology_packed, which must be built beside bench, and file/opencv_sobel/job/<size> when
// OpenCV's image files are built in. Each reports median_ms (the job), floor_ms (the floor's
// median), over_floor (their ratio) and the floor's parts: floor_read_ms, floor_write_ms and
// floor_link_ms (0 on a device that shares the host's memory). Beside the floor, not in it:
// driver_ms, the driver's start and stop alone (opencl_start_stop, a process built beside bench),
// and over_floor_and_driver, the job's time over the floor plus that. And file/sobel/batch/<size>:
// a folder of 8 photos of the size to PNG in one sobel process, reporting photos_per_s beside
// one_process_each_photos_per_s, the same photos one process each in the same iterations.
// And sobel on the files users bring: file/sobel/bmp_to_png/<size> (the random BMP to a PNG) and
// file/sobel/jpeg_to_png/<size> (a photo-like JPEG without restart markers to a PNG), with the
// same counters (the floor still writes the 8-bit BMP's bytes).
void register_file_runs(const OpenClContext& cl, const DeviceSelection& selection, Size size);

}  // namespace sdk::bench
