// SPDX-License-Identifier: Apache-2.0
#pragma once

namespace sdk {

// How many threads one image's codec work may start: a PNG's compression, a JPEG's restart
// intervals, a large file's reads. Every core for the one photo a run reads and writes; the
// cores shared among the photos in flight in a batch (at least one thread each): 16 photos each
// compressing on 16 threads would start 256 threads on 16 cores, and every step of every photo
// (its uploads and kernel launches too) would wait for a core among them.
unsigned threads_per_image();

// The machine's cores (hardware_concurrency(), at least 1), asked once per process.
unsigned core_count();

// While one is alive, its image counts among those in flight.
class ImageInFlight {
public:
    ImageInFlight();
    ~ImageInFlight();
    ImageInFlight(const ImageInFlight&) = delete;
    ImageInFlight& operator=(const ImageInFlight&) = delete;
};

}  // namespace sdk
