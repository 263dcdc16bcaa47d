// SPDX-License-Identifier: Apache-2.0
#pragma once
// How many photos a batch (samples/app/batch.hpp) has in flight at once, from what the machine
// has: its cores set the default, and its memory, its devices' memory and the files the process
// may open set the most. No number is fixed here: on a machine of 64 cores, 64 photos are in
// flight by default where memory holds 64 of them.
//
// photos_in_flight() only computes, from a BatchMachine that says what the machine has, so that a
// test can hand it any machine; this_machine() reads this one's.
#include "common/runtime/device.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sdk {

// What one photo in flight holds at its peak, host and device together, for an image of `pixels`
// pixels (the estimate the memory bounds divide by):
// - 20 bytes a pixel: a sample's device buffers take at most 16 (fir_float's float buffers while
//   a variant is measured; sobel's take 6, morphology_packed's 4.4: tests/e2e/test_peak_memory.cpp
//   counts each), and are host memory on a CPU device such as PoCL's; a colour photo's decoded
//   RGB rows take 3 more; rounded up;
// - and 32 MiB whatever the size: the stacks of its threads (its own, its decoding's, its
//   codecs': 8 MiB of address space each, glibc's default) and its codecs' chunks in flight.
std::uint64_t bytes_in_flight(std::uint64_t pixels);

// Each photo in flight has at most 3 files open at once (its input, its output's temporary, and
// its folder, locked while its result is put in place: common/imageio/output_set.cpp); one more
// is kept for what a decoder or the driver opens meanwhile.
constexpr std::uint64_t kFilesPerPhoto = 4;

// What a batch's photos in flight share.
struct BatchMachine {
    unsigned cores = 1;
    // The devices the photos are spread over (--devices all: several), photo thread k on device
    // k mod n; for each, its own memory in bytes, or 0 where its buffers are host memory (a CPU
    // device, an integrated GPU): the host's bound counts those.
    std::vector<std::uint64_t> device_memory{0};
    // What one photo in flight needs: bytes_in_flight() of the batch's largest photo.
    std::uint64_t bytes_per_photo = 0;
    // The host memory the photos may take, 0 where it is not known, and what sets it, to name in
    // a note: "available", "left under ulimit -v", "left in this cgroup (memory.max)".
    std::uint64_t memory_bytes = 0;
    std::string memory_is = "available";
    // Files the process may still open (ulimit -n, less those open and a few for the driver);
    // 0: no limit known.
    std::uint64_t files_free = 0;
};

struct PhotosInFlight {
    unsigned uncut_default = 1;  // one per core, at least one per device
    unsigned by_default = 1;     // that, at most `most`
    unsigned most = 1;  // what memory and open files allow; UINT_MAX where nothing bounds it
    std::string why;    // what sets `most`, a clause for a note (empty where nothing does)
};

PhotosInFlight photos_in_flight(const BatchMachine& machine);

// The photos in flight for --jobs `asked` (0: the default) with `photos_left` photos to run:
// what was asked, or fewer where fewer photos are left; where the machine holds fewer still, the
// most it holds, with `note` set to the line that says so ("--jobs 64 cut to 12, the most this
// machine holds: each photo in flight needs about 265 MiB and 3000 MiB of memory is available";
// the default cut is said too). `note` is empty where nothing was cut.
unsigned jobs_for(unsigned asked, std::size_t photos_left, const PhotosInFlight& limits,
                  std::string& note);

// This machine's cores, memory and open files, with `devices` (their own memory asked of the
// driver, which must have started) and `largest_pixels`, the pixels of the batch's largest photo.
BatchMachine this_machine(const std::vector<DeviceSelection>& devices,
                          std::uint64_t largest_pixels);

}  // namespace sdk
