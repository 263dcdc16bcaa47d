#pragma once
#include "../cli.hpp"
#include "../image.hpp"
#include "../reference/sobel_reference.hpp"

#include <filesystem>
#include <ostream>
#include <vector>

namespace sdk {

// The files a Sobel run writes: output.bmp (magnitude), output-dX.bmp and output-dY.bmp (|dX|,
// |dY|), and with --save-raw dx.npy, dy.npy, magnitude.npy, luminance.npy.
std::vector<std::filesystem::path> sobel_output_paths(const CommonOptions& options);

void write_sobel_outputs(const CommonOptions& options, const Image& luminance,
                         const SobelGradients& gradients, const std::vector<std::uint8_t>& magnitude);

// Compares with the C++ reference bit for bit: prints a line when equal, throws when not.
void verify_sobel(std::ostream& out, const Image& luminance, Border border,
                  const SobelGradients& gradients, const std::vector<std::uint8_t>& magnitude);

}  // namespace sdk
