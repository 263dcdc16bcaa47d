// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/border.hpp"
#include "common/runtime/bands.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/transfers.hpp"
#include "common/imageio/image.hpp"
#include "common/runtime/work_size.hpp"
#include "kernels/fir/fir_coefficients.hpp"
#include "kernels/fir/fir_separable.hpp"
#include "kernels/kernel_tuning.hpp"
#include "common/runtime/profiling.hpp"

#include <array>
#include <map>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sdk {

// Where the K*K pass reads its pixels from: a buffer (kernels/fir/fir_float.cl), a tile in local
// memory (fir_local.cl) or an image through a sampler (fir_image.cl). docs/memory.md compares them.
enum class FirVariant { buffer, local, image };
// The local variant's work-groups are this many work-items wide, built into its kernels
// (kernels/fir/fir_tile.cl says why); their height is free.
constexpr std::size_t kLocalGroupWidth = 16;
// The buffer and image variants' work-group shape when none is asked for or tuned.
constexpr WorkGroupShape kDefaultGroup{32, 8};
// The shape `variant` runs when `asked` is asked for: the local variant keeps its own width and
// takes the asked height; the others run `asked` as it is.
inline WorkGroupShape shape_run_by(FirVariant variant, WorkGroupShape asked)
{
    if (variant == FirVariant::local) asked.x = kLocalGroupWidth;
    return asked;
}
// The outputs each work-item of the local variant's K*K kernel computes at each step.
struct LocalBlock {
    std::size_t columns;
    std::size_t rows;
};
// Everything that tells one K*K variant from another, as one row of one table (fir_filter.cpp):
// the host code asks the table instead of switching on the variant.
struct FirVariantTraits {
    FirVariant variant;
    const char* name;             // as --variant and the tuning cache spell it
    const char* program_file;     // in kernels/fir/, built with the border's and RADIUS's -D
    const char* kernel_name;      // the K*K kernel
    const char* kernel_name_3x3;  // the 3x3 window's own kernel, where it has one
    const char* reads_from;       // "buffer", "local memory" or "image": what the verdict compares
};
// Every variant, in the enum's order.
const std::vector<FirVariantTraits>& fir_variants();
const FirVariantTraits& traits_of(FirVariant variant);
std::string fir_variant_name(FirVariant variant);  // "buffer", "local", "image"
// The variant called `name`; UsageError otherwise.
FirVariant fir_variant_named(const std::string& name);
// Why `variant` cannot run on this device for a `width` x `height` image (only the image
// variant has such limits: image support, one-channel float images, the largest image), or "".
std::string fir_variant_unavailable(const OpenClContext& cl, FirVariant variant, std::size_t width,
                                    std::size_t height);

// The build options of kernels/fir/*.cl: the border by name and the window's radius,
// "-DBORDER_REPLICATE -DRADIUS=2" for 5x5.
std::string fir_build_options(Border border, int size);

// Runs a FIR filter on the device: build once for a border, window size and variant, then set
// any coefficients of that size, upload an image, run, read back. Weights that are an outer
// product run as two 1-D passes (kernels/fir/fir_separable.cl) unless separable paths are
// turned off; others run the variant's K*K kernel (the buffer variant's is fir_float for 3x3,
// fir_float_kxk for larger windows). The host side of the technique; the sample's main.cpp
// tells the story around it.
class FirFilter {
public:
    // `memory`: MemoryMode::map or MemoryMode::copy (common/runtime/transfers.hpp). The
    // coefficients' size is built in (-DRADIUS); their values are not.
    FirFilter(const OpenClContext& cl, Border border,
              const FirCoefficients& coefficients = FirCoefficients{},
              MemoryMode memory = MemoryMode::copy, FirVariant variant = FirVariant::buffer);

    // New weights of the same size for the next run; the program is not rebuilt (they are
    // kernel arguments, or a buffer). Another size throws std::invalid_argument.
    void set_coefficients(const FirCoefficients& coefficients);
    // Whether separable weights may take the separable path (default true): two 1-D passes, or
    // for the local variant one kernel with the row sums in local memory. The tuner and the
    // verdict turn it off to time the K*K variants themselves.
    void allow_separable(bool allowed);
    // Whether the next run takes the separable path.
    bool separable() const { return factors_.has_value() && separable_allowed_; }
    // One line for the sample's log: "separable: 15x1 row pass then 1x15 column pass", or
    // "buffer 15x15 pass".
    std::string describe_path() const;
    FirVariant variant() const { return variant_; }
    // Allocates device buffers for this image size and puts the luminance in as floats; returns
    // when the data is on the device.
    void upload(const Image& luminance);
    // Or: allocate only, and fill luminance_buffer() another way (floats, rows float_pitch()
    // apart), e.g. converted on the device from the file's rows; output_buffer() has the same
    // layout. download_luminance() brings the luminance back as 8 bits, for --verify.
    void allocate(std::size_t width, std::size_t height);
    // One row's cost to the float buffers, for cutting images into bands
    // (common/runtime/bands.hpp).
    static RowFootprint row_footprint(std::size_t width);
    const cl::Buffer& luminance_buffer() const { return luminance_; }
    const cl::Buffer& output_buffer() const { return output_; }
    // The separable path's row sums (the row pass's output, the column pass's input), laid out
    // as the output; empty until weights are separable.
    const cl::Buffer& row_sums_buffer() const { return row_sums_; }
    std::size_t float_pitch() const { return row_pitch_bytes_ / sizeof(cl_float); }
    Image download_luminance();
    // Fills the output with `value` (tests poison it with NaN so that pixels a kernel skips show).
    void fill_output(float value);
    // The work-group shape: by default 32x8 (the local variant: 16x8, and always
    // kLocalGroupWidth wide) made to fit the kernel's limits on this device. One named by the
    // user (--work-group) runs as asked, or is refused (UsageError) naming the limit.
    void set_work_group(std::size_t x, std::size_t y);
    // A shape nobody named (a tuned one, a tuning candidate, the verdict's): shrunk to what the
    // kernel runs on this device (fit_work_group; the local variant keeps its width and halves
    // its height). Returns the shape that runs.
    WorkGroupShape fit_work_group(std::size_t x, std::size_t y);
    // Back to the default shape, as made.
    void use_default_work_group();
    WorkGroupShape work_group() const { return {work_group_x_, work_group_y_}; }
    // One run over the uploaded image: the K*K kernel (the image variant's copy into its image
    // first, where it cannot view the buffer), or the row pass then the column pass. The
    // event is the last kernel's; run_ms() times all of a run.
    cl::Event run();
    // The last run's kernels, in order (one, or the separable path's two passes).
    const std::vector<cl::Event>& last_run_events() const { return last_events_; }
    // One run, waited for: the device time of all its kernels, in ms.
    double run_ms();
    // The same, saying whether the time is the host's (the device reports none: time_run).
    RunTime run_time();
    // `iterations` runs after a warm-up run, each timed by run_ms.
    Statistics time_runs(unsigned iterations);

    // The filtered image, float32, one value per pixel, rows top-down.
    std::vector<float> download();

    const LaunchSize& launch_size() const { return launch_; }
    std::size_t width() const { return width_; }  // of the image allocated for
    std::size_t height() const { return height_; }
    // Bytes the kernels must move: the float image read once and the float output written once,
    // and on the two-pass separable path the row sums written and read once more.
    std::uint64_t bytes_moved() const
    {
        return (separable() && variant_ != FirVariant::local ? 16 : 8) * pixel_count();
    }
    std::uint64_t pixel_count() const { return std::uint64_t{width_} * height_; }

private:
    // Sets all of fir_float's arguments in one call; after upload, since the buffers and sizes
    // are among them.
    void bind_arguments();
    void bind_separable_arguments();
    void size_launch();
    void bind_local_arguments(cl::Kernel& kernel, const std::vector<cl_float>& weights,
                              const cl::Buffer& in_buffer);
    std::size_t tile_floats(std::size_t columns_per_item, std::size_t rows_per_item,
                            std::size_t group_x, std::size_t group_y) const;
    void fit_default_shape();
    void fit_default_local_shape();
    void use_local_kernels(std::size_t height);
    std::size_t local_bytes(std::size_t group_x, std::size_t group_y) const;
    std::size_t local_tile_bytes(std::size_t group_x, std::size_t group_y) const;
    std::size_t separable_local_bytes(std::size_t group_x, std::size_t group_y) const;
    cl::Event enqueue(const cl::Kernel& kernel, const std::string& name, const LaunchSize& launch);

    OpenClContext cl_;
    MemoryMode memory_;
    Border border_;
    int size_;  // K, built in
    FirVariant variant_;
    std::string kernel_name_;
    LocalBlock local_block_;  // by window and device type (fir_filter.cpp)
    bool weights_by_value_;   // the local kernels' weights: by value, or in a buffer (rusticl)
    cl::Program program_;
    cl::Kernel kernel_;
    cl::Buffer luminance_;
    cl::Buffer output_;
    // The weights as the kernels take them. The 3x3 buffer kernel: one float4 per window row
    // (above, here, below). The other buffer and image kernels: all K*K, row-major, read as
    // __constant; the local kernel: the same K*K, passed by value.
    std::array<cl_float4, 3> weight_rows_{};
    cl::Buffer weights_;
    std::vector<cl_float> weight_values_;  // the local kernel's, passed by value
    // The image variant: its image of the luminance (a view of the buffer, or a copy each run).
    cl::Image2D luminance_image_;
    cl::Kernel image_copy_kernel_;
    bool image_is_view_ = false;
    // The separable path: the factors, their float buffers, the two passes' program (built the
    // first time weights are separable) and the row sums between the passes.
    std::optional<SeparableWeights> factors_;
    bool separable_allowed_ = true;
    cl::Program separable_program_;
    cl::Kernel row_kernel_;
    cl::Kernel column_kernel_;
    cl::Buffer row_weights_;
    cl::Buffer column_weights_;
    cl::Buffer row_sums_;
    std::size_t row_sums_bytes_ = 0;
    // The local variant's separable path: one kernel, the row sums in local memory, the
    // factors (row, then column) by value.
    cl::Kernel separable_local_kernel_;
    std::vector<cl_float> factor_values_;
    // The local variant's kernels by the height of the groups they were built for; kernel_ and
    // separable_local_kernel_ are those of local_height_.
    struct LocalKernels {
        cl::Kernel full_window;
        cl::Kernel separable;
    };
    std::map<std::size_t, LocalKernels> local_kernels_;
    std::size_t local_height_ = 0;
    std::vector<cl::Event> last_events_;  // the last run's kernels, for run_ms
    LaunchSize launch_;
    std::size_t work_group_x_ = kDefaultGroup.x;
    std::size_t work_group_y_ = kDefaultGroup.y;
    bool shape_chosen_ = false;  // by set_work_group, else the default
    std::size_t width_ = 0;
    std::size_t height_ = 0;
    std::size_t row_pitch_bytes_ = 0;  // device rows start this far apart (a multiple of 64)
};

}  // namespace sdk
