#pragma once
#include "imageio/image.hpp"
#include "runtime/pipeline_timer.hpp"
#include "filters/sobel/sobel_filter.hpp"
#include "filters/sobel/sobel_reference.hpp"

#include <filesystem>
#include <optional>
#include <ostream>
#include <vector>

namespace sdk {

// Upload, one kernel run, download: each a step of `pipeline`, named with the memory mode.
struct SobelRun {
    SobelGradients gradients;
    cl::Event kernel;  // for the Mali SDK's queued/wait/run figures
};
SobelRun upload_run_download(SobelFilter& sobel, const Image& luminance, MemoryMode memory,
                             PipelineTimer& pipeline);

// The files a Sobel run writes: output.bmp (magnitude), output-dX.bmp and output-dY.bmp (|dX|,
// |dY|), and with --save-raw dx.npy, dy.npy, magnitude.npy, luminance.npy.
std::vector<std::filesystem::path> sobel_output_paths(const std::filesystem::path& output);

void write_sobel_outputs(const std::filesystem::path& output,
                         const std::optional<std::filesystem::path>& raw_folder, const Image& luminance,
                         const SobelGradients& gradients, const std::vector<std::uint8_t>& magnitude);

// Compares with the C++ reference bit for bit: prints a line when equal, throws when not.
// Returns the reference's own run time in ms (single thread), for the CPU comparison.
double verify_sobel(std::ostream& out, const Image& luminance, Border border,
                    const SobelGradients& gradients, const std::vector<std::uint8_t>& magnitude);

}  // namespace sdk
