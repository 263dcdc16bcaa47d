// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/morphology/morphology_filter.hpp"
#include "kernels/morphology/morphology_reference.hpp"
#include "common/runtime/bands.hpp"
#include "common/imageio/image.hpp"
#include "common/imageio/pbm.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <ostream>
#include <vector>

namespace sdk {

// What a run produces: the output image (255 = foreground) and the packed input and result.
struct MorphologyResult {
    std::vector<std::uint8_t> output;
    PackedBitmap packed_input;
    PackedBitmap packed_output;
};

// The files a run writes: output.bmp (foreground white), and with --save-raw input.pbm (the
// binarised input), output.pbm (the result), P4 with 1 = foreground, and luminance.npy.
// The host's copies of a run's images, whole: what --save-raw (with `packed`, the packed
// bitmaps too) and --verify use. A run in bands adds each band's output rows (add_band).
struct MorphologyHostCopies {
    Image luminance;
    MorphologyResult result;
};
MorphologyHostCopies morphology_host_copies(std::size_t width, std::size_t height);
// Downloads the band just run by `morphology` and keeps its output rows.
void add_band(MorphologyHostCopies& copies, MorphologyFilter& morphology, const Band& band,
              bool packed);

std::vector<std::filesystem::path> morphology_output_paths(
    const std::filesystem::path& output, const std::optional<std::filesystem::path>& raw_folder);

// The --save-raw files alone: input.pbm, output.pbm and luminance.npy in `folder`.
void write_morphology_raw(const std::filesystem::path& folder, const Image& luminance,
                          const MorphologyResult& result);

// Compares the output with the C++ reference bit for bit: prints a line when equal, throws
// std::runtime_error("verification failed: ...") when not.
void verify_morphology(std::ostream& out, const Image& luminance, const Binarisation& binarisation,
                       MorphologyOperation operation, const StructuringElement& element,
                       const Roi& roi, const std::vector<std::uint8_t>& output);

}  // namespace sdk
