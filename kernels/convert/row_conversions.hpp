// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/imageio/bmp.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/opencl.hpp"

#include <cstddef>
#include <string>

namespace sdk {

// The kernels of convert.cl: a BMP's pixel rows as stored to the luminance image the filters
// read, and an 8-bit result to the pixel rows of the BMP that is written. With them the host
// moves files' bytes and never a pixel (the contracts are in convert_reference.hpp).
class RowConversions {
public:
    explicit RowConversions(const OpenClContext& cl);

    // Stored rows (`layout`: BmpStorage::bgr24 or grey8) into `luminance`, top-down with rows
    // `row_pitch` bytes apart, padding zeroed. Enqueued only: wait on the returned event.
    cl::Event to_luminance(const cl::Buffer& rows, const BmpLayout& layout,
                           const cl::Buffer& luminance, std::size_t row_pitch);
    // A width x height 8-bit image with rows `row_pitch` apart into the rows of an 8-bit BMP:
    // bottom row first, each padded with zeros to bmp_grey_stride(width) bytes.
    cl::Event to_bmp_rows(const cl::Buffer& image, std::size_t width, std::size_t height,
                          std::size_t row_pitch, const cl::Buffer& rows);

    // For float filters: a width x height 8-bit image (rows `row_pitch` bytes apart) to floats
    // (rows `float_pitch` floats apart, padding 0), and a float result back to 8 bits as
    // to_8bit (fir_reference.hpp) rounds it. Enqueued only: wait on the returned event.
    cl::Event to_float(const cl::Buffer& image, std::size_t width, std::size_t height,
                       std::size_t row_pitch, const cl::Buffer& values, std::size_t float_pitch);
    cl::Event to_8bit(const cl::Buffer& values, std::size_t float_pitch, std::size_t width,
                      std::size_t height, const cl::Buffer& image, std::size_t row_pitch);

private:
    // luminance_to_float and float_to_8bit: (source, its pitch, width, height, destination,
    // its pitch), pitches in elements.
    cl::Event convert_each_pixel(cl::Kernel& kernel, const cl::Buffer& source,
                                 std::size_t source_pitch, std::size_t width, std::size_t height,
                                 const cl::Buffer& destination, std::size_t destination_pitch,
                                 std::size_t float_pitch, const std::string& what);

    OpenClContext cl_;
    cl::Program program_;
    cl::Kernel bgr_to_luminance_;
    cl::Kernel grey_to_luminance_;
    cl::Kernel grey_to_bmp_rows_;
    cl::Kernel luminance_to_float_;
    cl::Kernel float_to_8bit_;
};

}  // namespace sdk
