#pragma once
#include "../cli.hpp"
#include "../device.hpp"
#include "../host_memory.hpp"
#include "../image.hpp"
#include "../pbm.hpp"
#include "../profiling.hpp"
#include "../reference/morphology_reference.hpp"
#include "../work_size.hpp"

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <string>
#include <vector>

namespace sdk {

// One dilation or erosion over the packed image; each operation is one or two of them.
enum class MorphologyPass { dilate, erode };
std::vector<MorphologyPass> passes_of(MorphologyOperation operation);

// A command of the pipeline, for the blog's per-step table: its event and the bytes it moves.
struct PipelineStep {
    std::string name;
    cl::Event event;
    std::uint64_t bytes = 0;
    // Set for a mapped transfer: the step runs from this map's start to `event`'s (the unmap's) end.
    cl::Event start_event = cl::Event();
};

// Binary morphology on bit-packed images (kernels/morphology_packed.cl): build once per shape,
// then upload a luminance image, binarise and pack it, run the passes, unpack and read back.
// The packed layout is 1 bit per pixel, rows of words_per_row() 32-bit words (row_pitch()
// bytes), bytes in PBM order; bits past the width are 0.
class MorphologyFilter {
public:
    // `memory`: MemoryMode::map or MemoryMode::copy for the luminance and the unpacked output
    // (host_memory.hpp); the packed buffers never leave the device.
    MorphologyFilter(const OpenClContext& cl, MorphologyShape shape,
                     MemoryMode memory = MemoryMode::copy);

    // Allocates device buffers for this image and copies the luminance in, waiting for the
    // copy: the image need not outlive the call.
    PipelineStep upload(const Image& luminance);
    // Fills every packed buffer and the unpacked output with `value` (tests poison them so that
    // anything a kernel fails to write shows up).
    void fill_outputs(std::uint8_t value);

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

    MorphologyShape shape() const { return shape_; }
    std::size_t words_per_row() const { return words_per_row_; }
    std::size_t row_pitch() const { return 4 * words_per_row_; }
    std::uint64_t pixel_count() const { return std::uint64_t{width_} * height_; }
    std::uint64_t packed_bytes() const { return std::uint64_t{row_pitch()} * height_; }

private:
    // rows_per_item: rows of words each work-item takes (dilate and erode: more than 1,
    // see rows_per_dilation_item in the .cpp).
    cl::Event launch(cl::Kernel& kernel, const std::string& what, std::size_t rows_per_item = 1);
    void release_buffers();
    PackedBitmap download_packed(const cl::Buffer& buffer, const std::string& what);

    OpenClContext cl_;
    MorphologyShape shape_;
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
    std::size_t width_ = 0;
    std::size_t height_ = 0;
    std::size_t words_per_row_ = 0;
};

// A step's start and end (ns, device clock) and bytes, read from its event once it completed.
struct StepTiming {
    std::string name;
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    std::uint64_t bytes = 0;
};
std::vector<StepTiming> step_timings(const std::vector<PipelineStep>& steps);

// The typical run out of several that took the same steps: each step lasts its median duration
// and starts its median gap (the idle time since the previous step ended) after the previous
// one, the first at 0. Medians of the start times themselves could let a step begin before the
// one it waits for ends. Throws std::invalid_argument when the runs' steps differ.
std::vector<StepTiming> median_step_timings(const std::vector<std::vector<StepTiming>>& runs);

StepTable step_table(const std::vector<StepTiming>& steps);

// --roi "X,Y,W,H" in pixels; throws UsageError for anything else, or a zero width or height.
Roi parse_roi(const std::string& text);
// Throws UsageError when the region does not lie inside the image.
void check_roi_inside(const Roi& roi, const Image& image);
std::string roi_text(const Roi& roi);  // "X,Y,W,H"

// What a run produces: the output image (255 = foreground) and the packed input and result.
struct MorphologyResult {
    std::vector<std::uint8_t> output;
    PackedBitmap packed_input;
    PackedBitmap packed_output;
};

// The files a run writes: output.bmp (foreground white), and with --save-raw input.pbm (the
// binarised input), output.pbm (the result), P4 with 1 = foreground, and luminance.npy.
void write_morphology_outputs(const CommonOptions& options, const Image& luminance,
                              const MorphologyResult& result);

// Compares the output with the C++ reference bit for bit: prints a line when equal, throws
// std::runtime_error("verification failed: ...") when not.
void verify_morphology(std::ostream& out, const Image& luminance, const Binarisation& binarisation,
                       MorphologyOperation operation, MorphologyShape shape, const Roi& roi,
                       const std::vector<std::uint8_t>& output);

}  // namespace sdk
