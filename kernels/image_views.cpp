// SPDX-License-Identifier: Apache-2.0
#include "kernels/image_views.hpp"

#include <CL/cl_ext.h>

#include <vector>

namespace sdk {

namespace {

std::size_t bytes_per_pixel(const cl_image_format& format)
{
    return format.image_channel_data_type == CL_FLOAT ? 4 : 1;
}

}  // namespace

std::string luminance_image_unavailable(const OpenClContext& cl, std::size_t width,
                                        std::size_t height, const cl_image_format& format)
{
    if (!cl.device.getInfo<CL_DEVICE_IMAGE_SUPPORT>()) return "this device has no image support";
    std::vector<cl::ImageFormat> formats;
    cl.context.getSupportedImageFormats(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, &formats);
    bool supported = false;
    for (const auto& candidate : formats)
        supported |= candidate.image_channel_order == format.image_channel_order &&
                     candidate.image_channel_data_type == format.image_channel_data_type;
    if (!supported)
        return format.image_channel_data_type == CL_FLOAT
                   ? "this device has no one-channel float images (CL_R, CL_FLOAT)"
                   : "this device has no one-channel 8-bit images (CL_R, CL_UNSIGNED_INT8)";
    const std::size_t max_width = cl.device.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>();
    const std::size_t max_height = cl.device.getInfo<CL_DEVICE_IMAGE2D_MAX_HEIGHT>();
    if (width > max_width || height > max_height)
        return "this device's images are at most " + std::to_string(max_width) + "x" +
               std::to_string(max_height) + " pixels";
    return "";
}

bool images_from_buffers(const OpenClContext& cl, std::size_t row_pitch, std::size_t pixel_bytes)
{
    // Asked only of a device that knows the question: OpenCL 1.2 drivers reject it as an error.
    const std::string version = cl.device.getInfo<CL_DEVICE_VERSION>();  // "OpenCL 3.0 ..."
    const bool knows = version.rfind("OpenCL 1.", 0) != 0 ||
                       cl.device.getInfo<CL_DEVICE_EXTENSIONS>().find(
                           "cl_khr_image2d_from_buffer") != std::string::npos;
    cl_uint pitch_alignment = 0;  // in pixels; 0 where images from buffers are not supported
    return knows &&
           clGetDeviceInfo(cl.device(), CL_DEVICE_IMAGE_PITCH_ALIGNMENT_KHR, sizeof pitch_alignment,
                           &pitch_alignment, nullptr) == CL_SUCCESS &&
           pitch_alignment != 0 && row_pitch % (pitch_alignment * pixel_bytes) == 0;
}

cl::Image2D image_view_of(const OpenClContext& cl, const cl::Buffer& luminance, std::size_t width,
                          std::size_t height, std::size_t row_pitch, const cl_image_format& format)
{
    if (!images_from_buffers(cl, row_pitch, bytes_per_pixel(format))) return {};
    cl_image_desc view{};
    view.image_type = CL_MEM_OBJECT_IMAGE2D;
    view.image_width = width;
    view.image_height = height;
    view.image_row_pitch = row_pitch;
    view.buffer = luminance();
    cl_int status = CL_SUCCESS;
    // Flags 0: the view inherits the buffer's. A buffer whose address the device will not take
    // as an image's fails here, and is copied instead.
    const cl_mem image = clCreateImage(cl.context(), 0, &format, &view, nullptr, &status);
    return status == CL_SUCCESS ? cl::Image2D(image) : cl::Image2D();
}

}  // namespace sdk
