// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/imageio/jpeg.hpp"
#include "common/runtime/bands.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/opencl.hpp"
#include "common/runtime/transfers.hpp"

#include <cstddef>

namespace sdk {

// jpeg_idct.cl: a JPEG's luminance made on the device from its entropy-decoded coefficients
// (read_jpeg_luminance_coefficients), equal to libjpeg's decoding (jpeg_idct_reference.hpp).
// The host uploads the blocks, the device dequantises them and runs the inverse DCT, writing the
// luminance buffer the filters read.
class JpegIdctFilter {
public:
    JpegIdctFilter(const OpenClContext& cl, MemoryMode mode);

    // Uploads the blocks that luminance rows first_row .. first_row + rows - 1 lie in, and the
    // quantisation table (a band of the image, or all of it). Returns when they have arrived.
    void upload(const JpegLuminanceCoefficients& plane, std::size_t first_row, std::size_t rows);
    // Those rows of the luminance into `luminance`, row first_row at offset 0, rows `row_pitch`
    // bytes apart, the padding zeroed. Enqueued only: wait on the returned event.
    cl::Event run(std::size_t row_pitch, const cl::Buffer& luminance);

    // The bytes upload() moves for those rows.
    static std::size_t coefficient_bytes(const JpegLuminanceCoefficients& plane,
                                         std::size_t first_row, std::size_t rows);
    // The bytes of coefficients one luminance row of a `width`-pixel image takes on the device
    // (a band's planning counts them as one of its buffers).
    static RowFootprint row_footprint(std::size_t width);

private:
    OpenClContext cl_;
    MemoryMode mode_;
    cl::Program program_;
    cl::Kernel kernel_;
    cl::Buffer blocks_;
    std::size_t blocks_bytes_ = 0;  // the buffer's size, grown when a band needs more
    cl::Buffer quantisation_;
    // What the last upload() was for.
    std::size_t blocks_wide_ = 0;
    std::size_t width_ = 0;
    std::size_t first_row_ = 0;
    std::size_t rows_ = 0;
};

}  // namespace sdk
