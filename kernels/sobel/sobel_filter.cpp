// SPDX-License-Identifier: Apache-2.0
#include "kernels/sobel/sobel_filter.hpp"
#include "kernels/image_views.hpp"
#include "kernels/luminance_buffer.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/kernel_args.hpp"
#include "common/runtime/transfers.hpp"
#include "common/runtime/program.hpp"

#include <climits>
#include <stdexcept>

namespace sdk {

const std::vector<SobelVariantTraits>& sobel_variants()
{
    static const std::vector<SobelVariantTraits> table{
        // variant                   name           program file           kernel name       outputs
        // reads from
        {SobelVariant::no_vectors, "no_vectors", "sobel_no_vectors.cl", "sobel_no_vectors", 1, 1,
         "buffer"},
        {SobelVariant::vector_16x1, "16x1", "sobel_16x1.cl", "sobel_16x1", 16, 1, "buffer"},
        {SobelVariant::vector_16x4, "16x4", "sobel_16x4.cl", "sobel_16x4", 16, 4, "buffer"},
        {SobelVariant::packed_16x4, "16x4-packed", "sobel_16x4_packed.cl", "sobel_16x4_packed", 16,
         4, "buffer"},
        {SobelVariant::local_tile, "local", "sobel_local.cl", "sobel_local", 16, 1, "local memory"},
        {SobelVariant::image, "image", "sobel_image.cl", "sobel_image", 1, 1, "image"},
    };
    return table;
}

const SobelVariantTraits& traits_of(SobelVariant variant)
{
    // The table lists the variants in the enum's order.
    return sobel_variants().at(static_cast<std::size_t>(variant));
}

std::string variant_name(SobelVariant variant)
{
    return traits_of(variant).name;
}

std::optional<SobelVariant> find_sobel_variant(const std::string& name)
{
    for (const SobelVariantTraits& traits : sobel_variants())
        if (traits.name == name) return traits.variant;
    return std::nullopt;
}

SobelVariant sobel_variant_named(const std::string& name)
{
    if (const auto variant = find_sobel_variant(name)) return *variant;
    throw std::invalid_argument("no Sobel variant called '" + name + "'");
}

std::string sobel_variant_unavailable(const OpenClContext& cl, SobelVariant variant,
                                      std::size_t width, std::size_t height)
{
    if (variant != SobelVariant::image) return "";
    return luminance_image_unavailable(cl, width, height);
}

SobelVariant runnable_sobel_variant(const OpenClContext& cl, const std::string& name,
                                    std::size_t width, std::size_t height, std::string& note)
{
    const SobelVariant variant = sobel_variant_named(name);
    const std::string unavailable = sobel_variant_unavailable(cl, variant, width, height);
    if (unavailable.empty()) return variant;
    note = unavailable + ": variant " + name + " runs as 16x4";
    return SobelVariant::vector_16x4;
}

namespace {

// Local memory for the local variant's tile: a group of x by y work-items covers 16x by y
// outputs, plus the 1-pixel halo all round (kernels/sobel/sobel_local.cl).
std::size_t local_tile_bytes(std::size_t group_x, std::size_t group_y)
{
    return (16 * group_x + 2) * (group_y + 2);
}

}  // namespace

SobelFilter::SobelFilter(const OpenClContext& cl, SobelVariant variant, Border border,
                         MemoryMode memory)
    : cl_(cl),
      variant_(variant),
      memory_(memory == MemoryMode::automatic ? MemoryMode::copy : memory)
{
    if (variant == SobelVariant::packed_16x4 && !cl_.device.getInfo<CL_DEVICE_ENDIAN_LITTLE>())
        throw std::runtime_error(
            "the 16x4-packed kernel reads pixels as little-endian words; "
            "this device is big-endian: use --variant 16x4");
    const std::string unavailable = sobel_variant_unavailable(cl_, variant, 0, 0);
    if (!unavailable.empty())
        throw std::runtime_error("the " + variant_name(variant) + " Sobel variant: " + unavailable);
    const SobelVariantTraits& traits = traits_of(variant);
    program_ = build_program(cl_, traits.program_file, border_build_option(border));
    while_doing(std::string("creating kernel ") + traits.kernel_name, [&] {
        kernel_ = create_kernel(program_, traits.kernel_name);
        magnitude_kernel_ = create_kernel(program_, "sobel_magnitude");
        if (variant == SobelVariant::image)
            image_copy_kernel_ = create_kernel(program_, "luminance_to_image");
    });
    fit_work_group(32, 8);
}

WorkGroupShape SobelFilter::fit_work_group(std::size_t x, std::size_t y)
{
    const std::uint64_t local_memory = device_limits(cl_.device).local_memory_bytes;
    const WorkGroupShape shape =
        sdk::fit_work_group(kernel_, cl_.device, {x, y}, [&](WorkGroupShape s) {
            return variant_ != SobelVariant::local_tile ||
                   local_tile_bytes(s.x, s.y) <= local_memory;
        });
    set_work_group(shape.x, shape.y);
    return shape;
}

void SobelFilter::set_work_group(std::size_t x, std::size_t y)
{
    check_work_group(kernel_, cl_.device, x, y, traits_of(variant_).kernel_name);
    if (variant_ == SobelVariant::local_tile)
        check_local_memory(cl_.device, x, y, local_tile_bytes(x, y));
    work_group_x_ = x;
    work_group_y_ = y;
    if (width_ > 0) size_launch();
}

void SobelFilter::size_launch()
{
    // [Work size]
    // One work-item per tile of outputs; the edge blocks of the image are partial tiles.
    const SobelVariantTraits& traits = traits_of(variant_);
    launch_ =
        launch_size_2d(kernel_, cl_.device, divide_round_up(width_, traits.outputs_x),
                       divide_round_up(height_, traits.outputs_y), work_group_x_, work_group_y_);
    // [Work size]
    bind_arguments();
}

void SobelFilter::bind_arguments()
{
    const auto w = static_cast<cl_int>(width_);
    const auto h = static_cast<cl_int>(height_);
    const auto pitch = static_cast<cl_int>(row_pitch_);
    while_doing("setting the Sobel kernel's arguments", [&] {
        if (variant_ == SobelVariant::image) {
            set_args(kernel_, luminance_image_, w, h, pitch, gradient_x_, gradient_y_);
        } else if (variant_ == SobelVariant::local_tile) {
            // The tile for the shape that really runs (launch_size_2d may shrink the one asked
            // for).
            const std::size_t tile_bytes = local_tile_bytes(launch_.local[0], launch_.local[1]);
            set_args(kernel_, luminance_, w, h, pitch, gradient_x_, gradient_y_,
                     cl::Local(tile_bytes));
        } else {
            set_args(kernel_, luminance_, w, h, pitch, gradient_x_, gradient_y_);
        }
    });
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
    // Read-write: the conversion kernels (convert.cl) write it from the file's rows, Sobel reads
    // it.
    luminance_ = create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, bytes, "the luminance");
    gradient_x_ = create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, bytes, "dX");
    gradient_y_ = create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, bytes, "dY");
    magnitude_ = cl::Buffer();  // sized for the previous image, if any
    if (variant_ == SobelVariant::image) {
        const std::string unavailable = sobel_variant_unavailable(cl_, variant_, width_, height_);
        if (!unavailable.empty())
            throw std::runtime_error("the image Sobel variant on an image of " + size + ": " +
                                     unavailable);
        while_doing("creating the luminance image", [&] {
            luminance_image_ = image_view_of(cl_, luminance_, width_, height_, row_pitch_);
            image_is_view_ = luminance_image_() != nullptr;
            if (!image_is_view_) {
                luminance_image_ =
                    cl::Image2D(cl_.context, CL_MEM_READ_WRITE,
                                cl::ImageFormat(CL_R, CL_UNSIGNED_INT8), width_, height_);
                set_args(image_copy_kernel_, luminance_, static_cast<cl_int>(width_),
                         static_cast<cl_int>(height_), static_cast<cl_int>(row_pitch_),
                         luminance_image_);
            }
        });
    }
    size_launch();  // and binds the arguments
}

void SobelFilter::fill_outputs(std::uint8_t value)
{
    // Written from the host rather than with clEnqueueFillBuffer: under oclgrind a filled
    // buffer's later contents are reported as uninitialised when another kernel reads them.
    const std::vector<std::uint8_t> poison(row_pitch_ * height_, value);
    while_doing("filling the gradient buffers", [&] {
        cl_.queue.enqueueWriteBuffer(gradient_x_, CL_TRUE, 0, poison.size(), poison.data());
        cl_.queue.enqueueWriteBuffer(gradient_y_, CL_TRUE, 0, poison.size(), poison.data());
    });
}

cl::Event SobelFilter::run()
{
    if (variant_ == SobelVariant::image && !image_is_view_) {
        // The conversions (and the tuner) write the luminance buffer; the image is its copy.
        while_doing("running kernel luminance_to_image", [&] {
            const LaunchSize copy = launch_size_2d(image_copy_kernel_, cl_.device, width_, height_);
            cl_.queue.enqueueNDRangeKernel(image_copy_kernel_, cl::NullRange, copy.global,
                                           copy.local, nullptr, &last_copy_);
            cl_.record(image_copy_kernel_, last_copy_);
        });
    }
    cl::Event event;
    while_doing(std::string("running kernel ") + traits_of(variant_).kernel_name, [&] {
        cl_.queue.enqueueNDRangeKernel(kernel_, cl::NullRange, launch_.global, launch_.local,
                                       nullptr, &event);
        cl_.record(kernel_, event);
    });
    return event;
}

cl::Event SobelFilter::run_magnitude()
{
    cl::Event event;
    while_doing("running kernel sobel_magnitude", [&] {
        if (!magnitude_()) {
            // Read by the device (a conversion for the output file) as well as downloaded.
            magnitude_ = create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, row_pitch_ * height_,
                                             "the magnitude");
            set_args(magnitude_kernel_, gradient_x_, gradient_y_, static_cast<cl_int>(width_),
                     static_cast<cl_int>(height_), static_cast<cl_int>(row_pitch_), magnitude_);
        }
        // 16 pixels per work-item (sobel_magnitude.cl).
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
    download_rows(cl_, memory_, gradient_x_, gradients.dx.data(), width_, height_, row_pitch_,
                  "dX");
    download_rows(cl_, memory_, gradient_y_, gradients.dy.data(), width_, height_, row_pitch_,
                  "dY");
    return gradients;
}

Image SobelFilter::download_luminance()
{
    return sdk::download_luminance(cl_, memory_, luminance_, width_, height_, row_pitch_);
}

std::vector<std::uint8_t> SobelFilter::download_magnitude()
{
    std::vector<std::uint8_t> magnitude(pixel_count());
    download_rows(cl_, memory_, magnitude_, magnitude.data(), width_, height_, row_pitch_,
                  "the magnitude");
    return magnitude;
}

}  // namespace sdk
