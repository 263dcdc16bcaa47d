#pragma once
#include "common/runtime/opencl.hpp"

namespace sdk {

// Binds `args` to `kernel` in order: the first to argument 0, the next to 1, and so on. A filter
// binds all of a kernel's arguments in one call, so the host-kernel contract sits in one place
// and the argument order is written once, in the same order as the kernel's signature, instead
// of as literal indices scattered over the methods that happen to know each value. Each value is
// passed to cl::Kernel::setArg as it is: cast scalars to the kernel's exact types (cl_int,
// cl_float4) at the call, since setArg sends sizeof(value) bytes.
template <typename... Args>
void set_args(cl::Kernel& kernel, const Args&... args)
{
    cl_uint index = 0;
    (kernel.setArg(index++, args), ...);
}

}  // namespace sdk
