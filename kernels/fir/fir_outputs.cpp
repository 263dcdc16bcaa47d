// SPDX-License-Identifier: Apache-2.0
#include "kernels/fir/fir_outputs.hpp"

#include "kernels/fir/fir_reference.hpp"
#include "common/imageio/npy.hpp"

#include <chrono>
#include <stdexcept>
#include <string>

namespace sdk {

FirHostCopies fir_host_copies(std::size_t width, std::size_t height)
{
    return {Image{width, height, 1, std::vector<std::uint8_t>(width * height)},
            std::vector<float>(width * height)};
}

void add_band(FirHostCopies& copies, FirFilter& fir, const Band& band)
{
    const std::size_t width = copies.luminance.width;
    place_band_rows(band, fir.download_luminance().pixels, width, copies.luminance.pixels);
    place_band_rows(band, fir.download(), width, copies.output);
}

std::vector<std::filesystem::path> fir_output_paths(
    const std::filesystem::path& output, const std::optional<std::filesystem::path>& raw_folder)
{
    if (!raw_folder) return {output};
    return {output, *raw_folder / "output.npy", *raw_folder / "luminance.npy"};
}

void write_fir_raw(const std::filesystem::path& folder, const Image& luminance,
                   const std::vector<float>& output_values)
{
    std::filesystem::create_directories(folder);
    write_npy(folder / "output.npy", output_values, luminance.height, luminance.width);
    write_npy(folder / "luminance.npy", luminance.pixels, luminance.height, luminance.width);
}

double verify_fir(std::ostream& out, const Image& luminance, const FirCoefficients& coefficients,
                  Border border, const std::vector<float>& output)
{
    const auto start = std::chrono::steady_clock::now();
    const std::vector<double> expected = fir_reference(luminance, coefficients, border);
    const double reference_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    // Infinite when a pixel is NaN or the sizes differ (max_abs_difference), so those fail too.
    const double error = max_abs_difference(output, expected);
    const double tolerance = fir_tolerance(coefficients);
    if (!(error <= tolerance))
        throw std::runtime_error(
            "verification failed: max |difference| from the C++ reference "
            "is " +
            std::to_string(error) + ", more than the tolerance " + std::to_string(tolerance));
    out << "Verify: max |difference| from the C++ reference " << error << " (tolerance "
        << tolerance << ")\n";
    return reference_ms;
}

}  // namespace sdk
