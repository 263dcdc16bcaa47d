#include "sobel_filter.hpp"

#include "../cl_error.hpp"
#include "../program.hpp"

#include <climits>
#include <stdexcept>

namespace sdk {

std::string variant_name(SobelVariant variant)
{
    switch (variant) {
    case SobelVariant::no_vectors: return "no_vectors";
    case SobelVariant::vector_16x1: return "16x1";
    case SobelVariant::vector_16x4: return "16x4";
    }
    return "unknown";
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
    case SobelVariant::vector_16x4: return {16, 4};
    }
    return {1, 1};
}

const char* kernel_name(SobelVariant variant)
{
    switch (variant) {
    case SobelVariant::no_vectors: return "sobel_no_vectors";
    case SobelVariant::vector_16x1: return "sobel_16x1";
    case SobelVariant::vector_16x4: return "sobel_16x4";
    }
    return "";
}

}  // namespace

SobelFilter::SobelFilter(const OpenClContext& cl, SobelVariant variant, Border border)
    : cl_(cl), variant_(variant)
{
    const bool vectorised = variant != SobelVariant::no_vectors;
    program_ = build_program(
        cl_, {"border.cl", "sobel_pixel.cl", vectorised ? "sobel.cl" : "sobel_no_vectors.cl"},
        border_build_option(border));
    while_doing(std::string("creating kernel ") + kernel_name(variant), [&] {
        kernel_ = cl::Kernel(program_, kernel_name(variant));
        if (vectorised) magnitude_kernel_ = cl::Kernel(program_, "sobel_magnitude");
    });
}

cl::Event SobelFilter::upload(const Image& luminance)
{
    if (luminance.channels != 1)
        throw std::invalid_argument("the Sobel filter takes an 8-bit luminance image");
    // Kernels index with 32-bit ints, the fast type on every GPU; refuse what they cannot address.
    if (luminance.width * luminance.height > static_cast<std::size_t>(INT_MAX))
        throw std::runtime_error("image of " + std::to_string(luminance.width) + "x" +
                                 std::to_string(luminance.height) +
                                 " pixels is too large: the kernels address at most 2^31-1 pixels");
    check_fits_device(cl_, luminance.pixels.size(),
                      "an image of " + std::to_string(luminance.width) + "x" +
                          std::to_string(luminance.height));
    width_ = luminance.width;
    height_ = luminance.height;
    const std::size_t bytes = luminance.pixels.size();

    cl::Event event;
    while_doing("creating buffers and uploading the image", [&] {
        luminance_ = cl::Buffer(cl_.context, CL_MEM_READ_ONLY, bytes);
        gradient_x_ = cl::Buffer(cl_.context, CL_MEM_READ_WRITE, bytes);
        gradient_y_ = cl::Buffer(cl_.context, CL_MEM_READ_WRITE, bytes);
        cl_.queue.enqueueWriteBuffer(luminance_, CL_FALSE, 0, bytes, luminance.pixels.data(),
                                     nullptr, &event);
    });

    // [Work size]
    // One work-item per tile of outputs; the edge blocks of the image are partial tiles.
    const Tile tile = tile_of(variant_);
    launch_ = launch_size_2d(kernel_, cl_.device, divide_round_up(width_, tile.width),
                             divide_round_up(height_, tile.height));
    // [Work size]

    while_doing("setting the Sobel kernel's arguments", [&] {
        kernel_.setArg(0, luminance_);
        kernel_.setArg(1, static_cast<cl_int>(width_));
        kernel_.setArg(2, static_cast<cl_int>(height_));
        kernel_.setArg(3, gradient_x_);
        kernel_.setArg(4, gradient_y_);
    });
    return event;
}

void SobelFilter::fill_outputs(std::uint8_t value)
{
    while_doing("filling the gradient buffers", [&] {
        const cl_uchar pattern = value;
        cl_.queue.enqueueFillBuffer(gradient_x_, pattern, 0, pixel_count());
        cl_.queue.enqueueFillBuffer(gradient_y_, pattern, 0, pixel_count());
    });
}

cl::Event SobelFilter::run()
{
    cl::Event event;
    while_doing(std::string("running kernel ") + kernel_name(variant_), [&] {
        cl_.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, launch_.global, launch_.local,
                                       nullptr, &event);
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
            magnitude_ = cl::Buffer(cl_.context, CL_MEM_WRITE_ONLY, pixel_count());
            magnitude_kernel_.setArg(0, gradient_x_);
            magnitude_kernel_.setArg(1, gradient_y_);
            magnitude_kernel_.setArg(2, static_cast<cl_int>(pixel_count()));
            magnitude_kernel_.setArg(3, magnitude_);
        }
        const LaunchSize launch = launch_size_1d(magnitude_kernel_, cl_.device, pixel_count());
        cl_.queue.enqueueNDRangeKernel(magnitude_kernel_, cl::NullRange, launch.global,
                                       launch.local, nullptr, &event);
    });
    return event;
}

SobelGradients SobelFilter::download(cl::Event* event)
{
    SobelGradients gradients{std::vector<std::int8_t>(pixel_count()),
                             std::vector<std::int8_t>(pixel_count())};
    while_doing("reading the gradients back", [&] {
        cl_.queue.enqueueReadBuffer(gradient_x_, CL_FALSE, 0, pixel_count(), gradients.dx.data());
        cl_.queue.enqueueReadBuffer(gradient_y_, CL_TRUE, 0, pixel_count(), gradients.dy.data(),
                                    nullptr, event);
    });
    return gradients;
}

std::vector<std::uint8_t> SobelFilter::download_magnitude(cl::Event* event)
{
    std::vector<std::uint8_t> magnitude(pixel_count());
    while_doing("reading the magnitude back", [&] {
        cl_.queue.enqueueReadBuffer(magnitude_, CL_TRUE, 0, pixel_count(), magnitude.data(),
                                    nullptr, event);
    });
    return magnitude;
}

}  // namespace sdk
