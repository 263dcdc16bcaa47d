// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/border.hpp"
#include "kernels/fir/fir_coefficients.hpp"
#include "kernels/fir/fir_filter.hpp"
#include "common/runtime/bands.hpp"
#include "common/imageio/image.hpp"

#include <filesystem>
#include <optional>
#include <ostream>
#include <vector>

namespace sdk {

// The files a FIR run writes: output.bmp, the float output rounded and clamped to 8 bits
// (to_8bit, done on the device by float_to_8bit), and with --save-raw output.npy (the exact
// floats) and luminance.npy.
// The host's copies of a run's images, whole: what --save-raw and --verify use. A run in bands
// adds each band's output rows (add_band) as it goes.
struct FirHostCopies {
    Image luminance;
    std::vector<float> output;
};
FirHostCopies fir_host_copies(std::size_t width, std::size_t height);
// Downloads the band just run by `fir` and keeps its output rows.
void add_band(FirHostCopies& copies, FirFilter& fir, const Band& band);

std::vector<std::filesystem::path> fir_output_paths(
    const std::filesystem::path& output, const std::optional<std::filesystem::path>& raw_folder);

// The --save-raw files alone: output.npy (the exact floats) and luminance.npy in `folder`.
void write_fir_raw(const std::filesystem::path& folder, const Image& luminance,
                   const std::vector<float>& output_values);

// Compares the float output with the double-precision C++ reference: prints a line when every
// pixel is within fir_tolerance, throws std::runtime_error("verification failed: ...") when not.
// Returns the reference's own run time in ms (single thread), for the CPU comparison.
double verify_fir(std::ostream& out, const Image& luminance, const FirCoefficients& coefficients,
                  Border border, const std::vector<float>& output);

}  // namespace sdk
