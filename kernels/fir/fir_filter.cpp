#include "kernels/fir/fir_filter.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/kernel_args.hpp"
#include "common/runtime/transfers.hpp"
#include "common/runtime/program.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace sdk {

namespace {

// Outputs per work-item along a row: one float4.
constexpr std::size_t kOutputsPerItem = 4;

}  // namespace

FirFilter::FirFilter(const OpenClContext& cl, Border border, const FirCoefficients& coefficients,
                     MemoryMode memory)
    : cl_(cl),
      memory_(memory == MemoryMode::automatic ? MemoryMode::copy : memory),
      size_(coefficients.size),
      kernel_name_(size_ == 3 ? "fir_float" : "fir_float_kxk")
{
    check_fir_size(size_);
    program_ = build_program(cl_, "fir_float.cl", fir_build_options(border, size_));
    while_doing("creating kernel " + kernel_name_,
                [&] { kernel_ = create_kernel(program_, kernel_name_); });
    set_coefficients(coefficients);
}

std::string fir_build_options(Border border, int size)
{
    return border_build_option(border) + " -DRADIUS=" + std::to_string(size / 2);
}

void FirFilter::set_coefficients(const FirCoefficients& coefficients)
{
    if (coefficients.size != size_)
        throw std::invalid_argument("FirFilter::set_coefficients: " +
                                    std::to_string(coefficients.size) + "x" +
                                    std::to_string(coefficients.size) +
                                    " weights for a filter built for " + std::to_string(size_) +
                                    "x" + std::to_string(size_));
    // [Weights]
    // Rounded to float once here. 3x3: one float4 per window row (.s3 unused); larger windows:
    // all K*K in one small buffer the kernel reads as __constant.
    const std::vector<float> weights = coefficients.float_weights();
    if (size_ == 3) {
        for (std::size_t r = 0; r < weight_rows_.size(); ++r)
            weight_rows_[r] =
                cl_float4{{weights[3 * r], weights[3 * r + 1], weights[3 * r + 2], 0.0f}};
    } else {
        const std::size_t bytes = weights.size() * sizeof(cl_float);
        weights_ = create_image_buffer(cl_, MemoryMode::copy, CL_MEM_READ_ONLY, bytes, "the weights");
        upload_bytes(cl_, MemoryMode::copy, weights_, weights.data(), bytes, "the weights");
    }
    // [Weights]
    // Before the first upload there is nothing else to bind: upload binds everything.
    if (output_()) bind_arguments();
}

void FirFilter::bind_arguments()
{
    // [Arguments]
    // In the order of fir_float's signature (kernels/fir/fir_float.cl), written once here.
    const auto width = static_cast<cl_int>(width_);
    const auto height = static_cast<cl_int>(height_);
    const auto pitch = static_cast<cl_int>(row_pitch_bytes_ / sizeof(cl_float));
    while_doing("setting the FIR kernel's arguments", [&] {
        if (size_ == 3)
            set_args(kernel_, luminance_, width, height, pitch, weight_rows_[0], weight_rows_[1],
                     weight_rows_[2], output_);
        else
            set_args(kernel_, luminance_, width, height, pitch, weights_, output_);
    });
    // [Arguments]
}

RowFootprint FirFilter::row_footprint(std::size_t width)
{
    const std::size_t row_pitch_bytes = pitch_for(width * sizeof(cl_float));
    return {row_pitch_bytes, row_pitch_bytes / sizeof(cl_float)};
}

void FirFilter::allocate(std::size_t width, std::size_t height)
{
    // Kernels index with 32-bit ints, the fast type on every GPU; refuse what they cannot address.
    // Device rows are padded to 64 bytes, as Sobel's are, so that each work-item's float4 is an
    // aligned load; the padded rows are what the kernel indexes.
    const std::size_t row_bytes = width * sizeof(cl_float);
    const std::size_t row_pitch_bytes = pitch_for(row_bytes);
    if (row_pitch_bytes / sizeof(cl_float) * height > static_cast<std::size_t>(INT_MAX))
        throw std::runtime_error("image of " + std::to_string(width) + "x" +
                                 std::to_string(height) +
                                 " pixels is too large: the kernels address at most 2^31-1 pixels");
    row_pitch_bytes_ = row_pitch_bytes;
    const std::size_t bytes = row_pitch_bytes_ * height;
    check_fits_device(cl_, bytes,
                      "an image of " + std::to_string(width) + "x" + std::to_string(height) +
                          " floats");
    width_ = width;
    height_ = height;
    luminance_ = create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, bytes, "the luminance");
    output_ = create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, bytes, "the output");

    size_launch();
    bind_arguments();
}

void FirFilter::set_work_group(std::size_t x, std::size_t y)
{
    check_work_group(kernel_, cl_.device, x, y, kernel_name_);
    work_group_x_ = x;
    work_group_y_ = y;
    if (width_ > 0) size_launch();
}

void FirFilter::size_launch()
{
    // [Work size]
    // One work-item per 4 outputs of a row; the last of each row may be a partial group.
    launch_ = launch_size_2d(kernel_, cl_.device, divide_round_up(width_, kOutputsPerItem),
                             height_, work_group_x_, work_group_y_);
    // [Work size]
}

namespace {

// Bytes [offset, offset + size) of the device's float rows (`row_pitch` bytes apart) for the
// 8-bit `luminance`: each pixel as a float, the padding after each row as zeros. Transfers cut
// buffers at multiples of 4 bytes, so a piece never splits a float.
void write_float_rows(const Image& luminance, std::size_t row_pitch, std::size_t offset,
                      std::size_t size, unsigned char* piece)
{
    if (offset % sizeof(cl_float) != 0 || size % sizeof(cl_float) != 0)
        throw std::logic_error("FirFilter::upload: a transfer piece splits a float");
    for (std::size_t done = 0; done < size;) {
        const std::size_t y = (offset + done) / row_pitch;
        const std::size_t x = (offset + done) % row_pitch / sizeof(cl_float);
        const std::size_t count = std::min((row_pitch - x * sizeof(cl_float)), size - done) /
                                  sizeof(cl_float);
        const std::uint8_t* row = luminance.pixels.data() + y * luminance.width;
        for (std::size_t i = 0; i < count; ++i) {
            const cl_float value = x + i < luminance.width ? cl_float(row[x + i]) : 0.0f;
            std::memcpy(piece + done + i * sizeof(cl_float), &value, sizeof value);
        }
        done += count * sizeof(cl_float);
    }
}

}  // namespace

void FirFilter::upload(const Image& luminance)
{
    if (luminance.channels != 1)
        throw std::invalid_argument("the FIR filter takes an 8-bit luminance image");
    allocate(luminance.width, luminance.height);

    // [Upload floats]
    // Converted to float here, not on the device: the kernel then is the tutorial's float
    // technique and nothing else, and its float input is what a chain of float filters passes
    // between stages. The price is four bytes uploaded per pixel instead of one (the sample
    // instead uploads the file's bytes and converts on the device: common/app/device_io.hpp).
    // The floats are written straight into the memory the transfer moves (the mapped buffer, or
    // one pinned chunk at a time), so the host never holds a float copy of the whole image.
    const std::size_t row_pitch = row_pitch_bytes_;
    upload_produced(cl_, memory_, luminance_, row_pitch * height_,
                    [&](unsigned char* host, std::size_t offset, std::size_t size) {
                        write_float_rows(luminance, row_pitch, offset, size, host);
                    },
                    "the luminance");
    // [Upload floats]
}

Image FirFilter::download_luminance()
{
    std::vector<float> values(pixel_count());
    download_rows(cl_, memory_, luminance_, values.data(), width_ * sizeof(cl_float), height_,
                  row_pitch_bytes_, "the luminance");
    // The floats are the 8-bit values exactly (0..255 convert without rounding).
    Image luminance{width_, height_, 1, std::vector<std::uint8_t>(values.size())};
    for (std::size_t i = 0; i < values.size(); ++i)
        luminance.pixels[i] = static_cast<std::uint8_t>(values[i]);
    return luminance;
}

void FirFilter::fill_output(float value)
{
    while_doing("filling the output buffer", [&] {
        const cl_float pattern = value;
        cl_.queue.enqueueFillBuffer(output_, pattern, 0, row_pitch_bytes_ * height_);
    });
}

cl::Event FirFilter::run()
{
    cl::Event event;
    while_doing("running kernel " + kernel_name_, [&] {
        cl_.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, launch_.global, launch_.local,
                                       nullptr, &event);
        cl_.record(kernel_, event);
    });
    return event;
}

std::vector<float> FirFilter::download()
{
    std::vector<float> output(pixel_count());
    const std::size_t row_bytes = width_ * sizeof(cl_float);
    download_rows(cl_, memory_, output_, output.data(), row_bytes, height_, row_pitch_bytes_,
                  "the output");
    return output;
}

}  // namespace sdk
