#include "kernels/sobel/sobel_filter.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/kernel_args.hpp"
#include "common/runtime/transfers.hpp"
#include "common/runtime/program.hpp"

#include <climits>
#include <stdexcept>

namespace sdk {

std::string variant_name(SobelVariant variant)
{
    switch (variant) {
    case SobelVariant::no_vectors: return "no_vectors";
    case SobelVariant::vector_16x1: return "16x1";
    case SobelVariant::vector_16x4: return "16x4";
    case SobelVariant::packed_16x4: return "16x4-packed";
    }
    return "unknown";
}

SobelVariant sobel_variant_named(const std::string& name)
{
    for (const auto variant : {SobelVariant::no_vectors, SobelVariant::vector_16x1,
                               SobelVariant::vector_16x4, SobelVariant::packed_16x4})
        if (variant_name(variant) == name) return variant;
    throw std::invalid_argument("no Sobel variant called '" + name + "'");
}

namespace {

// Outputs per work-item along x and y: the work size is the image size divided by these.
struct Tile {
    std::size_t width;
    std::size_t height;
};

Tile tile_of(SobelVariant variant)
{
    switch (variant) {
    case SobelVariant::no_vectors: return {1, 1};
    case SobelVariant::vector_16x1: return {16, 1};
    case SobelVariant::vector_16x4:
    case SobelVariant::packed_16x4: return {16, 4};
    }
    return {1, 1};
}

const char* kernel_name(SobelVariant variant)
{
    switch (variant) {
    case SobelVariant::no_vectors: return "sobel_no_vectors";
    case SobelVariant::vector_16x1: return "sobel_16x1";
    case SobelVariant::vector_16x4: return "sobel_16x4";
    case SobelVariant::packed_16x4: return "sobel_16x4_packed";
    }
    return "";
}

}  // namespace

SobelFilter::SobelFilter(const OpenClContext& cl, SobelVariant variant, Border border,
                         MemoryMode memory)
    : cl_(cl), variant_(variant), memory_(memory == MemoryMode::automatic ? MemoryMode::copy : memory)
{
    const bool vectorised = variant != SobelVariant::no_vectors;
    if (variant == SobelVariant::packed_16x4 && !cl_.device.getInfo<CL_DEVICE_ENDIAN_LITTLE>())
        throw std::runtime_error("the 16x4-packed kernel reads pixels as little-endian words; "
                                 "this device is big-endian: use --variant 16x4");
    program_ = build_program(cl_, vectorised ? "sobel.cl" : "sobel_no_vectors.cl",
                             border_build_option(border));
    while_doing(std::string("creating kernel ") + kernel_name(variant), [&] {
        kernel_ = create_kernel(program_, kernel_name(variant));
        if (vectorised) magnitude_kernel_ = create_kernel(program_, "sobel_magnitude");
    });
}

void SobelFilter::set_work_group(std::size_t x, std::size_t y)
{
    check_work_group(kernel_, cl_.device, x, y, kernel_name(variant_));
    work_group_x_ = x;
    work_group_y_ = y;
    if (width_ > 0) size_launch();
}

void SobelFilter::size_launch()
{
    // [Work size]
    // One work-item per tile of outputs; the edge blocks of the image are partial tiles.
    const Tile tile = tile_of(variant_);
    launch_ = launch_size_2d(kernel_, cl_.device, divide_round_up(width_, tile.width),
                             divide_round_up(height_, tile.height), work_group_x_,
                             work_group_y_);
    // [Work size]
}

void SobelFilter::upload(const Image& luminance)
{
    if (luminance.channels != 1)
        throw std::invalid_argument("the Sobel filter takes an 8-bit luminance image");
    allocate(luminance.width, luminance.height);
    upload_rows(cl_, memory_, luminance_, luminance.pixels.data(), width_, height_, row_pitch_,
                "the luminance");
}

RowFootprint SobelFilter::row_footprint(std::size_t width)
{
    return {pitch_for(width), pitch_for(width)};
}

void SobelFilter::allocate(std::size_t width, std::size_t height)
{
    width_ = width;
    height_ = height;
    row_pitch_ = pitch_for(width_);
    const std::string size = std::to_string(width_) + "x" + std::to_string(height_);
    const std::uint64_t buffer_bytes = std::uint64_t{row_pitch_} * height_;
    check_kernel_can_address(cl_, buffer_bytes, buffer_bytes, "an image of " + size);

    const std::size_t bytes = static_cast<std::size_t>(buffer_bytes);
    // Read-write: the conversion kernels (convert.cl) write it from the file's rows, Sobel reads it.
    luminance_ = create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, bytes, "the luminance");
    gradient_x_ = create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, bytes, "dX");
    gradient_y_ = create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, bytes, "dY");
    magnitude_ = cl::Buffer();  // sized for the previous image, if any
    size_launch();

    while_doing("setting the Sobel kernel's arguments", [&] {
        set_args(kernel_, luminance_, static_cast<cl_int>(width_), static_cast<cl_int>(height_),
                 static_cast<cl_int>(row_pitch_), gradient_x_, gradient_y_);
    });
}

void SobelFilter::fill_outputs(std::uint8_t value)
{
    // Written from the host rather than with clEnqueueFillBuffer: under oclgrind 21.10 a filled
    // buffer's later contents are reported as uninitialised when another kernel reads them.
    const std::vector<std::uint8_t> poison(row_pitch_ * height_, value);
    while_doing("filling the gradient buffers", [&] {
        cl_.queue.enqueueWriteBuffer(gradient_x_, CL_TRUE, 0, poison.size(), poison.data());
        cl_.queue.enqueueWriteBuffer(gradient_y_, CL_TRUE, 0, poison.size(), poison.data());
    });
}

cl::Event SobelFilter::run()
{
    cl::Event event;
    while_doing(std::string("running kernel ") + kernel_name(variant_), [&] {
        cl_.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, launch_.global, launch_.local,
                                       nullptr, &event);
        cl_.record(kernel_, event);
    });
    return event;
}

cl::Event SobelFilter::run_magnitude()
{
    if (variant_ == SobelVariant::no_vectors)
        throw std::logic_error("the magnitude kernel is part of the vectorised sample");
    cl::Event event;
    while_doing("running kernel sobel_magnitude", [&] {
        if (!magnitude_()) {
            // Read by the device (a conversion for the output file) as well as downloaded.
            magnitude_ = create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, row_pitch_ * height_,
                                             "the magnitude");
            set_args(magnitude_kernel_, gradient_x_, gradient_y_, static_cast<cl_int>(width_),
                     static_cast<cl_int>(height_), static_cast<cl_int>(row_pitch_), magnitude_);
        }
        // 16 pixels per work-item (sobel.cl).
        const LaunchSize launch =
            launch_size_2d(magnitude_kernel_, cl_.device, divide_round_up(width_, 16), height_);
        cl_.queue.enqueueNDRangeKernel(magnitude_kernel_, cl::NullRange, launch.global,
                                       launch.local, nullptr, &event);
        cl_.record(magnitude_kernel_, event);
    });
    return event;
}

SobelGradients SobelFilter::download()
{
    SobelGradients gradients{std::vector<std::int8_t>(pixel_count()),
                             std::vector<std::int8_t>(pixel_count())};
    download_rows(cl_, memory_, gradient_x_, gradients.dx.data(), width_, height_, row_pitch_, "dX");
    download_rows(cl_, memory_, gradient_y_, gradients.dy.data(), width_, height_, row_pitch_, "dY");
    return gradients;
}

Image SobelFilter::download_luminance()
{
    Image luminance{width_, height_, 1, std::vector<std::uint8_t>(pixel_count())};
    download_rows(cl_, memory_, luminance_, luminance.pixels.data(), width_, height_, row_pitch_,
                  "the luminance");
    return luminance;
}

std::vector<std::uint8_t> SobelFilter::download_magnitude()
{
    std::vector<std::uint8_t> magnitude(pixel_count());
    download_rows(cl_, memory_, magnitude_, magnitude.data(), width_, height_, row_pitch_,
                  "the magnitude");
    return magnitude;
}

}  // namespace sdk
