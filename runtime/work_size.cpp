#include "runtime/work_size.hpp"

#include "runtime/errors.hpp"

namespace sdk {

std::size_t kernel_group_limit(const cl::Kernel& kernel, const cl::Device& device)
{
    return while_doing("querying the kernel's work-group size", [&] {
        return kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
    });
}

// [Launch size 2d]
LaunchSize launch_size_2d(const cl::Kernel& kernel, const cl::Device& device, std::size_t items_x,
                          std::size_t items_y, std::size_t preferred_x, std::size_t preferred_y)
{
    const std::size_t limit = kernel_group_limit(kernel, device);
    std::size_t local_x = preferred_x;
    std::size_t local_y = preferred_y;
    while (local_x * local_y > limit && local_y > 1) local_y /= 2;
    while (local_x * local_y > limit && local_x > 1) local_x /= 2;
    return {cl::NDRange(divide_round_up(items_x, local_x) * local_x,
                        divide_round_up(items_y, local_y) * local_y),
            cl::NDRange(local_x, local_y)};
}
// [Launch size 2d]

LaunchSize launch_size_1d(const cl::Kernel& kernel, const cl::Device& device, std::size_t items,
                          std::size_t preferred)
{
    const std::size_t limit = kernel_group_limit(kernel, device);
    std::size_t local = preferred;
    while (local > limit && local > 1) local /= 2;
    return {cl::NDRange(divide_round_up(items, local) * local), cl::NDRange(local)};
}

}  // namespace sdk
