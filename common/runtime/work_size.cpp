// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/work_size.hpp"

#include "common/runtime/device.hpp"
#include "common/runtime/errors.hpp"

#include <algorithm>

namespace sdk {

std::string describe(const WorkGroupShape& shape)
{
    return "work-group " + std::to_string(shape.x) + "x" + std::to_string(shape.y);
}

std::size_t kernel_group_limit(const cl::Kernel& kernel, const cl::Device& device)
{
    const std::size_t kernel_limit = while_doing("querying the kernel's work-group size", [&] {
        return kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
    });
    const DeviceLimits limits = device_limits(device);
    return std::min({kernel_limit, limits.max_work_group_size, limits.max_kernel_work_group_size});
}

namespace {

// `who` runs at most `limit` work-items a group: refuses a shape over that or the device's
// largest sizes along x and y.
void check_group_limit(const cl::Device& device, std::size_t x, std::size_t y, std::size_t limit,
                       const std::string& who)
{
    const auto item_limits = device_limits(device).max_work_item_sizes;
    if (x == 0 || y == 0 || x > limit || y > limit / x || x > item_limits.at(0) ||
        y > item_limits.at(1))
        throw UsageError("work-group " + std::to_string(x) + "x" + std::to_string(y) + ": " + who +
                         " runs at most " + std::to_string(limit) +
                         " work-items a group on this device (at most " +
                         std::to_string(item_limits.at(0)) + " wide, " +
                         std::to_string(item_limits.at(1)) + " high)" +
                         limit_setting("SDK_MAX_WORK_GROUP_SIZE") +
                         limit_setting("SDK_MAX_KERNEL_WORK_GROUP_SIZE"));
}

}  // namespace

void check_work_group(const cl::Kernel& kernel, const cl::Device& device, std::size_t x,
                      std::size_t y, const std::string& kernel_name)
{
    check_group_limit(device, x, y, kernel_group_limit(kernel, device),
                      "the " + kernel_name + " kernel");
}

WorkGroupShape fit_work_group(const cl::Kernel& kernel, const cl::Device& device,
                              WorkGroupShape preferred,
                              const std::function<bool(WorkGroupShape)>& fits)
{
    const std::size_t limit = kernel_group_limit(kernel, device);
    const auto item_limits = device_limits(device).max_work_item_sizes;
    WorkGroupShape shape{std::max<std::size_t>(preferred.x, 1),
                         std::max<std::size_t>(preferred.y, 1)};
    const auto runs = [&] {
        return shape.x * shape.y <= limit && shape.x <= item_limits.at(0) &&
               shape.y <= item_limits.at(1) && (!fits || fits(shape));
    };
    while (!runs() && shape.y > 1) shape.y /= 2;
    while (!runs() && shape.x > 1) shape.x /= 2;
    return shape;
}

void check_work_group_within_device(const cl::Device& device, std::size_t x, std::size_t y)
{
    check_group_limit(device, x, y, device_limits(device).max_work_group_size, "the device");
}

// [Launch size 2d]
LaunchSize launch_size_2d(const cl::Kernel& kernel, const cl::Device& device, std::size_t items_x,
                          std::size_t items_y, std::size_t preferred_x, std::size_t preferred_y)
{
    const WorkGroupShape local = fit_work_group(kernel, device, {preferred_x, preferred_y});
    return {cl::NDRange(divide_round_up(items_x, local.x) * local.x,
                        divide_round_up(items_y, local.y) * local.y),
            cl::NDRange(local.x, local.y)};
}
// [Launch size 2d]

LaunchSize launch_size_1d(const cl::Kernel& kernel, const cl::Device& device, std::size_t items,
                          std::size_t preferred)
{
    const std::size_t limit = kernel_group_limit(kernel, device);
    const std::size_t widest = device_limits(device).max_work_item_sizes.at(0);
    std::size_t local = std::max<std::size_t>(preferred, 1);
    while ((local > limit || local > widest) && local > 1) local /= 2;
    return {cl::NDRange(divide_round_up(items, local) * local), cl::NDRange(local)};
}

void check_local_memory(const cl::Device& device, std::size_t x, std::size_t y,
                        std::uint64_t tile_bytes)
{
    const std::uint64_t available = device_limits(device).local_memory_bytes;
    if (tile_bytes > available)
        throw UsageError("work-group " + std::to_string(x) + "x" + std::to_string(y) +
                         ": the local variant's tile needs " + std::to_string(tile_bytes) +
                         " bytes of local memory, this device has " + std::to_string(available) +
                         limit_setting("SDK_MAX_LOCAL_MEM_BYTES"));
}

}  // namespace sdk
