// SPDX-License-Identifier: Apache-2.0
#include "kernels/fir/fir_filter.hpp"

#include "common/runtime/device.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/kernel_args.hpp"
#include "common/runtime/transfers.hpp"
#include "common/runtime/program.hpp"
#include "kernels/image_views.hpp"

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
// The local variant's work-items each compute a block of outputs. On a GPU 4 along a row (one
// float4) and 4 rows, or 2 rows from 11x11 up, where 4 rows of sums and the registers that bring
// in the next tile (kernels/fir/fir_tile.cl) no longer fit a GPU's registers together. A CPU
// (PoCL) has registers enough and vector units that like long rows: 8 along a row and 4 rows, 8
// from 9x9 up. The measurements behind both are in docs/history.md.
LocalBlock local_block(int size, bool cpu)
{
    if (cpu) return {8, size >= 9 ? 8u : 4u};
    return {kOutputsPerItem, size >= 11 ? 2u : 4u};
}
// The separable local kernel's work-items each take 4 outputs of 4 rows (fir_separable_local.cl;
// measured ahead of 2 rows: docs/history.md).
constexpr std::size_t kSeparableLocalRows = 4;
// The tiles a local kernel's work-group walks down its strip (fir_tile.cl, [Strip]): the next
// tile's loads in flight while one is computed; past 8 more steps no longer paid
// (docs/history.md).
constexpr std::size_t kLocalSteps = 8;

// Whether the local kernels may take their weights by value (kernels/fir/fir_local.cl says why):
// not on Mesa's rusticl, whose compiler crashes on a by-value argument read inside a loop
// (docs/portability.md#mesas-rusticl); there they read them through a __constant pointer.
bool weights_by_value(const cl::Device& device)
{
    const cl::Platform platform(device.getInfo<CL_DEVICE_PLATFORM>());
    return platform.getInfo<CL_PLATFORM_NAME>() != "rusticl";
}

std::string local_build_options(Border border, int size, LocalBlock block, std::size_t height,
                                bool by_value)
{
    return fir_build_options(border, size) + (by_value ? "" : " -DWEIGHTS_IN_CONSTANT_BUFFER") +
           " -DROWS_PER_ITEM=" + std::to_string(block.rows) +
           " -DCOLUMNS_PER_ITEM=" + std::to_string(block.columns) +
           " -DGROUP_WIDTH=" + std::to_string(kLocalGroupWidth) +
           " -DGROUP_HEIGHT=" + std::to_string(height) + " -DSTEPS=" + std::to_string(kLocalSteps);
}

// `values` as floats in a new read-only buffer (the kernels read it as __constant).
cl::Buffer constant_floats(const OpenClContext& cl, const std::vector<float>& values,
                           const std::string& what)
{
    const std::size_t bytes = values.size() * sizeof(cl_float);
    cl::Buffer buffer = create_image_buffer(cl, MemoryMode::copy, CL_MEM_READ_ONLY, bytes, what);
    upload_bytes(cl, MemoryMode::copy, buffer, values.data(), bytes, what);
    return buffer;
}

std::vector<float> to_floats(const std::vector<double>& values)
{
    return std::vector<float>(values.begin(), values.end());
}

}  // namespace

const std::vector<FirVariantTraits>& fir_variants()
{
    static const std::vector<FirVariantTraits> table{
        // variant           name      program file    K*K kernel       3x3 kernel    reads from
        {FirVariant::buffer, "buffer", "fir_float.cl", "fir_float_kxk", "fir_float", "buffer"},
        {FirVariant::local, "local", "fir_local.cl", "fir_local", "fir_local", "local memory"},
        {FirVariant::image, "image", "fir_image.cl", "fir_image", "fir_image", "image"},
    };
    return table;
}

const FirVariantTraits& traits_of(FirVariant variant)
{
    // The table lists the variants in the enum's order.
    return fir_variants().at(static_cast<std::size_t>(variant));
}

std::string fir_variant_name(FirVariant variant)
{
    return traits_of(variant).name;
}

FirVariant fir_variant_named(const std::string& name)
{
    for (const FirVariantTraits& traits : fir_variants())
        if (traits.name == name) return traits.variant;
    throw UsageError("--variant: '" + name + "' is not buffer, local, image or auto");
}

std::string fir_variant_unavailable(const OpenClContext& cl, FirVariant variant, std::size_t width,
                                    std::size_t height)
{
    if (variant != FirVariant::image) return "";
    return luminance_image_unavailable(cl, width, height, kLuminanceFloats);
}

FirFilter::FirFilter(const OpenClContext& cl, Border border, const FirCoefficients& coefficients,
                     MemoryMode memory, FirVariant variant)
    : cl_(cl),
      memory_(memory == MemoryMode::automatic ? MemoryMode::copy : memory),
      border_(border),
      size_(coefficients.size),
      variant_(variant),
      kernel_name_(size_ == 3 ? traits_of(variant).kernel_name_3x3
                              : traits_of(variant).kernel_name),
      local_block_(local_block(size_, cl.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU)),
      weights_by_value_(weights_by_value(cl.device))
{
    check_fir_size(size_);
    const std::string unavailable = fir_variant_unavailable(cl_, variant_, 0, 0);
    if (!unavailable.empty())
        throw std::runtime_error("the " + fir_variant_name(variant_) +
                                 " FIR variant: " + unavailable);
    if (variant_ == FirVariant::local) {
        // Built for the shape that runs (use_local_kernels), which depends on the weights.
        set_coefficients(coefficients);
        fit_default_local_shape();
        return;
    }
    program_ =
        build_program(cl_, traits_of(variant_).program_file, fir_build_options(border, size_));
    while_doing("creating kernel " + kernel_name_, [&] {
        kernel_ = create_kernel(program_, kernel_name_);
        if (variant_ == FirVariant::image)
            image_copy_kernel_ = create_kernel(program_, "luminance_to_float_image");
    });
    fit_default_shape();
    set_coefficients(coefficients);
}

// The buffer and image variants' default, kDefaultGroup made to fit the K*K kernel here.
void FirFilter::fit_default_shape()
{
    const WorkGroupShape shape = sdk::fit_work_group(kernel_, cl_.device, kDefaultGroup);
    work_group_x_ = shape.x;
    work_group_y_ = shape.y;
}

// The local kernels for groups `height` tall become the ones that run, built the first time:
// a program for each height (kernels/fir/fir_tile.cl says why), the separable one once the
// weights are separable.
void FirFilter::use_local_kernels(std::size_t height)
{
    LocalKernels& kernels = local_kernels_[height];
    if (!kernels.full_window()) {
        const FirVariantTraits& local = traits_of(FirVariant::local);
        const cl::Program program = build_program(
            cl_, local.program_file,
            local_build_options(border_, size_, local_block_, height, weights_by_value_));
        while_doing(std::string("creating kernel ") + local.kernel_name,
                    [&] { kernels.full_window = create_kernel(program, local.kernel_name); });
    }
    if (factors_ && !kernels.separable()) {
        // One kernel, the row sums in local memory (fir_separable_local.cl).
        const cl::Program program = build_program(
            cl_, "fir_separable_local.cl",
            local_build_options(border_, size_, {kOutputsPerItem, kSeparableLocalRows}, height,
                                weights_by_value_));
        while_doing("creating kernel fir_separable_local",
                    [&] { kernels.separable = create_kernel(program, "fir_separable_local"); });
    }
    kernel_ = kernels.full_window;
    separable_local_kernel_ = kernels.separable;
    local_height_ = height;
}

// The local kernels' default shape is 16x8, the fastest measured for most windows
// (fir_tuning.cpp), halved in height until the kernel the weights run can run it here: its
// tiles within the device's local memory (32 KiB on many embedded GPUs; separable weights need
// the most), and its work-items within the kernel's own limit (an embedded driver may allow a
// kernel far fewer than the device: 32 on Mesa's rusticl). Its kernels become the ones that run.
void FirFilter::fit_default_local_shape()
{
    work_group_x_ = kLocalGroupWidth;
    const std::uint64_t available = device_limits(cl_.device).local_memory_bytes;
    for (work_group_y_ = 8;; work_group_y_ /= 2) {
        if (work_group_y_ > 1 && local_bytes(work_group_x_, work_group_y_) > available) continue;
        // A program per height: its kernel's limit is known once it is built.
        use_local_kernels(work_group_y_);
        const cl::Kernel& kernel = separable() ? separable_local_kernel_ : kernel_;
        if (work_group_y_ == 1 ||
            work_group_x_ * work_group_y_ <= kernel_group_limit(kernel, cl_.device))
            break;
    }
}

WorkGroupShape FirFilter::fit_work_group(std::size_t x, std::size_t y)
{
    if (variant_ == FirVariant::local) {
        // Its width is built into its kernels: the height halves until the kernel built for it
        // runs here (set_work_group checks the kernel's limit and the tiles' local memory).
        for (y = std::max<std::size_t>(y, 1);; y /= 2) {
            try {
                set_work_group(kLocalGroupWidth, y);
                return {kLocalGroupWidth, y};
            } catch (const UsageError&) {
                if (y == 1) throw;
            }
        }
    }
    const WorkGroupShape shape = sdk::fit_work_group(kernel_, cl_.device, {x, y});
    set_work_group(shape.x, shape.y);
    return shape;
}

std::string fir_build_options(Border border, int size)
{
    return border_build_option(border) + " -DRADIUS=" + std::to_string(size / 2);
}

void FirFilter::set_coefficients(const FirCoefficients& coefficients)
{
    if (coefficients.size != size_)
        throw std::invalid_argument(
            "FirFilter::set_coefficients: " + std::to_string(coefficients.size) + "x" +
            std::to_string(coefficients.size) + " weights for a filter built for " +
            std::to_string(size_) + "x" + std::to_string(size_));
    // [Weights]
    // Rounded to float once here. The 3x3 buffer kernel takes one float4 per window row (.s3
    // unused): its arithmetic, and so the default run's output, is what it always was. Every
    // other K*K kernel reads all K*K from one small buffer as __constant, but the local one,
    // which takes them by value (kernels/fir/fir_local.cl says why).
    const std::vector<float> weights = coefficients.float_weights();
    for (std::size_t r = 0; r < weight_rows_.size() && size_ == 3; ++r)
        weight_rows_[r] = cl_float4{{weights[3 * r], weights[3 * r + 1], weights[3 * r + 2], 0.0f}};
    if (variant_ == FirVariant::local && weights_by_value_)
        weight_values_ = weights;
    else
        weights_ = constant_floats(cl_, weights, "the weights");
    // [Weights]
    factors_ = separate(coefficients);
    if (factors_) {
        if (variant_ == FirVariant::local) {
            if (local_height_ > 0) use_local_kernels(local_height_);  // (the constructor's later)
            factor_values_ = to_floats(factors_->row);
            const std::vector<float> column = to_floats(factors_->column);
            factor_values_.insert(factor_values_.end(), column.begin(), column.end());
            if (!weights_by_value_)
                row_weights_ = constant_floats(cl_, factor_values_, "the row and column weights");
        } else {
            // Two passes, the row sums through global memory (fir_separable.cl).
            if (!separable_program_()) {
                separable_program_ =
                    build_program(cl_, "fir_separable.cl", fir_build_options(border_, size_));
                while_doing("creating the separable kernels", [&] {
                    row_kernel_ = create_kernel(separable_program_, "fir_rows");
                    column_kernel_ = create_kernel(separable_program_, "fir_columns");
                });
            }
            row_weights_ = constant_floats(cl_, to_floats(factors_->row), "the row weights");
            column_weights_ =
                constant_floats(cl_, to_floats(factors_->column), "the column weights");
        }
    }
    // Before the first upload there is nothing else to size or bind: upload does both. After
    // it, the kernel that runs may have changed (separable weights or not), and its launch.
    if (output_()) {
        size_launch();
        bind_arguments();
    }
}

void FirFilter::allow_separable(bool allowed)
{
    separable_allowed_ = allowed;
    if (output_()) {
        size_launch();
        bind_arguments();
    }
}

std::string FirFilter::describe_path() const
{
    if (separable()) return describe_separable(size_, variant_ == FirVariant::local);
    const std::string k = std::to_string(size_);
    return fir_variant_name(variant_) + " " + k + "x" + k + " pass";
}

void FirFilter::bind_arguments()
{
    const auto width = static_cast<cl_int>(width_);
    const auto height = static_cast<cl_int>(height_);
    const auto pitch = static_cast<cl_int>(row_pitch_bytes_ / sizeof(cl_float));
    if (separable()) {
        bind_separable_arguments();
        return;
    }
    // [Arguments]
    // In the order of each kernel's signature (kernels/fir/*.cl), written once here.
    while_doing("setting the FIR kernel's arguments", [&] {
        if (variant_ == FirVariant::image) {
            set_args(kernel_, luminance_image_, width, height, pitch, weights_, output_);
        } else if (variant_ == FirVariant::local) {
            bind_local_arguments(kernel_, weight_values_, weights_);
        } else if (size_ == 3) {
            set_args(kernel_, luminance_, width, height, pitch, weight_rows_[0], weight_rows_[1],
                     weight_rows_[2], output_);
        } else {
            set_args(kernel_, luminance_, width, height, pitch, weights_, output_);
        }
    });
    // [Arguments]
}

// The local kernels' arguments: the luminance and its size, then their weights as one struct
// passed by value (kernels/fir/fir_local.cl says why; `in_buffer` where the driver needs them
// there), the output, and the tile in local memory for the shape that really runs (size_launch,
// always called first, may shrink the one asked for).
void FirFilter::bind_local_arguments(cl::Kernel& kernel, const std::vector<cl_float>& weights,
                                     const cl::Buffer& in_buffer)
{
    const auto width = static_cast<cl_int>(width_);
    const auto height = static_cast<cl_int>(height_);
    const auto pitch = static_cast<cl_int>(row_pitch_bytes_ / sizeof(cl_float));
    const auto tiles = cl::Local(local_bytes(launch_.local[0], launch_.local[1]));
    if (weights_by_value_)
        set_args(kernel, luminance_, width, height, pitch,
                 ArgBytes{weights.size() * sizeof(cl_float), weights.data()}, output_, tiles);
    else
        set_args(kernel, luminance_, width, height, pitch, in_buffer, output_, tiles);
}

void FirFilter::bind_separable_arguments()
{
    const auto width = static_cast<cl_int>(width_);
    const auto height = static_cast<cl_int>(height_);
    const auto pitch = static_cast<cl_int>(row_pitch_bytes_ / sizeof(cl_float));
    if (variant_ == FirVariant::local) {
        while_doing("setting fir_separable_local's arguments", [&] {
            bind_local_arguments(separable_local_kernel_, factor_values_, row_weights_);
        });
        return;
    }
    // Made the first time weights are separable, and again only when a larger image needs more.
    const std::size_t bytes = row_pitch_bytes_ * height_;
    if (row_sums_bytes_ < bytes) {
        row_sums_ =
            create_image_buffer(cl_, MemoryMode::copy, CL_MEM_READ_WRITE, bytes, "the row sums");
        row_sums_bytes_ = bytes;
        // Zeroed once from the host, though the row pass writes every row sum the column pass
        // reads (a test poisons them to prove it): oclgrind reports a buffer made again
        // where an earlier one lay, written by one kernel and read by the next, as uninitialised.
        const std::vector<cl_float> zeros(bytes / sizeof(cl_float), 0.0f);
        while_doing("zeroing the row sums", [&] {
            cl_.queue.enqueueWriteBuffer(row_sums_, CL_TRUE, 0, bytes, zeros.data());
        });
    }
    while_doing("setting the separable passes' arguments", [&] {
        set_args(row_kernel_, luminance_, width, height, pitch, row_weights_, row_sums_);
        set_args(column_kernel_, row_sums_, width, height, pitch, column_weights_, output_);
    });
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
    check_fits_device(
        cl_, bytes,
        "an image of " + std::to_string(width) + "x" + std::to_string(height) + " floats");
    width_ = width;
    height_ = height;
    luminance_ = create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, bytes, "the luminance");
    output_ = create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, bytes, "the output");

    if (variant_ == FirVariant::image) {
        const std::string size = std::to_string(width) + "x" + std::to_string(height);
        const std::string unavailable = fir_variant_unavailable(cl_, variant_, width, height);
        if (!unavailable.empty())
            throw std::runtime_error("the image FIR variant on an image of " + size + ": " +
                                     unavailable);
        while_doing("creating the luminance image", [&] {
            luminance_image_ =
                image_view_of(cl_, luminance_, width, height, row_pitch_bytes_, kLuminanceFloats);
            image_is_view_ = luminance_image_() != nullptr;
            if (!image_is_view_) {
                luminance_image_ = cl::Image2D(cl_.context, CL_MEM_READ_WRITE,
                                               cl::ImageFormat(CL_R, CL_FLOAT), width, height);
                set_args(image_copy_kernel_, luminance_, static_cast<cl_int>(width),
                         static_cast<cl_int>(height),
                         static_cast<cl_int>(row_pitch_bytes_ / sizeof(cl_float)),
                         luminance_image_);
            }
        });
    }
    size_launch();
    bind_arguments();
}

void FirFilter::set_work_group(std::size_t x, std::size_t y)
{
    if (variant_ == FirVariant::local) {
        if (x != kLocalGroupWidth)
            throw UsageError(
                "work-group " + std::to_string(x) + "x" + std::to_string(y) +
                ": the local variant's groups are " + std::to_string(kLocalGroupWidth) +
                " work-items wide (its tile rows' length is built into its kernels); " + "try " +
                std::to_string(kLocalGroupWidth) + "x" + std::to_string(y));
        // Checked before a program is built for a height the device cannot run at all.
        check_work_group_within_device(cl_.device, x, y);
        use_local_kernels(y);
        try {
            check_work_group(separable() ? separable_local_kernel_ : kernel_, cl_.device, x, y,
                             separable() ? "fir_separable_local" : kernel_name_);
            // A local shape must hold the tiles (and row sums) of the kernel the weights run.
            check_local_memory(cl_.device, x, y, local_bytes(x, y));
        } catch (...) {
            use_local_kernels(work_group_y_);
            throw;
        }
    } else {
        check_work_group(kernel_, cl_.device, x, y, kernel_name_);
    }
    shape_chosen_ = true;
    work_group_x_ = x;
    work_group_y_ = y;
    if (width_ > 0) {
        size_launch();
        bind_arguments();  // the local variant's kernels may be others now
    }
}

void FirFilter::use_default_work_group()
{
    shape_chosen_ = false;
    if (variant_ == FirVariant::local)
        fit_default_local_shape();
    else
        fit_default_shape();
    if (width_ > 0) {
        size_launch();
        bind_arguments();
    }
}

void FirFilter::size_launch()
{
    // [Work size]
    // One work-item per 4 outputs of a row; the last of each row may be a partial group.
    // (The local variant's work-items take a block, local_block_ or with separable weights
    // 4 x kSeparableLocalRows, at each of the kLocalSteps steps down their strip.)
    const bool local = variant_ == FirVariant::local;
    const bool local_separable = local && separable();
    if (local && !shape_chosen_) fit_default_local_shape();  // the weights may have changed
    const std::size_t columns_per_item =
        local && !local_separable ? local_block_.columns : kOutputsPerItem;
    const std::size_t rows_per_item = local_separable ? kSeparableLocalRows * kLocalSteps
                                      : local         ? local_block_.rows * kLocalSteps
                                                      : 1;
    cl::Kernel& kernel = local_separable ? separable_local_kernel_ : kernel_;
    launch_ = launch_size_2d(kernel, cl_.device, divide_round_up(width_, columns_per_item),
                             divide_round_up(height_, rows_per_item), work_group_x_, work_group_y_);
    // [Work size]
    if (local) {
        // The tile for the shape that really runs (launch_size_2d may shrink the one asked for),
        // bound with the arguments: weights set since the shape was (separable ones need more)
        // may not fit it.
        const std::size_t x = launch_.local[0], y = launch_.local[1];
        check_local_memory(cl_.device, x, y, local_bytes(x, y));
    }
}

// The floats of a local kernel's tile: a group of x by y work-items covers the outputs of a step
// (each work-item's block) plus the window's halo, RADIUS rows above and below and RADIUS rounded
// up to whole float4s left and right (PAD and TILE_FLOAT4S in kernels/fir/fir_tile.cl).
std::size_t FirFilter::tile_floats(std::size_t columns_per_item, std::size_t rows_per_item,
                                   std::size_t group_x, std::size_t group_y) const
{
    const auto radius = static_cast<std::size_t>(size_ / 2);
    const std::size_t pad = divide_round_up(radius, 4) * 4;
    return (columns_per_item * group_x + 2 * pad) * (rows_per_item * group_y + 2 * radius);
}

// The local K*K kernel's local memory: its two tiles (this step's and the next).
std::size_t FirFilter::local_tile_bytes(std::size_t group_x, std::size_t group_y) const
{
    return 2 * tile_floats(local_block_.columns, local_block_.rows, group_x, group_y) *
           sizeof(cl_float);
}

// What the local kernel that the weights run needs for a group of x by y work-items.
std::size_t FirFilter::local_bytes(std::size_t group_x, std::size_t group_y) const
{
    return separable() ? separable_local_bytes(group_x, group_y)
                       : local_tile_bytes(group_x, group_y);
}

// The separable local kernel's: its two tiles (4 columns by kSeparableLocalRows rows a work-item)
// and after them the row sums of every tile row, one per output column (fir_separable_local.cl).
std::size_t FirFilter::separable_local_bytes(std::size_t group_x, std::size_t group_y) const
{
    const std::size_t tile_rows =
        kSeparableLocalRows * group_y + 2 * static_cast<std::size_t>(size_ / 2);
    const std::size_t row_sums = kOutputsPerItem * group_x * tile_rows;
    return (2 * tile_floats(kOutputsPerItem, kSeparableLocalRows, group_x, group_y) + row_sums) *
           sizeof(cl_float);
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
        const std::size_t count =
            std::min((row_pitch - x * sizeof(cl_float)), size - done) / sizeof(cl_float);
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
    // instead uploads the file's bytes and converts on the device: samples/app/device_io.hpp).
    // The floats are written straight into the memory the transfer moves (the mapped buffer, or
    // one pinned chunk at a time), so the host never holds a float copy of the whole image.
    const std::size_t row_pitch = row_pitch_bytes_;
    upload_produced(
        cl_, memory_, luminance_, row_pitch * height_,
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
    // Written from the host rather than with clEnqueueFillBuffer: under oclgrind a filled
    // buffer's later contents are reported as uninitialised (as kernels/sobel/sobel_filter.cpp
    // found; here the separable passes' edge stores were).
    const std::vector<cl_float> poison(row_pitch_bytes_ * height_ / sizeof(cl_float), value);
    while_doing("filling the output buffer", [&] {
        cl_.queue.enqueueWriteBuffer(output_, CL_TRUE, 0, row_pitch_bytes_ * height_,
                                     poison.data());
    });
}

cl::Event FirFilter::enqueue(const cl::Kernel& kernel, const std::string& name,
                             const LaunchSize& launch)
{
    cl::Event event;
    while_doing("running kernel " + name, [&] {
        cl_.queue.enqueueNDRangeKernel(kernel, cl::NullRange, launch.global, launch.local, nullptr,
                                       &event);
        cl_.record(kernel, event);
    });
    last_events_.push_back(event);
    return event;
}

cl::Event FirFilter::run()
{
    last_events_.clear();
    if (separable() && variant_ == FirVariant::local)
        return enqueue(separable_local_kernel_, "fir_separable_local", launch_);
    if (separable()) {
        // The 1-D passes launch as the buffer kernel does: 4 outputs of a row a work-item.
        enqueue(row_kernel_, "fir_rows", launch_);
        return enqueue(column_kernel_, "fir_columns", launch_);
    }
    if (variant_ == FirVariant::image && !image_is_view_) {
        // The conversions (and the tuner) write the luminance buffer; the image is its copy.
        enqueue(image_copy_kernel_, "luminance_to_float_image",
                launch_size_2d(image_copy_kernel_, cl_.device, width_, height_));
    }
    return enqueue(kernel_, kernel_name_, launch_);
}

double FirFilter::run_ms()
{
    return run_time().ms;
}

// One run, waited for: all its kernels' device time, or the host's clock where the device
// reports none.
RunTime FirFilter::run_time()
{
    return time_run([&] {
        run().wait();
        double total = 0;
        for (const cl::Event& event : last_events_) total += event_times(event).run_ms;
        return total;
    });
}

Statistics FirFilter::time_runs(unsigned iterations)
{
    run_ms();  // the first launch pays for lazy compilation and allocation
    std::vector<double> samples;
    bool host_clock = false;
    for (unsigned i = 0; i < iterations; ++i) {
        const RunTime time = run_time();
        samples.push_back(time.ms);
        host_clock = host_clock || time.host_clock;
    }
    Statistics statistics = summarize(samples);
    statistics.host_clock = host_clock;
    return statistics;
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
