#pragma once
#include "common/runtime/device.hpp"

#include <cstddef>
#include <string>

namespace sdk {

// The image variant's host side (kernels/sobel/sobel_image.cl reads the luminance through an
// image2d_t): whether this device can hold a `width` x `height` luminance as an image at all,
// and the luminance buffer seen as one without a copy where the device can make such a view.

// Why this device cannot, in one line ("this device has no image support"), or "" when it can:
// images supported, the one-channel 8-bit format (CL_R, CL_UNSIGNED_INT8), and no larger than
// the device's largest 2-D image.
std::string luminance_image_unavailable(const OpenClContext& cl, std::size_t width,
                                        std::size_t height);

// Whether this device can see a buffer whose rows are `row_pitch` bytes apart as an image
// (cl_khr_image2d_from_buffer, in OpenCL 2.0's core; the pitch a multiple of its alignment).
bool images_from_buffers(const OpenClContext& cl, std::size_t row_pitch);

// The luminance buffer (rows `row_pitch` bytes apart) as a `width` x `height` image sharing its
// memory (cl_khr_image2d_from_buffer, in OpenCL 2.0's core), or an empty image where the device
// cannot make one: PoCL, OpenCL 1.2 devices, a row pitch or buffer address the device will not
// take. The image variant then copies the buffer into an image of its own each run.
cl::Image2D image_view_of(const OpenClContext& cl, const cl::Buffer& luminance, std::size_t width,
                          std::size_t height, std::size_t row_pitch);

}  // namespace sdk
