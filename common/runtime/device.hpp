// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/command_log.hpp"
#include "common/runtime/opencl.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

namespace sdk {

// Which device to run on, as the Khronos SDK samples take it: -p/--platform, -d/--device,
// -t/--type. Indices count within the platform, among the devices of the chosen type.
enum class DeviceType { all, cpu, gpu, accelerator };

struct DeviceSelection {
    std::optional<unsigned> platform;  // unset: search every platform
    std::optional<unsigned> device;    // unset: the first matching device
    std::optional<DeviceType> type;    // unset: the first GPU if there is one, else any device
};

// Thrown when no platform or no matching device exists; the message says what was asked for.
class DeviceNotFound : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::string device_type_name(cl_device_type type);

// One line per device: indices, platform, name, type, OpenCL version, compute units, memory.
void list_devices(std::ostream& out);

cl::Device select_device(const DeviceSelection& selection);

// [Device limits]
// The limits that launches and buffers are sized by, read here and nowhere else. Each can be
// lowered (never raised) from the environment, so that a test presents an embedded-class device
// (32 KiB of local memory, 256 work-items a group, 128 MiB a buffer) on a desktop one:
// SDK_MAX_ALLOC_BYTES, SDK_MAX_LOCAL_MEM_BYTES and SDK_MAX_WORK_GROUP_SIZE; and
// SDK_MAX_KERNEL_WORK_GROUP_SIZE for what an embedded driver allows each kernel
// (CL_KERNEL_WORK_GROUP_SIZE: 32 for every kernel of ours on Mesa's rusticl, whatever the device
// allows). A value that is not a positive number is a usage error (UsageError) naming the
// variable.
struct DeviceLimits {
    std::uint64_t max_allocation_bytes = 0;  // CL_DEVICE_MAX_MEM_ALLOC_SIZE
    std::uint64_t local_memory_bytes = 0;    // CL_DEVICE_LOCAL_MEM_SIZE
    std::size_t max_work_group_size = 0;     // CL_DEVICE_MAX_WORK_GROUP_SIZE
    // The most any kernel may have: max_work_group_size unless SDK_MAX_KERNEL_WORK_GROUP_SIZE
    // lowers it (each kernel's own, CL_KERNEL_WORK_GROUP_SIZE, is kernel_group_limit's).
    std::size_t max_kernel_work_group_size = 0;
    // CL_DEVICE_MAX_WORK_ITEM_SIZES, x, y and z, none above max_work_group_size.
    std::vector<std::size_t> max_work_item_sizes;
};
DeviceLimits device_limits(const cl::Device& device);
// " (NAME=VALUE)" where the environment sets `variable` (one of the four), else "": refusals
// name it beside the limit, so that a lowered limit is not taken for the device's own.
std::string limit_setting(const char* variable);
// [Device limits]

// A batch's --devices all: the device `selection` picks and every other device of its platform
// and type (without -t, a GPU's type: all its GPUs), each as a selection naming it by platform,
// index and type, the first being the one select_device picks.
std::vector<DeviceSelection> every_device_like(const DeviceSelection& selection);

// What every sample needs: the device, a context on it and an in-order queue with profiling on,
// because the samples report the Mali SDK's queued/wait/run times from events.
struct OpenClContext {
    cl::Device device;
    cl::Context context;
    cl::CommandQueue queue;
    // Every command the run enqueues, for --trace; null (nothing recorded) without it. Shared by
    // the copies of this context that the filters keep.
    std::shared_ptr<CommandLog> commands;

    // Hands a command's event to the log, if there is one, and to this thread's command
    // observer, if any (observe_commands_on_this_thread): the code that enqueues calls these.
    void record(const std::string& name, const cl::Event& event) const
    {
        if (commands) commands->record(name, event);
        hand_to_command_observer(event);
    }
    void record(const cl::Kernel& kernel, const cl::Event& event) const;  // named as the kernel

    std::string device_name() const;
    // device_limits(device).max_allocation_bytes.
    std::uint64_t max_allocation_bytes() const;

    // This context, its commands kept out of --trace's timeline: for measurements (the tuners'
    // candidates, the codec choice) that run in no step of the run.
    OpenClContext unrecorded() const
    {
        OpenClContext quiet = *this;
        quiet.commands = nullptr;
        return quiet;
    }
};

OpenClContext make_context(const DeviceSelection& selection);
// The same for a device already chosen: finding the device is quick, creating its context is
// what takes long (a discrete GPU's driver starts up), so a sample can decide things between.
OpenClContext make_context(const cl::Device& device);

// A batch of photos (samples/app/batch.hpp) starts the device once: after this call, make_context
// on a device it has already been given hands out the same context, with a new queue of its own
// (so photos in flight each enqueue in order, side by side), and build_program hands out the
// programs already built in that context. Once per process; a single run never calls it.
void reuse_contexts();
bool reusing_contexts();

// Waits until the processes this one started have ended (an OpenCL driver's helpers: PoCL links
// each kernel with `ld`, in a thread of its own, as commands run), leaving them for the driver to
// reap; after 10 s, ends those still running. A sample calls it before it exits: a run that failed
// while a kernel was being linked left `ld` running, writing into the next run's stderr.
void wait_for_driver_processes();

// Refuses, with one line naming both sizes, a buffer the device cannot allocate in one piece.
void check_fits_device(const OpenClContext& cl, std::uint64_t bytes, const std::string& what);

}  // namespace sdk
