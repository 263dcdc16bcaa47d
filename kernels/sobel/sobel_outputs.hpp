// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/imageio/image.hpp"
#include "common/runtime/pipeline_timer.hpp"
#include "kernels/sobel/sobel_filter.hpp"
#include "kernels/sobel/sobel_reference.hpp"

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

// The host's copies of a run's images, whole: what --save-gradients, --save-raw and --verify
// use. A run in bands adds each band's output rows (add_band) as it goes.
struct SobelHostCopies {
    Image luminance;
    SobelGradients gradients;
    std::vector<std::uint8_t> magnitude;
};
SobelHostCopies sobel_host_copies(std::size_t width, std::size_t height);
// Downloads the band just run by `sobel` and keeps its output rows.
void add_band(SobelHostCopies& copies, SobelFilter& sobel, const Band& band);

// Every file a Sobel run writes: `output` (the magnitude), with `gradients` output-dX.bmp and
// output-dY.bmp (|dX|, |dY|), and with a `raw_folder` the write_sobel_raw files in it.
std::vector<std::filesystem::path> sobel_output_paths(
    const std::filesystem::path& output, bool gradients,
    const std::optional<std::filesystem::path>& raw_folder);

// output-dX.bmp and output-dY.bmp: |dX| and |dY| as grey images.
void write_gradient_images(const std::filesystem::path& output, std::size_t width,
                           std::size_t height, const SobelGradients& gradients);
// dx.npy, dy.npy, magnitude.npy and luminance.npy in `folder` (created if missing).
void write_sobel_raw(const std::filesystem::path& folder, const Image& luminance,
                     const SobelGradients& gradients, const std::vector<std::uint8_t>& magnitude);

// Compares with the C++ reference bit for bit: prints a line when equal, throws when not.
// Returns the reference's own run time in ms (single thread), for the CPU comparison.
double verify_sobel(std::ostream& out, const Image& luminance, Border border,
                    const SobelGradients& gradients, const std::vector<std::uint8_t>& magnitude);

}  // namespace sdk
