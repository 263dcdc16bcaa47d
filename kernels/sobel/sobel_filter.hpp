// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/border.hpp"
#include "common/runtime/bands.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/transfers.hpp"
#include "common/imageio/image.hpp"
#include "kernels/sobel/sobel_reference.hpp"
#include "common/runtime/work_size.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sdk {

// The Sobel kernels of the samples, from naive to data reuse, and then by where the pixels are
// read from: a buffer (all of the above), a tile in local memory, or an image through a sampler.
enum class SobelVariant {
    no_vectors,   // kernels/sobel/sobel_no_vectors.cl: one pixel per work-item
    vector_16x1,  // kernels/sobel/sobel_16x1.cl: 16 outputs along a row per work-item
    vector_16x4,  // kernels/sobel/sobel_16x4.cl: 16x4 outputs, input rows reused
    packed_16x4,  // kernels/sobel/sobel_16x4_packed.cl: 16x4, two 16-bit lanes per 32-bit word
    local_tile,   // kernels/sobel/sobel_local.cl: the group's tile and halo in local memory, 16x1
    image,        // kernels/sobel/sobel_image.cl: image2d_t + sampler, one pixel per work-item
};

// Everything that tells one variant from another, as one row of one table (sobel_filter.cpp),
// the way OpenCV and the Arm Compute Library keep one table of build options per kernel: the
// host code asks the table instead of switching on the variant.
struct SobelVariantTraits {
    SobelVariant variant;
    const char* name;          // as --variant and the tuning cache spell it
    const char* program_file;  // in kernels/sobel/, built with the border's -D option
    const char* kernel_name;
    std::size_t outputs_x;   // outputs per work-item along x and y: the work size is the
    std::size_t outputs_y;   //   image's size divided by these, rounded up
    const char* reads_from;  // "buffer", "local memory" or "image": what the verdict compares
};
// Every variant, in the enum's order.
const std::vector<SobelVariantTraits>& sobel_variants();
const SobelVariantTraits& traits_of(SobelVariant variant);

std::string variant_name(SobelVariant variant);
// The variant called `name` ("no_vectors", "16x1", "16x4", "16x4-packed", "local", "image"):
// find_sobel_variant gives nothing for any other name, sobel_variant_named throws.
std::optional<SobelVariant> find_sobel_variant(const std::string& name);
SobelVariant sobel_variant_named(const std::string& name);

// Why `variant` cannot run on this device for a `width` x `height` image, or "" when it can.
// Only the image variant has such limits: image support, the one-channel 8-bit format, the
// largest image. Samples then run the buffer variant 16x4 instead, with a note.
std::string sobel_variant_unavailable(const OpenClContext& cl, SobelVariant variant,
                                      std::size_t width, std::size_t height);

// The variant called `name` (as sobel_variant_named), or 16x4 where it cannot run on this device
// for a `width` x `height` image, `note` then saying why in one line.
SobelVariant runnable_sobel_variant(const OpenClContext& cl, const std::string& name,
                                    std::size_t width, std::size_t height, std::string& note);

// Runs one Sobel kernel on the device: build once, then upload an image, run, read back.
// The host side of the technique; the sample's main.cpp tells the story around it.
class SobelFilter {
public:
    // `memory` is how images cross to the device: map, pinned or copy
    // (common/runtime/transfers.hpp; resolve automatic with choose_memory_mode first).
    SobelFilter(const OpenClContext& cl, SobelVariant variant, Border border,
                MemoryMode memory = MemoryMode::copy);

    // Allocates device buffers for this image size and puts the luminance in them; returns when
    // the data is on the device.
    void upload(const Image& luminance);
    // The same buffers without the upload, for a luminance the device computes itself into
    // luminance_buffer() (rows row_pitch() bytes apart).
    void allocate(std::size_t width, std::size_t height);
    // What one row of a `width`-pixel image costs its largest buffer (luminance, dX, dY and the
    // magnitude are alike), for cutting images into bands (common/runtime/bands.hpp). Halo: 1 row.
    static RowFootprint row_footprint(std::size_t width);
    const cl::Buffer& luminance_buffer() const { return luminance_; }
    // After run_magnitude(): the magnitude on the device, rows row_pitch() bytes apart.
    const cl::Buffer& magnitude_buffer() const { return magnitude_; }
    // Fills dX and dY with `value` (tests poison them so that pixels a kernel skips show up).
    void fill_outputs(std::uint8_t value);
    // One run of the kernel over the uploaded image; the event times it. The image variant first
    // copies the luminance buffer into its image (last_copy() times that).
    cl::Event run();
    // The image variant's copy in the last run(); an empty event for every other variant, and
    // for the image variant where its image is a view of the luminance buffer.
    const cl::Event& last_copy() const { return last_copy_; }
    // Whether the image variant reads the luminance buffer itself through an image (a device
    // with cl_khr_image2d_from_buffer), rather than a copy made each run.
    bool image_is_view() const { return image_is_view_; }
    // floor(sqrt(dX^2 + dY^2)) on the device, from the last run's gradients.
    cl::Event run_magnitude();

    // Both return when the data is in host memory.
    SobelGradients download();
    std::vector<std::uint8_t> download_magnitude();
    // The luminance the kernel read (computed on the device, or uploaded), as a host image.
    Image download_luminance();

    // The work-group shape, from the next run on (one upload serves every shape tried). Named
    // by the user (--work-group): run as asked, or refused (UsageError) naming the limit.
    void set_work_group(std::size_t x, std::size_t y);
    // A shape nobody named (the default 32x8, a tuned one, a tuning candidate): shrunk to what
    // this kernel runs on this device (fit_work_group; the local variant's tile within local
    // memory). Returns the shape that runs. The filter starts in fit_work_group(32, 8).
    WorkGroupShape fit_work_group(std::size_t x, std::size_t y);
    WorkGroupShape work_group() const { return {work_group_x_, work_group_y_}; }

    const LaunchSize& launch_size() const { return launch_; }
    std::size_t width() const { return width_; }  // of the image allocated for
    std::size_t height() const { return height_; }
    std::size_t row_pitch() const { return row_pitch_; }
    // Bytes the kernel must move: the image read once, dX and dY written once.
    std::uint64_t bytes_moved() const { return 3 * pixel_count(); }
    std::uint64_t pixel_count() const { return std::uint64_t{width_} * height_; }

private:
    // The NDRange for the uploaded image's size and the requested work-group shape (and for the
    // local variant, its tile's local memory to match).
    void size_launch();
    // Binds every argument of the variant's kernel in one call (the local variant's tile sized
    // for the launch).
    void bind_arguments();

    OpenClContext cl_;
    SobelVariant variant_;
    MemoryMode memory_;
    cl::Program program_;
    cl::Kernel kernel_;
    cl::Kernel magnitude_kernel_;
    cl::Buffer luminance_;
    cl::Buffer gradient_x_;
    cl::Buffer gradient_y_;
    cl::Buffer magnitude_;
    cl::Image2D luminance_image_;  // the image variant's copy of luminance_
    cl::Kernel image_copy_kernel_;
    cl::Event last_copy_;
    bool image_is_view_ = false;
    LaunchSize launch_;
    std::size_t width_ = 0;
    std::size_t height_ = 0;
    std::size_t row_pitch_ = 0;
    std::size_t work_group_x_ = 32;
    std::size_t work_group_y_ = 8;
};

}  // namespace sdk
