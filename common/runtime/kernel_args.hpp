// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/opencl.hpp"

#include <cstddef>

namespace sdk {

// Binds `args` to `kernel` in order: the first to argument 0, the next to 1, and so on. A filter
// binds all of a kernel's arguments in one call, so the host-kernel contract sits in one place
// and the argument order is written once, in the same order as the kernel's signature, instead
// of as literal indices scattered over the methods that happen to know each value. Each value is
// passed to cl::Kernel::setArg as it is: cast scalars to the kernel's exact types (cl_int,
// cl_float4) at the call, since setArg sends sizeof(value) bytes.
//
// An argument passed by value whose size is known only at run time (a struct of weights of the
// window's size, kernels/fir/fir_local.cl) is passed as ArgBytes, and a __local one as cl::Local.
struct ArgBytes {
    std::size_t bytes;
    const void* data;
};

namespace detail {
template <typename T>
void set_arg(cl::Kernel& kernel, cl_uint index, const T& value)
{
    kernel.setArg(index, value);
}
inline void set_arg(cl::Kernel& kernel, cl_uint index, const ArgBytes& value)
{
    kernel.setArg(index, value.bytes, value.data);
}
}  // namespace detail

template <typename... Args>
void set_args(cl::Kernel& kernel, const Args&... args)
{
    cl_uint index = 0;
    (detail::set_arg(kernel, index++, args), ...);
}

}  // namespace sdk
