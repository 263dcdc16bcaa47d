// SPDX-License-Identifier: Apache-2.0
// How many photos a batch has in flight (samples/app/photos_in_flight.hpp), computed for
// machines made up here: many cores, little memory, several devices, few files. No fixed
// ceiling: 64 cores take 64 photos, and what bounds them is named.
#include "samples/app/photos_in_flight.hpp"
#include "common/imageio/cores.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <string>

namespace sdk {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
constexpr std::uint64_t kCameraPhoto = 4032 * 3024;  // 12 megapixels

BatchMachine machine_with(unsigned cores, std::uint64_t memory, std::uint64_t pixels = kCameraPhoto)
{
    BatchMachine machine;
    machine.cores = cores;
    machine.memory_bytes = memory;
    machine.bytes_per_photo = bytes_in_flight(pixels);
    return machine;
}

// The estimate the memory bounds divide by, as photos_in_flight.hpp states it: 20 bytes a pixel
// and 32 MiB besides.
TEST(PhotosInFlight, APhotoNeedsTwentyBytesAPixelAnd32MiB)
{
    EXPECT_EQ(bytes_in_flight(0), 32 * kMiB);
    EXPECT_EQ(bytes_in_flight(kCameraPhoto) - bytes_in_flight(0), 20 * kCameraPhoto);
}

// The old ceiling was 32 in flight, whatever the machine (--jobs 64: "not in range 1 to 32").
TEST(PhotosInFlight, SixtyFourCoresTakeSixtyFourPhotos)
{
    const PhotosInFlight limits = photos_in_flight(machine_with(64, 512 * kGiB));
    EXPECT_EQ(limits.by_default, 64u);
    EXPECT_GE(limits.most, 64u);
    std::string note;
    EXPECT_EQ(jobs_for(0, 1000, limits, note), 64u);
    EXPECT_EQ(note, "");
    EXPECT_EQ(jobs_for(64, 1000, limits, note), 64u);
    EXPECT_EQ(note, "");
    // More than cores is the user's to ask for (photos waiting on the device, a slow disk).
    EXPECT_EQ(jobs_for(200, 1000, limits, note), 200u);
    EXPECT_EQ(note, "");
}

// What bounds nothing is not a bound: no memory, no device memory and no file limit known.
TEST(PhotosInFlight, NothingKnownBoundsNothing)
{
    const PhotosInFlight limits = photos_in_flight(machine_with(2, 0));
    EXPECT_EQ(limits.most, UINT_MAX);
    EXPECT_EQ(limits.why, "");
    EXPECT_EQ(limits.by_default, 2u);
    std::string note;
    EXPECT_EQ(jobs_for(1000, 1000, limits, note), 1000u);
    EXPECT_EQ(note, "");
}

// Memory holds 3 camera photos in flight (each 20 x 12.2 million bytes + 32 MiB, about 265 MiB):
// --jobs above it is cut, saying to what and why; the default is cut too, and says so.
TEST(PhotosInFlight, MemoryBoundsThemAndTheNoteSaysSo)
{
    const PhotosInFlight limits = photos_in_flight(machine_with(8, 1 * kGiB));
    EXPECT_EQ(limits.most, 3u);
    EXPECT_EQ(limits.by_default, 3u);
    std::string note;
    EXPECT_EQ(jobs_for(3, 1000, limits, note), 3u);
    EXPECT_EQ(note, "");
    EXPECT_EQ(jobs_for(64, 1000, limits, note), 3u);
    EXPECT_EQ(note,
              "--jobs 64 cut to 3, the most this machine holds: each photo in flight needs "
              "about 265 MiB and 1024 MiB of memory is available");
    EXPECT_EQ(jobs_for(0, 1000, limits, note), 3u);
    EXPECT_EQ(note,
              "3 photos in flight, not 8 (the default): each photo in flight needs about "
              "265 MiB and 1024 MiB of memory is available");
    // With only 3 photos left, 64 asked is 3 and nothing is cut: no note.
    EXPECT_EQ(jobs_for(64, 3, limits, note), 3u);
    EXPECT_EQ(note, "");
    EXPECT_EQ(jobs_for(64, 2, limits, note), 2u);
    EXPECT_EQ(note, "");
    // Smaller photos: more of them.
    EXPECT_EQ(photos_in_flight(machine_with(8, 1 * kGiB, 640 * 480)).most, 27u);
}

// Even with less memory than one photo needs, one photo runs (it fails by name if it must).
TEST(PhotosInFlight, AtLeastOnePhotoRuns)
{
    const PhotosInFlight limits = photos_in_flight(machine_with(4, 100 * kMiB));
    EXPECT_EQ(limits.most, 1u);
    EXPECT_EQ(limits.by_default, 1u);
}

// What sets the memory is named as the reader found it (ulimit -v, a cgroup's limit).
TEST(PhotosInFlight, TheNoteNamesWhatSetsTheMemory)
{
    BatchMachine machine = machine_with(8, 1 * kGiB);
    machine.memory_is = "left under ulimit -v";
    std::string note;
    jobs_for(8, 1000, photos_in_flight(machine), note);
    EXPECT_NE(note.find("1024 MiB of memory is left under ulimit -v"), std::string::npos) << note;
}

// --devices all on a machine of 2 cores and 4 GPUs: one photo per device by default. A device's
// own memory bounds the photos on it, and the smallest device bounds each device's share.
TEST(PhotosInFlight, DevicesTakeOnePhotoEachAndTheirMemoryBoundsThem)
{
    BatchMachine machine = machine_with(2, 512 * kGiB);
    machine.device_memory = {0, 0, 0, 0};  // buffers in host memory: no bound of their own
    EXPECT_EQ(photos_in_flight(machine).by_default, 4u);
    EXPECT_GE(photos_in_flight(machine).most, 4u);
    machine.device_memory = {1 * kGiB, 1 * kGiB, 1 * kGiB, 1 * kGiB};
    EXPECT_EQ(photos_in_flight(machine).most, 12u);  // 3 on each
    machine.device_memory = {1 * kGiB, 512 * kMiB, 1 * kGiB, 1 * kGiB};
    const PhotosInFlight limits = photos_in_flight(machine);
    EXPECT_EQ(limits.most, 4u);  // 1 on each
    EXPECT_NE(limits.why.find("the smallest of the 4 devices has 512 MiB"), std::string::npos)
        << limits.why;
}

// ulimit -n: each photo in flight opens up to 4 files, and 32 are kept for the driver.
TEST(PhotosInFlight, OpenFilesBoundThem)
{
    BatchMachine machine = machine_with(64, 512 * kGiB);
    machine.files_free = 32 + 4 * 10;
    const PhotosInFlight limits = photos_in_flight(machine);
    EXPECT_EQ(limits.most, 10u);
    EXPECT_NE(limits.why.find("ulimit -n"), std::string::npos) << limits.why;
}

// This machine as the batch reads it: its cores, and memory where Linux says how much.
TEST(PhotosInFlight, ThisMachineIsRead)
{
    const BatchMachine machine = this_machine({}, kCameraPhoto);
    EXPECT_EQ(machine.cores, core_count());
    EXPECT_EQ(machine.bytes_per_photo, bytes_in_flight(kCameraPhoto));
    EXPECT_GT(machine.memory_bytes, 0u);
    EXPECT_EQ(machine.device_memory.size(), 1u);
}

}  // namespace
}  // namespace sdk
