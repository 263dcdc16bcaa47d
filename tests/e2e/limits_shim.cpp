// SPDX-License-Identifier: Apache-2.0
// A stand-in for an embedded-class device's driver, for the end-to-end tests: loaded into a
// sample with LD_PRELOAD, it refuses what such a driver refuses, the way it refuses it. A desktop
// driver (PoCL) would run a 512-item work-group or allocate 1 GiB without complaint, so a sample
// that sized a launch by the device's own limits rather than the lowered ones (SDK_MAX_* in
// common/runtime/device.hpp) would pass unnoticed without it.
//
// It reads its own variables, so that a test can set them without the SDK's and see a launch
// refused:
//   SHIM_MAX_WORK_GROUP_SIZE  a launch of more work-items a group: CL_INVALID_WORK_GROUP_SIZE
//   SHIM_MAX_KERNEL_WORK_GROUP_SIZE  the same, for a driver that allows each kernel fewer
//                             work-items than the device (CL_KERNEL_WORK_GROUP_SIZE; Mesa's
//                             rusticl allows each of ours 32 of the device's 1024)
//   SHIM_MAX_LOCAL_MEM_BYTES  a kernel using more local memory: CL_OUT_OF_RESOURCES
//   SHIM_MAX_ALLOC_BYTES      a larger buffer: CL_INVALID_BUFFER_SIZE
// Each refusal is also named on stderr, with "limits_shim:" first.
#include "common/runtime/opencl.hpp"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace {

// The variable's value, or 0 (no limit) when it is unset.
unsigned long long limit(const char* name)
{
    const char* value = std::getenv(name);
    return value && *value ? std::strtoull(value, nullptr, 10) : 0;
}

template <typename Function>
Function real(const char* name)
{
    return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" {

cl_int clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint dimensions,
                              const size_t* offset, const size_t* global, const size_t* local,
                              cl_uint waits, const cl_event* wait_list, cl_event* event)
{
    static const auto enqueue = real<decltype(&clEnqueueNDRangeKernel)>("clEnqueueNDRangeKernel");
    unsigned long long most_items = limit("SHIM_MAX_WORK_GROUP_SIZE");
    if (const unsigned long long kernel_items = limit("SHIM_MAX_KERNEL_WORK_GROUP_SIZE");
        kernel_items && (!most_items || kernel_items < most_items))
        most_items = kernel_items;
    if (most_items && local) {
        unsigned long long items = 1;
        for (cl_uint d = 0; d < dimensions; ++d) items *= local[d];
        if (items > most_items) {
            std::fprintf(stderr, "limits_shim: refused a work-group of %llu items (at most %llu)\n",
                         items, most_items);
            return CL_INVALID_WORK_GROUP_SIZE;
        }
    }
    const unsigned long long most_local = limit("SHIM_MAX_LOCAL_MEM_BYTES");
    if (most_local) {
        cl_device_id device = nullptr;
        cl_ulong bytes = 0;
        // Static __local arrays and the __local arguments set so far, as the driver counts them.
        if (clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr) ==
                CL_SUCCESS &&
            clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof bytes, &bytes,
                                     nullptr) == CL_SUCCESS &&
            bytes > most_local) {
            std::fprintf(stderr,
                         "limits_shim: refused a kernel using %llu bytes of local memory "
                         "(at most %llu)\n",
                         static_cast<unsigned long long>(bytes), most_local);
            return CL_OUT_OF_RESOURCES;
        }
    }
    return enqueue(queue, kernel, dimensions, offset, global, local, waits, wait_list, event);
}

cl_mem clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host,
                      cl_int* error)
{
    static const auto create = real<decltype(&clCreateBuffer)>("clCreateBuffer");
    const unsigned long long most = limit("SHIM_MAX_ALLOC_BYTES");
    if (most && size > most) {
        std::fprintf(stderr, "limits_shim: refused a buffer of %zu bytes (at most %llu)\n", size,
                     most);
        if (error) *error = CL_INVALID_BUFFER_SIZE;
        return nullptr;
    }
    return create(context, flags, size, host, error);
}

}  // extern "C"
