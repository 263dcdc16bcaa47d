// SPDX-License-Identifier: Apache-2.0
#include "kernels/morphology/morphology_outputs.hpp"

#include "common/imageio/npy.hpp"

#include <stdexcept>
#include <string>

namespace sdk {

MorphologyHostCopies morphology_host_copies(std::size_t width, std::size_t height)
{
    // The packed bitmaps take the device's row pitch, known at the first band.
    const PackedBitmap packed{width, height, 0, {}};
    return {Image{width, height, 1, std::vector<std::uint8_t>(width * height)},
            MorphologyResult{std::vector<std::uint8_t>(width * height), packed, packed}};
}

namespace {
void add_packed_band(PackedBitmap& whole, const PackedBitmap& band_bits, const Band& band)
{
    if (whole.bits.empty()) {
        whole.row_pitch = band_bits.row_pitch;
        whole.bits.assign(whole.row_pitch * whole.height, 0);
    }
    place_band_rows(band, band_bits.bits, whole.row_pitch, whole.bits);
}
}  // namespace

void add_band(MorphologyHostCopies& copies, MorphologyFilter& morphology, const Band& band,
              bool packed)
{
    const std::size_t width = copies.luminance.width;
    place_band_rows(band, morphology.download_luminance().pixels, width, copies.luminance.pixels);
    place_band_rows(band, morphology.download(), width, copies.result.output);
    if (!packed) return;
    add_packed_band(copies.result.packed_input, morphology.download_packed_input(), band);
    add_packed_band(copies.result.packed_output, morphology.download_packed_result(), band);
}

std::vector<std::filesystem::path> morphology_output_paths(
    const std::filesystem::path& output, const std::optional<std::filesystem::path>& raw_folder)
{
    if (!raw_folder) return {output};
    return {output, *raw_folder / "input.pbm", *raw_folder / "output.pbm",
            *raw_folder / "luminance.npy"};
}

void write_morphology_raw(const std::filesystem::path& folder, const Image& luminance,
                          const MorphologyResult& result)
{
    std::filesystem::create_directories(folder);
    write_pbm(folder / "input.pbm", result.packed_input);
    write_pbm(folder / "output.pbm", result.packed_output);
    write_npy(folder / "luminance.npy", luminance.pixels, luminance.height, luminance.width);
}

void verify_morphology(std::ostream& out, const Image& luminance, const Binarisation& binarisation,
                       MorphologyOperation operation, const StructuringElement& element,
                       const Roi& roi, const std::vector<std::uint8_t>& output)
{
    const Image expected =
        morphology_reference(binarise_reference(luminance, binarisation), operation, element, roi);
    std::size_t mismatches = 0;
    std::size_t first = 0;
    for (std::size_t i = 0; i < expected.pixels.size(); ++i) {
        if (output.at(i) != (expected.pixels[i] ? 255 : 0) && mismatches++ == 0) first = i;
    }
    if (mismatches == 0) {
        out << "Verify: the output equals the C++ reference bit for bit\n";
        return;
    }
    throw std::runtime_error("verification failed: " + std::to_string(mismatches) +
                             " pixels differ from the C++ reference, the first at (" +
                             std::to_string(first % luminance.width) + ", " +
                             std::to_string(first / luminance.width) + ")");
}

}  // namespace sdk
