// SPDX-License-Identifier: Apache-2.0
#include "kernels/sobel/sobel_outputs.hpp"

#include "common/imageio/image_file.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/npy.hpp"
#include "common/runtime/transfers.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>

namespace sdk {

SobelHostCopies sobel_host_copies(std::size_t width, std::size_t height)
{
    const std::size_t pixels = width * height;
    return {Image{width, height, 1, std::vector<std::uint8_t>(pixels)},
            SobelGradients{std::vector<std::int8_t>(pixels), std::vector<std::int8_t>(pixels)},
            std::vector<std::uint8_t>(pixels)};
}

void add_band(SobelHostCopies& copies, SobelFilter& sobel, const Band& band)
{
    const std::size_t width = copies.luminance.width;
    place_band_rows(band, sobel.download_luminance().pixels, width, copies.luminance.pixels);
    const SobelGradients gradients = sobel.download();
    place_band_rows(band, gradients.dx, width, copies.gradients.dx);
    place_band_rows(band, gradients.dy, width, copies.gradients.dy);
    place_band_rows(band, sobel.download_magnitude(), width, copies.magnitude);
}

SobelRun upload_run_download(SobelFilter& sobel, const Image& luminance, MemoryMode memory,
                             PipelineTimer& pipeline)
{
    const std::uint64_t pixels = luminance.pixels.size();
    const std::string how = " (" + memory_mode_name(memory) + ")";
    SobelRun result;
    pipeline.time("upload" + how, pixels, [&] { sobel.upload(luminance); });
    pipeline.time("kernel", sobel.bytes_moved(), [&] {
        result.kernel = sobel.run();
        result.kernel.wait();
    });
    result.gradients =
        pipeline.time("download dX, dY" + how, 2 * pixels, [&] { return sobel.download(); });
    return result;
}

std::vector<std::filesystem::path> sobel_output_paths(
    const std::filesystem::path& output, bool gradients,
    const std::optional<std::filesystem::path>& raw_folder)
{
    std::vector<std::filesystem::path> paths{output};
    if (gradients) {
        paths.push_back(with_suffix(output, "-dX"));
        paths.push_back(with_suffix(output, "-dY"));
    }
    if (raw_folder) {
        for (const char* name : {"dx.npy", "dy.npy", "magnitude.npy", "luminance.npy"})
            paths.push_back(*raw_folder / name);
    }
    return paths;
}

void write_gradient_images(const std::filesystem::path& output, std::size_t width,
                           std::size_t height, const SobelGradients& gradients)
{
    write_image(with_suffix(output, "-dX"), Image{width, height, 1, absolute_values(gradients.dx)});
    write_image(with_suffix(output, "-dY"), Image{width, height, 1, absolute_values(gradients.dy)});
}

void write_sobel_raw(const std::filesystem::path& folder, const Image& luminance,
                     const SobelGradients& gradients, const std::vector<std::uint8_t>& magnitude)
{
    std::filesystem::create_directories(folder);
    write_npy(folder / "dx.npy", gradients.dx, luminance.height, luminance.width);
    write_npy(folder / "dy.npy", gradients.dy, luminance.height, luminance.width);
    write_npy(folder / "magnitude.npy", magnitude, luminance.height, luminance.width);
    write_npy(folder / "luminance.npy", luminance.pixels, luminance.height, luminance.width);
}

double verify_sobel(std::ostream& out, const Image& luminance, Border border,
                    const SobelGradients& gradients, const std::vector<std::uint8_t>& magnitude)
{
    const auto start = std::chrono::steady_clock::now();
    const SobelGradients expected = sobel_reference(luminance, border);
    const double reference_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const auto expected_magnitude = gradient_magnitude(expected);
    int max_error = 0;
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < expected.dx.size(); ++i) {
        const int error = std::max({std::abs(expected.dx[i] - gradients.dx[i]),
                                    std::abs(expected.dy[i] - gradients.dy[i]),
                                    std::abs(expected_magnitude[i] - magnitude[i])});
        if (error) ++mismatches;
        max_error = std::max(max_error, error);
    }
    if (mismatches == 0) {
        out << "Verify: dX, dY and magnitude equal the C++ reference (max |difference| 0)\n";
        return reference_ms;
    }
    throw std::runtime_error("verification failed: " + std::to_string(mismatches) +
                             " pixels differ from the C++ reference, max |difference| " +
                             std::to_string(max_error));
}

}  // namespace sdk
