// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/bands.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/transfers.hpp"
#include "common/imageio/image.hpp"
#include "common/imageio/pbm.hpp"
#include "common/runtime/step_timing.hpp"
#include "kernels/morphology/morphology_reference.hpp"
#include "common/runtime/work_size.hpp"

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace sdk {

// One dilation or erosion over the packed image; each operation is one or two of them.
enum class MorphologyPass { dilate, erode };
std::vector<MorphologyPass> passes_of(MorphologyOperation operation);
// The rows above and below an output row that it depends on, for cutting images into bands
// (common/runtime/bands.hpp): each pass reads the structuring element's vertical reach (square 1,
// diamond 2, a WxH element H / 2) of the previous pass's result, so the halo is the reach times
// the passes (closing with the diamond: 4).
std::size_t halo_rows(const StructuringElement& element, MorphologyOperation operation);

// Binary morphology on bit-packed images (kernels/morphology/morphology_packed.cl): build once per
// shape, then upload a luminance image, binarise and pack it, run the passes, unpack and read back.
// The packed layout is 1 bit per pixel, rows of words_per_row() 32-bit words (row_pitch()
// bytes), bytes in PBM order; bits past the width are 0.
class MorphologyFilter {
public:
    // `memory`: MemoryMode::map or MemoryMode::copy for the luminance and the unpacked output
    // (common/runtime/transfers.hpp); the packed buffers never leave the device.
    MorphologyFilter(const OpenClContext& cl, const StructuringElement& element,
                     MemoryMode memory = MemoryMode::copy);

    // Allocates device buffers for this image and copies the luminance in, waiting for the
    // copy: the image need not outlive the call.
    PipelineStep upload(const Image& luminance);
    // Or: allocate only, and fill luminance_buffer() (rows of width bytes) another way, e.g.
    // straight from the file (samples/app/device_io.hpp); output_buffer() is then written out the
    // same way. download_luminance() brings the luminance back, for --verify and --save-raw.
    void allocate(std::size_t width, std::size_t height);
    // One row's cost to the largest buffer (bytes: the luminance and the unpacked output, or
    // the packed words on very narrow images; elements: pixels), for cutting images into bands.
    static RowFootprint row_footprint(std::size_t width);
    const cl::Buffer& luminance_buffer() const { return luminance_; }
    const cl::Buffer& output_buffer() const { return unpacked_; }
    Image download_luminance();
    // Fills every packed buffer and the unpacked output with `value` (tests poison them so that
    // anything a kernel fails to write shows up).
    void fill_outputs(std::uint8_t value);

    // The dilate and erode passes' work-group shape, 16x8 (within the kernels' limits: the
    // launch shrinks it) unless set; binarise, pack and unpack keep 32x8, shrunk alike. A shape
    // named by the user (--work-group) runs as asked, or is refused (UsageError) naming the limit.
    void set_work_group(std::size_t x, std::size_t y);
    // A shape nobody named (tuned, a candidate): shrunk to what both passes' kernels run here
    // (fit_work_group). Returns the shape that runs.
    WorkGroupShape fit_work_group(std::size_t x, std::size_t y);
    WorkGroupShape work_group() const { return {work_group_x_, work_group_y_}; }

    // The whole device pipeline: binarise and pack, the operation's passes, unpack. Throws
    // std::invalid_argument for a region that is empty or not inside the image.
    std::vector<PipelineStep> run(const Binarisation& binarisation, MorphologyOperation operation,
                                  const Roi& roi);
    // Its steps one at a time: each pass reads the previous result (the packed input first).
    PipelineStep binarise_and_pack(const Binarisation& binarisation);
    PipelineStep run_pass(MorphologyPass pass, const Roi& roi);
    PipelineStep unpack();

    // The unpacked result, 255 for foreground and 0 for background.
    std::vector<std::uint8_t> download(PipelineStep* step = nullptr);
    // The packed buffers as they are on the device, with the device's row pitch.
    PackedBitmap download_packed_input();
    PackedBitmap download_packed_result();

    const StructuringElement& element() const { return element_; }
    std::size_t words_per_row() const { return words_per_row_; }
    std::size_t row_pitch() const { return 4 * words_per_row_; }
    std::uint64_t pixel_count() const { return std::uint64_t{width_} * height_; }
    std::uint64_t packed_bytes() const { return std::uint64_t{row_pitch()} * height_; }

private:
    // rows_per_item: rows of words each work-item takes (dilate and erode: more than 1,
    // see rows_per_dilation_item in the .cpp).
    cl::Event launch(cl::Kernel& kernel, const std::string& what, std::size_t rows_per_item = 1);
    void check_addressable(std::size_t width, std::size_t height) const;
    void release_buffers();
    PackedBitmap download_packed(const cl::Buffer& buffer, const std::string& what);

    OpenClContext cl_;
    StructuringElement element_;
    MemoryMode memory_;
    cl::Program program_;
    cl::Kernel pack_kernel_;
    cl::Kernel dilate_kernel_;
    cl::Kernel erode_kernel_;
    cl::Kernel unpack_kernel_;
    cl::Buffer luminance_;
    cl::Buffer packed_input_;
    cl::Buffer packed_passes_[2];  // passes alternate between these
    cl::Buffer packed_result_;     // whichever packed buffer the last step wrote
    cl::Buffer unpacked_;
    int passes_run_ = 0;
    std::size_t work_group_x_ = 16;
    std::size_t work_group_y_ = 8;
    std::size_t width_ = 0;
    std::size_t height_ = 0;
    std::size_t words_per_row_ = 0;
};

}  // namespace sdk
