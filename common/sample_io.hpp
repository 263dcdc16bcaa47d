#pragma once
#include "image.hpp"

#include <filesystem>
#include <vector>

namespace sdk {

// Reads the input BMP and converts it to 8-bit luminance (grey images pass through unchanged).
// Refuses first, before any work, output paths that name the input file.
Image load_luminance(const std::filesystem::path& input,
                     const std::vector<std::filesystem::path>& outputs);

}  // namespace sdk
