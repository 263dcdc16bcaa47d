// SPDX-License-Identifier: Apache-2.0
#include "kernels/convert/row_conversions.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/kernel_args.hpp"
#include "common/runtime/program.hpp"
#include "common/runtime/transfers.hpp"
#include "common/runtime/work_size.hpp"

#include <stdexcept>
#include <string>

namespace sdk {

namespace {
constexpr std::size_t kPixelsPerItem = 16;  // PIXELS_PER_ITEM in convert.cl
}  // namespace

RowConversions::RowConversions(const OpenClContext& cl) : cl_(cl)
{
    program_ = build_program(cl_, "convert.cl", "");
    while_doing("creating the row conversion kernels", [&] {
        bgr_to_luminance_ = create_kernel(program_, "bgr_to_luminance");
        grey_to_luminance_ = create_kernel(program_, "grey_to_luminance");
        grey_to_bmp_rows_ = create_kernel(program_, "grey_to_bmp_rows");
        luminance_to_float_ = create_kernel(program_, "luminance_to_float");
        float_to_8bit_ = create_kernel(program_, "float_to_8bit");
    });
}

cl::Event RowConversions::to_luminance(const cl::Buffer& rows, const BmpLayout& layout,
                                       const cl::Buffer& luminance, std::size_t row_pitch)
{
    if (layout.storage == BmpStorage::other)
        throw std::invalid_argument("RowConversions::to_luminance: rows that need decoding");
    const std::string size = std::to_string(layout.width) + "x" + std::to_string(layout.height);
    // The stored rows are the larger buffer: every offset into them must fit a 32-bit int.
    check_kernel_can_address(cl_, layout.stride * layout.height, layout.stride * layout.height,
                             "the file rows of an image of " + size);
    cl::Kernel& kernel =
        layout.storage == BmpStorage::bgr24 ? bgr_to_luminance_ : grey_to_luminance_;
    cl::Event event;
    while_doing("converting the file's rows to luminance", [&] {
        set_args(kernel, rows, static_cast<cl_int>(layout.stride),
                 static_cast<cl_int>(layout.top_down ? 1 : 0), static_cast<cl_int>(layout.width),
                 static_cast<cl_int>(layout.height), luminance, static_cast<cl_int>(row_pitch));
        // One work-item per 16 bytes of each luminance row, its padding included.
        const LaunchSize launch = launch_size_2d(
            kernel, cl_.device, divide_round_up(row_pitch, kPixelsPerItem), layout.height);
        cl_.queue.enqueueNDRangeKernel(kernel, cl::NullRange, launch.global, launch.local, nullptr,
                                       &event);
        cl_.record(kernel, event);
    });
    return event;
}

cl::Event RowConversions::to_bmp_rows(const cl::Buffer& image, std::size_t width,
                                      std::size_t height, std::size_t row_pitch,
                                      const cl::Buffer& rows)
{
    const std::size_t stride = bmp_grey_stride(width);
    cl::Event event;
    while_doing("laying the result out as BMP rows", [&] {
        set_args(grey_to_bmp_rows_, image, static_cast<cl_int>(row_pitch),
                 static_cast<cl_int>(width), static_cast<cl_int>(height), rows,
                 static_cast<cl_int>(stride));
        const LaunchSize launch = launch_size_2d(grey_to_bmp_rows_, cl_.device,
                                                 divide_round_up(stride, kPixelsPerItem), height);
        cl_.queue.enqueueNDRangeKernel(grey_to_bmp_rows_, cl::NullRange, launch.global,
                                       launch.local, nullptr, &event);
        cl_.record(grey_to_bmp_rows_, event);
    });
    return event;
}

cl::Event RowConversions::to_float(const cl::Buffer& image, std::size_t width, std::size_t height,
                                   std::size_t row_pitch, const cl::Buffer& values,
                                   std::size_t float_pitch)
{
    return convert_each_pixel(luminance_to_float_, image, row_pitch, width, height, values,
                              float_pitch, float_pitch, "converting the luminance to floats");
}

cl::Event RowConversions::to_8bit(const cl::Buffer& values, std::size_t float_pitch,
                                  std::size_t width, std::size_t height, const cl::Buffer& image,
                                  std::size_t row_pitch)
{
    return convert_each_pixel(float_to_8bit_, values, float_pitch, width, height, image, row_pitch,
                              float_pitch, "converting the result to 8 bits");
}

cl::Event RowConversions::convert_each_pixel(cl::Kernel& kernel, const cl::Buffer& source,
                                             std::size_t source_pitch, std::size_t width,
                                             std::size_t height, const cl::Buffer& destination,
                                             std::size_t destination_pitch, std::size_t float_pitch,
                                             const std::string& what)
{
    // The float image is the larger: every index into it must fit a 32-bit int.
    check_kernel_can_address(
        cl_, float_pitch * height, 4 * float_pitch * height,
        "a float image of " + std::to_string(width) + "x" + std::to_string(height));
    cl::Event event;
    while_doing(what, [&] {
        set_args(kernel, source, static_cast<cl_int>(source_pitch), static_cast<cl_int>(width),
                 static_cast<cl_int>(height), destination, static_cast<cl_int>(destination_pitch));
        // One work-item per destination element, its row padding included.
        const LaunchSize launch = launch_size_2d(kernel, cl_.device, destination_pitch, height);
        cl_.queue.enqueueNDRangeKernel(kernel, cl::NullRange, launch.global, launch.local, nullptr,
                                       &event);
        cl_.record(kernel, event);
    });
    return event;
}

}  // namespace sdk
