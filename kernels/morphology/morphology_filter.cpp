// SPDX-License-Identifier: Apache-2.0
#include "kernels/morphology/morphology_filter.hpp"

#include "common/imageio/bmp.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/kernel_args.hpp"
#include "common/imageio/npy.hpp"
#include "common/runtime/program.hpp"
#include "kernels/luminance_buffer.hpp"
#include "kernels/morphology/structuring_element.hpp"

#include <algorithm>
#include <climits>
#include <cstring>
#include <stdexcept>

namespace sdk {

std::vector<MorphologyPass> passes_of(MorphologyOperation operation)
{
    switch (operation) {
        case MorphologyOperation::dilate:
            return {MorphologyPass::dilate};
        case MorphologyOperation::erode:
            return {MorphologyPass::erode};
        case MorphologyOperation::close:
            return {MorphologyPass::dilate, MorphologyPass::erode};
        case MorphologyOperation::open:
            return {MorphologyPass::erode, MorphologyPass::dilate};
    }
    throw std::invalid_argument("unknown morphology operation");
}

std::size_t halo_rows(const StructuringElement& element, MorphologyOperation operation)
{
    return static_cast<std::size_t>(vertical_reach(element)) * passes_of(operation).size();
}

namespace {

// Each packed word holds 32 pixels (see kernels/morphology/morphology_packed.cl, [Packed layout]).
constexpr std::size_t kPixelsPerWord = 32;

// How many rows of words each dilate or erode work-item takes. The kernel gets it as the build
// option ROWS_PER_ITEM, so the launch size and the kernel cannot disagree. Measured in
// alternated runs, the square is fastest with 4 rows and the diamond, which spreads each row
// further, with 3 (docs/performance.md#morphology-choices). The rectangle, cross and ellipse
// (morphology_runs.cl) take taller columns: each input row's run is built once for all the
// outputs it feeds, and a column of K outputs reads K + H - 1 rows, so taller columns share
// more; 16 rows measured ahead of 8 and of 31 (docs/history.md), and the vertical run needs the
// column no taller than the element. The ellipse ORs a run per
// element row into every output, so its rows cost more unrolled code than they save: 8.
std::size_t rows_per_dilation_item(const StructuringElement& element)
{
    switch (element.shape) {
        case MorphologyShape::square:
            return 4;
        case MorphologyShape::diamond:
            return 3;
        case MorphologyShape::ellipse:
            return static_cast<std::size_t>(std::min(element.height, 8));
        default:
            return static_cast<std::size_t>(std::min(element.height, 16));
    }
}

std::string comma_separated(const std::vector<int>& numbers)
{
    std::string text;
    for (const int number : numbers) text += (text.empty() ? "" : ",") + std::to_string(number);
    return text;
}

// The structuring element and the rows per work-item are compile-time constants of the kernels:
// the dilation's loops over them unroll completely.
std::string build_options(const StructuringElement& element)
{
    const std::string rows = " -DROWS_PER_ITEM=" + std::to_string(rows_per_dilation_item(element));
    std::string element_option;
    switch (element.shape) {
        case MorphologyShape::square:
            return "-DSHAPE=SHAPE_SQUARE" + rows;
        case MorphologyShape::diamond:
            return "-DSHAPE=SHAPE_DIAMOND" + rows;
        case MorphologyShape::rectangle:
            element_option = "-DELEMENT=ELEMENT_RECTANGLE";
            break;
        case MorphologyShape::cross:
            element_option = "-DELEMENT=ELEMENT_CROSS";
            break;
        case MorphologyShape::ellipse:
            element_option = "-DELEMENT=ELEMENT_ELLIPSE -DROW_REACHES=" +
                             comma_separated(row_reaches(element_mask(element)));
            break;
    }
    return element_option + " -DREACH_X=" + std::to_string(element.width / 2) +
           " -DREACH_Y=" + std::to_string(vertical_reach(element)) + rows;
}

}  // namespace

MorphologyFilter::MorphologyFilter(const OpenClContext& cl, const StructuringElement& element,
                                   MemoryMode memory)
    : cl_(cl),
      element_(element),
      memory_(memory == MemoryMode::automatic ? MemoryMode::copy : memory)
{
    program_ = build_program(cl_, "morphology_packed.cl", build_options(element));
    while_doing("creating the morphology kernels", [&] {
        pack_kernel_ = create_kernel(program_, "binarise_and_pack");
        dilate_kernel_ = create_kernel(program_, "dilate");
        erode_kernel_ = create_kernel(program_, "erode");
        unpack_kernel_ = create_kernel(program_, "unpack");
    });
}

void MorphologyFilter::check_addressable(std::size_t width, std::size_t height) const
{
    const std::uint64_t pixels = std::uint64_t{width} * height;
    check_kernel_can_address(cl_, pixels, pixels,
                             "an image of " + std::to_string(width) + "x" + std::to_string(height));
}

RowFootprint MorphologyFilter::row_footprint(std::size_t width)
{
    const std::uint64_t packed_row = 4 * divide_round_up(width, kPixelsPerWord);
    return {std::max<std::uint64_t>(width, packed_row), width};
}

void MorphologyFilter::allocate(std::size_t width, std::size_t height)
{
    check_addressable(width, height);
    const bool same_size = luminance_() && width == width_ && height == height_;
    width_ = width;
    height_ = height;
    words_per_row_ = divide_round_up(width_, kPixelsPerWord);
    const std::size_t bytes = pixel_count();
    while_doing("creating buffers for the image", [&] {
        if (!same_size) {
            release_buffers();
            // Read-write: the sample's conversion kernels (convert.cl) write it, pack reads it.
            luminance_ =
                create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, bytes, "the luminance");
            packed_input_ = cl::Buffer(cl_.context, CL_MEM_READ_WRITE, packed_bytes());
            packed_passes_[0] = cl::Buffer(cl_.context, CL_MEM_READ_WRITE, packed_bytes());
            packed_passes_[1] = cl::Buffer(cl_.context, CL_MEM_READ_WRITE, packed_bytes());
            unpacked_ = create_image_buffer(cl_, memory_, CL_MEM_READ_WRITE, bytes, "the output");
        }
    });
    packed_result_ = cl::Buffer();  // nothing packed from this image yet
}

PipelineStep MorphologyFilter::upload(const Image& luminance)
{
    if (luminance.channels != 1)
        throw std::invalid_argument("the morphology filter takes an 8-bit luminance image");
    check_addressable(luminance.width, luminance.height);
    if (luminance.pixels.size() != std::uint64_t{luminance.width} * luminance.height)
        throw std::invalid_argument("luminance image has " +
                                    std::to_string(luminance.pixels.size()) +
                                    " pixels, not width * height");
    allocate(luminance.width, luminance.height);
    PipelineStep step{"upload", {}, luminance.pixels.size()};
    // Tight rows: the packing kernel reads the luminance byte by byte, so no pitch is needed.
    const Transfer transfer = upload_rows(cl_, memory_, luminance_, luminance.pixels.data(), width_,
                                          height_, width_, "the luminance");
    step.event = transfer.end;
    if (memory_ == MemoryMode::map) step.start_event = transfer.start;
    return step;
}

Image MorphologyFilter::download_luminance()
{
    // Tight rows, as upload() and the packing kernel have them.
    return sdk::download_luminance(cl_, memory_, luminance_, width_, height_, width_);
}

void MorphologyFilter::release_buffers()
{
    // Before allocating the next ones: the device need not hold two images' buffers at once.
    // (Creating the new ones first also made oclgrind's --uninitialized check report
    // words the kernels had written as uninitialised.)
    luminance_ = cl::Buffer();
    packed_input_ = cl::Buffer();
    packed_passes_[0] = cl::Buffer();
    packed_passes_[1] = cl::Buffer();
    packed_result_ = cl::Buffer();
    unpacked_ = cl::Buffer();
}

void MorphologyFilter::fill_outputs(std::uint8_t value)
{
    // Written from the host rather than with clEnqueueFillBuffer: after a fill, oclgrind's
    // --uninitialized check loses track of the words the kernels store over it.
    while_doing("poisoning the output buffers", [&] {
        const std::vector<std::uint8_t> poison(std::max(packed_bytes(), pixel_count()), value);
        cl_.queue.enqueueWriteBuffer(packed_input_, CL_TRUE, 0, packed_bytes(), poison.data());
        cl_.queue.enqueueWriteBuffer(packed_passes_[0], CL_TRUE, 0, packed_bytes(), poison.data());
        cl_.queue.enqueueWriteBuffer(packed_passes_[1], CL_TRUE, 0, packed_bytes(), poison.data());
        cl_.queue.enqueueWriteBuffer(unpacked_, CL_TRUE, 0, pixel_count(), poison.data());
    });
}

cl::Event MorphologyFilter::launch(cl::Kernel& kernel, const std::string& what,
                                   std::size_t rows_per_item)
{
    if (!luminance_()) throw std::logic_error("upload an image before running " + what);
    // [Work size]
    // One work-item per packed word of 32 pixels, in one row (pack, unpack) or in each of a
    // column of rows_per_item rows (dilate, erode: ROWS_PER_ITEM in the kernel). A 3264-pixel row
    // is 102 words. The dilation's groups are 16 x 8 by default: they were measured ahead of
    // 32 x 8 for both shapes and of 32 x 4 for the diamond
    // (docs/performance.md#morphology-choices); the sample tunes them per device and size.
    const bool columns = rows_per_item > 1;
    const LaunchSize launch =
        launch_size_2d(kernel, cl_.device, words_per_row_, divide_round_up(height_, rows_per_item),
                       columns ? work_group_x_ : 32, columns ? work_group_y_ : 8);
    // [Work size]
    cl::Event event;
    while_doing("running kernel " + what, [&] {
        cl_.queue.enqueueNDRangeKernel(kernel, cl::NullRange, launch.global, launch.local, nullptr,
                                       &event);
        cl_.record(kernel, event);
    });
    return event;
}

void MorphologyFilter::set_work_group(std::size_t x, std::size_t y)
{
    check_work_group(dilate_kernel_, cl_.device, x, y, "dilate");
    check_work_group(erode_kernel_, cl_.device, x, y, "erode");
    work_group_x_ = x;
    work_group_y_ = y;
}

WorkGroupShape MorphologyFilter::fit_work_group(std::size_t x, std::size_t y)
{
    const std::size_t erode_limit = kernel_group_limit(erode_kernel_, cl_.device);
    const WorkGroupShape shape =
        sdk::fit_work_group(dilate_kernel_, cl_.device, {x, y},
                            [&](WorkGroupShape s) { return s.x * s.y <= erode_limit; });
    set_work_group(shape.x, shape.y);
    return shape;
}

std::vector<PipelineStep> MorphologyFilter::run(const Binarisation& binarisation,
                                                MorphologyOperation operation, const Roi& roi)
{
    std::vector<PipelineStep> steps{binarise_and_pack(binarisation)};
    for (const MorphologyPass pass : passes_of(operation)) steps.push_back(run_pass(pass, roi));
    steps.push_back(unpack());
    return steps;
}

PipelineStep MorphologyFilter::binarise_and_pack(const Binarisation& binarisation)
{
    while_doing("setting the binarise_and_pack kernel's arguments", [&] {
        set_args(pack_kernel_, luminance_, static_cast<cl_int>(width_),
                 static_cast<cl_int>(height_), static_cast<cl_int>(words_per_row_),
                 static_cast<cl_uint>(binarisation.threshold),
                 static_cast<cl_int>(binarisation.invert ? 1 : 0), packed_input_);
    });
    packed_result_ = packed_input_;
    passes_run_ = 0;
    return {"binarise and pack", launch(pack_kernel_, "binarise_and_pack"),
            pixel_count() + packed_bytes()};
}

PipelineStep MorphologyFilter::run_pass(MorphologyPass pass, const Roi& roi)
{
    if (!packed_result_()) throw std::logic_error("binarise and pack before a morphology pass");
    if (roi.width == 0 || roi.height == 0 || roi.x > width_ || roi.y > height_ ||
        roi.width > width_ - roi.x || roi.height > height_ - roi.y)
        throw std::invalid_argument("region " + roi_text(roi) + " is empty or not inside the " +
                                    std::to_string(width_) + "x" + std::to_string(height_) +
                                    " image");
    const bool dilate = pass == MorphologyPass::dilate;
    cl::Kernel& kernel = dilate ? dilate_kernel_ : erode_kernel_;
    const cl::Buffer& destination = packed_passes_[passes_run_ % 2];
    while_doing(
        std::string("setting the ") + (dilate ? "dilate" : "erode") + " kernel's arguments", [&] {
            set_args(kernel, packed_result_, destination, static_cast<cl_int>(words_per_row_),
                     static_cast<cl_int>(height_), static_cast<cl_int>(roi.x),
                     static_cast<cl_int>(roi.y), static_cast<cl_int>(roi.x + roi.width),
                     static_cast<cl_int>(roi.y + roi.height));
        });
    const std::string name =
        std::string(dilate ? "dilate" : "erode") + " (" + element_name(element_) + ")";
    cl::Event event = launch(kernel, name, rows_per_dilation_item(element_));
    packed_result_ = destination;
    ++passes_run_;
    // Each word is read once and written once; the neighbours' re-reads come from the cache.
    return {name, event, 2 * packed_bytes()};
}

PipelineStep MorphologyFilter::unpack()
{
    if (!packed_result_()) throw std::logic_error("binarise and pack before unpacking");
    while_doing("setting the unpack kernel's arguments", [&] {
        set_args(unpack_kernel_, packed_result_, static_cast<cl_int>(width_),
                 static_cast<cl_int>(height_), static_cast<cl_int>(words_per_row_), unpacked_);
    });
    return {"unpack", launch(unpack_kernel_, "unpack"), packed_bytes() + pixel_count()};
}

std::vector<std::uint8_t> MorphologyFilter::download(PipelineStep* step)
{
    std::vector<std::uint8_t> output(pixel_count());
    PipelineStep download_step{"download", {}, pixel_count()};
    const Transfer transfer = download_rows(cl_, memory_, unpacked_, output.data(), width_, height_,
                                            width_, "the output");
    download_step.event = transfer.end;
    if (memory_ == MemoryMode::map) download_step.start_event = transfer.start;
    if (step) *step = download_step;
    return output;
}

PackedBitmap MorphologyFilter::download_packed(const cl::Buffer& buffer, const std::string& what)
{
    if (!packed_result_())
        throw std::logic_error("binarise and pack before reading the " + what + " back");
    PackedBitmap bitmap{width_, height_, row_pitch(), std::vector<std::uint8_t>(packed_bytes())};
    // Packed buffers live on the device only (plain buffers), so they are read as copy mode does.
    download_rows(cl_, MemoryMode::copy, buffer, bitmap.bits.data(), row_pitch(), height_,
                  row_pitch(), "the " + what);
    return bitmap;
}

PackedBitmap MorphologyFilter::download_packed_input()
{
    return download_packed(packed_input_, "packed input");
}

PackedBitmap MorphologyFilter::download_packed_result()
{
    return download_packed(packed_result_, "packed result");
}

}  // namespace sdk
