// SPDX-License-Identifier: Apache-2.0
#include "samples/app/photos_in_flight.hpp"

#include "common/imageio/cores.hpp"
#include "common/runtime/resource_limits.hpp"

#include <algorithm>
#include <climits>
#include <exception>

namespace sdk {
namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
constexpr std::uint64_t kBytesPerPixel = 20;
constexpr std::uint64_t kBytesPerPhotoBesides = 32 * kMiB;

// Descriptors kept for the driver and the libraries, which open files of their own as the batch
// runs (PoCL its kernel cache, a linker's output), beside the photos' kFilesPerPhoto each.
constexpr std::uint64_t kFilesKeptForTheDriver = 32;

std::string mib(std::uint64_t bytes)
{
    return std::to_string((bytes + kMiB / 2) / kMiB) + " MiB";
}

unsigned at_least_one(std::uint64_t count)
{
    return static_cast<unsigned>(std::clamp<std::uint64_t>(count, 1, UINT_MAX));
}

}  // namespace

std::uint64_t bytes_in_flight(std::uint64_t pixels)
{
    return kBytesPerPixel * pixels + kBytesPerPhotoBesides;
}

PhotosInFlight photos_in_flight(const BatchMachine& machine)
{
    PhotosInFlight limits;
    limits.most = UINT_MAX;
    // Each bound in turn; the lowest is the most, and its reason the one a note gives.
    const auto bound = [&limits](std::uint64_t count, const std::string& why) {
        if (at_least_one(count) >= limits.most) return;
        limits.most = at_least_one(count);
        limits.why = why;
    };
    const std::uint64_t photo = std::max<std::uint64_t>(machine.bytes_per_photo, 1);
    if (machine.memory_bytes > 0)
        bound(machine.memory_bytes / photo, "each photo in flight needs about " + mib(photo) +
                                                " and " + mib(machine.memory_bytes) +
                                                " of memory is " + machine.memory_is);
    // Photo thread k runs on device k mod n, so each device holds the same share of the photos
    // (one more on the first few): the device with the least memory of its own bounds them all.
    const std::size_t devices = std::max<std::size_t>(machine.device_memory.size(), 1);
    std::uint64_t least_device_memory = 0;
    for (const std::uint64_t bytes : machine.device_memory)
        if (bytes > 0 && (least_device_memory == 0 || bytes < least_device_memory))
            least_device_memory = bytes;
    if (least_device_memory > 0)
        bound(least_device_memory / photo * devices,
              "each photo in flight needs about " + mib(photo) + " of its device's memory, and " +
                  (devices > 1 ? "the smallest of the " + std::to_string(devices) + " devices has "
                               : "the device has ") +
                  mib(least_device_memory));
    if (machine.files_free > 0)
        bound(machine.files_free > kFilesKeptForTheDriver
                  ? (machine.files_free - kFilesKeptForTheDriver) / kFilesPerPhoto
                  : 0,
              "each photo in flight opens up to " + std::to_string(kFilesPerPhoto) +
                  " files and this process may open " + std::to_string(machine.files_free) +
                  " more (ulimit -n), " + std::to_string(kFilesKeptForTheDriver) +
                  " of them kept for the driver");
    // One per core, so that every core decodes, filters or encodes a photo; and at least one per
    // device, so that --devices all on a machine of few cores still uses every device.
    limits.uncut_default =
        std::max<unsigned>(std::max(machine.cores, 1u), static_cast<unsigned>(devices));
    limits.by_default = std::min(limits.uncut_default, limits.most);
    return limits;
}

unsigned jobs_for(unsigned asked, std::size_t photos_left, const PhotosInFlight& limits,
                  std::string& note)
{
    note.clear();
    const unsigned wanted = asked > 0 ? asked : limits.uncut_default;
    // More photos in flight than photos left would leave threads with nothing to do: not a cut.
    const unsigned useful =
        static_cast<unsigned>(std::min<std::size_t>(wanted, std::max<std::size_t>(photos_left, 1)));
    if (useful <= limits.most) return useful;
    // Cut: said, for --jobs as asked, and for the default so that fewer photos than cores is
    // not a surprise.
    const std::string most = std::to_string(limits.most);
    note =
        (asked > 0 ? "--jobs " + std::to_string(asked) + " cut to " + most +
                         ", the most this machine holds"
                   : most + " photos in flight, not " + std::to_string(wanted) + " (the default)") +
        ": " + limits.why;
    return limits.most;
}

BatchMachine this_machine(const std::vector<DeviceSelection>& devices, std::uint64_t largest_pixels)
{
    BatchMachine machine;
    machine.cores = core_count();
    machine.bytes_per_photo = bytes_in_flight(largest_pixels);
    const MemoryRoom room = memory_room();
    machine.memory_bytes = room.bytes;
    machine.memory_is = room.set_by;
    machine.files_free = files_free();
    machine.device_memory.clear();
    for (const DeviceSelection& selection : devices) {
        std::uint64_t own = 0;
        try {
            const cl::Device device = select_device(selection);
            // A CPU device's buffers, and an integrated GPU's, are host memory: the host's bound
            // counts them already.
            const bool shares_host_memory =
                device.getInfo<CL_DEVICE_HOST_UNIFIED_MEMORY>() == CL_TRUE ||
                (device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0;
            if (!shares_host_memory) own = device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
        } catch (const std::exception&) {
            own = 0;  // not known: that device sets no bound (its photos would fail by name)
        }
        machine.device_memory.push_back(own);
    }
    if (machine.device_memory.empty()) machine.device_memory.push_back(0);
    return machine;
}

}  // namespace sdk
