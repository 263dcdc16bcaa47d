// SPDX-License-Identifier: Apache-2.0
#include "common/codecs/jpeg_idct/jpeg_idct_filter.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/kernel_args.hpp"
#include "common/runtime/program.hpp"
#include "common/runtime/work_size.hpp"

#include <string>

namespace sdk {

namespace {
constexpr std::size_t kBlockSize = 8;
constexpr std::size_t kBlockBytes = 64 * sizeof(std::int16_t);

// The rows of blocks that luminance rows first_row .. first_row + rows - 1 lie in.
struct BlockRows {
    std::size_t first;
    std::size_t count;
};
BlockRows block_rows_of(std::size_t first_row, std::size_t rows)
{
    const std::size_t first = first_row / kBlockSize;
    return {first, divide_round_up(first_row + rows, kBlockSize) - first};
}
}  // namespace

JpegIdctFilter::JpegIdctFilter(const OpenClContext& cl, MemoryMode mode) : cl_(cl), mode_(mode)
{
    program_ = build_program(cl_, "jpeg_idct.cl", "");
    while_doing("creating the JPEG IDCT kernel",
                [&] { kernel_ = create_kernel(program_, "jpeg_idct_luminance"); });
    quantisation_ = create_image_buffer(cl_, mode_, CL_MEM_READ_ONLY, 64 * sizeof(std::uint16_t),
                                        "the JPEG's quantisation table");
}

RowFootprint JpegIdctFilter::row_footprint(std::size_t width)
{
    // A row of blocks is 8 luminance rows; its coefficients are 16-bit. A band's rows starting
    // on a block's last row and ending on a block's first lie in blocks of 14 rows more.
    const std::uint64_t coefficients = divide_round_up(width, kBlockSize) * 64 / kBlockSize;
    return {coefficients * sizeof(std::int16_t), coefficients, 2 * (kBlockSize - 1)};
}

std::size_t JpegIdctFilter::coefficient_bytes(const JpegLuminanceCoefficients& plane,
                                              std::size_t first_row, std::size_t rows)
{
    return block_rows_of(first_row, rows).count * plane.blocks_wide * kBlockBytes;
}

void JpegIdctFilter::upload(const JpegLuminanceCoefficients& plane, std::size_t first_row,
                            std::size_t rows)
{
    const std::size_t first_block_row = block_rows_of(first_row, rows).first;
    const std::size_t bytes = coefficient_bytes(plane, first_row, rows);
    check_kernel_can_address(cl_, bytes / sizeof(std::int16_t), bytes,
                             "the coefficients of a JPEG of " + std::to_string(plane.width) + "x" +
                                 std::to_string(plane.height));
    if (bytes > blocks_bytes_) {
        blocks_ =
            create_image_buffer(cl_, mode_, CL_MEM_READ_ONLY, bytes, "the JPEG's coefficients");
        blocks_bytes_ = bytes;
    }
    upload_bytes(cl_, mode_, blocks_,
                 plane.coefficients.data() + first_block_row * plane.blocks_wide * 64, bytes,
                 "the JPEG's coefficients");
    upload_bytes(cl_, mode_, quantisation_, plane.quantisation.data(), 64 * sizeof(std::uint16_t),
                 "the JPEG's quantisation table");
    blocks_wide_ = plane.blocks_wide;
    width_ = plane.width;
    first_row_ = first_row;
    rows_ = rows;
}

cl::Event JpegIdctFilter::run(std::size_t row_pitch, const cl::Buffer& luminance)
{
    cl::Event event;
    while_doing("running the JPEG IDCT", [&] {
        set_args(kernel_, blocks_, quantisation_, static_cast<cl_int>(blocks_wide_),
                 static_cast<cl_int>(width_), static_cast<cl_int>(first_row_),
                 static_cast<cl_int>(rows_), luminance, static_cast<cl_int>(row_pitch));
        // One work-item per block of the band's block rows, across the whole pitch: those past
        // the image's blocks write the padding's zeros.
        const LaunchSize launch =
            launch_size_2d(kernel_, cl_.device, divide_round_up(row_pitch, kBlockSize),
                           block_rows_of(first_row_, rows_).count);
        cl_.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, launch.global, launch.local, nullptr,
                                       &event);
        cl_.record(kernel_, event);
    });
    return event;
}

}  // namespace sdk
