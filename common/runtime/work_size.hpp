// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/opencl.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace sdk {

// [Launch size]
// A 2-D launch: the local size is chosen by us, never left to the driver, and the global size
// is rounded up to whole work-groups (kernels skip work-items past the image). Leaving the local
// size to the driver can be catastrophic: a global size of 16382 (= 2 x 8191) leaves it nothing
// but work-groups of 1 or 2, and a kernel so launched crawls
// (docs/performance.md#local-size-left-to-the-driver).
struct LaunchSize {
    cl::NDRange global;
    cl::NDRange local;
};
// [Launch size]

// A work-group's shape, x by y work-items.
struct WorkGroupShape {
    std::size_t x = 32;
    std::size_t y = 8;
    bool operator==(const WorkGroupShape& other) const { return x == other.x && y == other.y; }
    bool operator!=(const WorkGroupShape& other) const { return !(*this == other); }
};
std::string describe(const WorkGroupShape& shape);  // "work-group 32x8"

// The most work-items a group of `kernel` may have on `device`: CL_KERNEL_WORK_GROUP_SIZE, which
// a register-hungry kernel on an embedded GPU's driver (Mesa's rusticl, a Mali's) may put far
// below the device's CL_DEVICE_MAX_WORK_GROUP_SIZE, and no more than device_limits'
// max_work_group_size and max_kernel_work_group_size.
std::size_t kernel_group_limit(const cl::Kernel& kernel, const cl::Device& device);

// [Fit work group]
// The shape a kernel runs when nobody named one (a filter's default, a tuned shape, a tuning
// candidate, the verdict's): `preferred`, halved in height and then in width until `kernel` can
// run it on `device` (kernel_group_limit, the device's largest sizes along x and y) and `fits`
// accepts it (a local variant: its tile in local memory). Height goes first: the widths we
// prefer are multiples of a GPU's SIMD width (CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE), kept
// as long as the limit allows. 1x1 at worst: a shape that `fits` refuses even then is returned as
// 1x1, for the caller's own check to refuse.
WorkGroupShape fit_work_group(const cl::Kernel& kernel, const cl::Device& device,
                              WorkGroupShape preferred,
                              const std::function<bool(WorkGroupShape)>& fits = {});
// [Fit work group]

// Refuses (UsageError) a work-group shape of `x` x `y` that `kernel` cannot run on `device`,
// naming the limits: a shape asked for is run as asked or not at all, never shrunk behind the
// user's back (the launch would then differ from the one printed and timed).
void check_work_group(const cl::Kernel& kernel, const cl::Device& device, std::size_t x,
                      std::size_t y, const std::string& kernel_name);

// The same against the device's own limits alone (device_limits: CL_DEVICE_MAX_WORK_GROUP_SIZE
// and CL_DEVICE_MAX_WORK_ITEM_SIZES), for a kernel not built yet: one built for its group's shape.
void check_work_group_within_device(const cl::Device& device, std::size_t x, std::size_t y);

// Refuses (UsageError) a work-group of `x` x `y` whose local-memory tile needs `tile_bytes`,
// more than `device` has (device_limits: CL_DEVICE_LOCAL_MEM_SIZE), naming both.
void check_local_memory(const cl::Device& device, std::size_t x, std::size_t y,
                        std::uint64_t tile_bytes);

// `items_x` x `items_y` work-items in groups of up to `preferred_x` x `preferred_y`, shrunk to
// what the kernel allows on the device (fit_work_group).
LaunchSize launch_size_2d(const cl::Kernel& kernel, const cl::Device& device, std::size_t items_x,
                          std::size_t items_y, std::size_t preferred_x = 32,
                          std::size_t preferred_y = 8);

LaunchSize launch_size_1d(const cl::Kernel& kernel, const cl::Device& device, std::size_t items,
                          std::size_t preferred = 256);

inline std::size_t divide_round_up(std::size_t value, std::size_t divisor)
{
    return (value + divisor - 1) / divisor;
}

}  // namespace sdk
