#pragma once
#include "imageio/image.hpp"
#include "runtime/pipeline_timer.hpp"

#include <filesystem>
#include <vector>

namespace sdk {

// Refuses, before any work, output paths that name the input file or lie in missing folders.
void check_output_paths(const std::filesystem::path& input,
                        const std::vector<std::filesystem::path>& outputs);

// Reads the input image (BMP, PNG or JPEG, recognised by its first bytes: read_image) and
// converts it to 8-bit luminance (grey images pass through unchanged).
// Refuses first, before any work, output paths that name the input file (check_output_paths).
// With a `pipeline`, reading and converting are timed as its first two steps.
Image load_luminance(const std::filesystem::path& input,
                     const std::vector<std::filesystem::path>& outputs,
                     PipelineTimer* pipeline = nullptr);

}  // namespace sdk
