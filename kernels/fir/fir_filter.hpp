#pragma once
#include "kernels/border.hpp"
#include "common/runtime/bands.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/transfers.hpp"
#include "common/imageio/image.hpp"
#include "common/runtime/work_size.hpp"
#include "kernels/fir/fir_coefficients.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace sdk {

// The build options of kernels/fir/*.cl: the border by name and the window's radius,
// "-DBORDER_REPLICATE -DRADIUS=2" for 5x5.
std::string fir_build_options(Border border, int size);

// Runs a FIR kernel (kernels/fir/fir_float.cl: fir_float for 3x3, fir_float_kxk for larger
// windows) on the device: build once for a border and window size, then set any coefficients of
// that size, upload an image, run, read back. The host side of the technique; the sample's
// main.cpp tells the story around it.
class FirFilter {
public:
    // `memory`: MemoryMode::map or MemoryMode::copy (host_memory.hpp). The coefficients' size
    // is built in (-DRADIUS); their values are not.
    FirFilter(const OpenClContext& cl, Border border,
              const FirCoefficients& coefficients = FirCoefficients{},
              MemoryMode memory = MemoryMode::copy);

    // New weights of the same size for the next run; the program is not rebuilt (they are
    // kernel arguments, or a buffer). Another size throws std::invalid_argument.
    void set_coefficients(const FirCoefficients& coefficients);
    // Allocates device buffers for this image size and puts the luminance in as floats; returns
    // when the data is on the device.
    void upload(const Image& luminance);
    // Or: allocate only, and fill luminance_buffer() another way (floats, rows float_pitch()
    // apart), e.g. converted on the device from the file's rows; output_buffer() has the same
    // layout. download_luminance() brings the luminance back as 8 bits, for --verify.
    void allocate(std::size_t width, std::size_t height);
    // One row's cost to the float buffers, for cutting images into bands (common/runtime/bands.hpp).
    static RowFootprint row_footprint(std::size_t width);
    const cl::Buffer& luminance_buffer() const { return luminance_; }
    const cl::Buffer& output_buffer() const { return output_; }
    std::size_t float_pitch() const { return row_pitch_bytes_ / sizeof(cl_float); }
    Image download_luminance();
    // Fills the output with `value` (tests poison it with NaN so that pixels a kernel skips show).
    void fill_output(float value);
    // The work-group shape, 32x8 unless set (--work-group, or what --variant auto tuned). A
    // shape the kernel cannot run on this device is a UsageError naming the limit.
    void set_work_group(std::size_t x, std::size_t y);
    // One run of the kernel over the uploaded image; the event times it.
    cl::Event run();

    // The filtered image, float32, one value per pixel, rows top-down.
    std::vector<float> download();

    const LaunchSize& launch_size() const { return launch_; }
    // Bytes the kernel must move: the float image read once and the float output written once.
    std::uint64_t bytes_moved() const { return 8 * pixel_count(); }
    std::uint64_t pixel_count() const { return std::uint64_t{width_} * height_; }

private:
    // Sets all of fir_float's arguments in one call; after upload, since the buffers and sizes
    // are among them.
    void bind_arguments();
    void size_launch();

    OpenClContext cl_;
    MemoryMode memory_;
    int size_;                 // K, built in
    std::string kernel_name_;
    cl::Program program_;
    cl::Kernel kernel_;
    cl::Buffer luminance_;
    cl::Buffer output_;
    // The weights as the kernel takes them: one float4 per window row (above, here, below).
    std::array<cl_float4, 3> weight_rows_{};
    // Larger windows: the K*K weights, row-major, read by the kernel as __constant.
    cl::Buffer weights_;
    LaunchSize launch_;
    std::size_t work_group_x_ = 32;
    std::size_t work_group_y_ = 8;
    std::size_t width_ = 0;
    std::size_t height_ = 0;
    std::size_t row_pitch_bytes_ = 0;  // device rows start this far apart (a multiple of 64)
};

}  // namespace sdk
