#include "filters/morphology/morphology_outputs.hpp"

#include "imageio/npy.hpp"

#include <stdexcept>
#include <string>

namespace sdk {

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
                       MorphologyOperation operation, MorphologyShape shape, const Roi& roi,
                       const std::vector<std::uint8_t>& output)
{
    const Image expected =
        morphology_reference(binarise_reference(luminance, binarisation), operation, shape, roi);
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
