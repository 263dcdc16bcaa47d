// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/device.hpp"

#include <cstddef>
#include <string>

namespace sdk {

// The image variants' host side (kernels/sobel/sobel_image.cl and kernels/fir/fir_image.cl read
// the luminance through an image2d_t): whether this device can hold a `width` x `height`
// luminance as an image at all, and the luminance buffer seen as one without a copy where the
// device can make such a view. Sobel's luminance is 8-bit, the FIR filter's float: `format`.
inline const cl_image_format kLuminanceBytes{CL_R, CL_UNSIGNED_INT8};
inline const cl_image_format kLuminanceFloats{CL_R, CL_FLOAT};

// Why this device cannot, in one line ("this device has no image support"), or "" when it can:
// images supported, the one-channel `format`, and no larger than the device's largest 2-D image.
std::string luminance_image_unavailable(const OpenClContext& cl, std::size_t width,
                                        std::size_t height,
                                        const cl_image_format& format = kLuminanceBytes);

// Whether this device can see a buffer whose rows are `row_pitch` bytes apart as an image of
// `pixel_bytes`-byte pixels (cl_khr_image2d_from_buffer, in OpenCL 2.0's core; the pitch a
// multiple of its alignment, which the device gives in pixels).
bool images_from_buffers(const OpenClContext& cl, std::size_t row_pitch,
                         std::size_t pixel_bytes = 1);

// The luminance buffer (rows `row_pitch` bytes apart) as a `width` x `height` image of `format`
// sharing its memory (cl_khr_image2d_from_buffer, in OpenCL 2.0's core), or an empty image where
// the device cannot make one: PoCL, OpenCL 1.2 devices, a row pitch or buffer address the device
// will not take. The image variants then copy the buffer into an image of their own each run.
cl::Image2D image_view_of(const OpenClContext& cl, const cl::Buffer& luminance, std::size_t width,
                          std::size_t height, std::size_t row_pitch,
                          const cl_image_format& format = kLuminanceBytes);

}  // namespace sdk
