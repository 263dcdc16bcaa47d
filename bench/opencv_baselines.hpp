// SPDX-License-Identifier: Apache-2.0
#pragma once
// The same filters through OpenCV on the host CPU, as a baseline in the same run (only built
// when CMake finds OpenCV; see bench/CMakeLists.txt).
#include "bench_support.hpp"

#include <filesystem>
#include <string>

namespace sdk::bench {

// Registers opencv/sobel/cv_sobel_dx_dy, opencv/fir/cv_filter2d and
// opencv/morphology/cv_dilate_3x3 for one size.
void register_opencv_baselines(Size size);

#ifdef SDK_BENCH_OPENCV_FILES
// The sobel sample's job done with OpenCV on the host, file to file: read the BMP, BGR to grey,
// Sobel dx and dy (3x3, 16-bit), the magnitude, write it as an 8-bit image (bench/file_runs).
void opencv_sobel_job(const std::filesystem::path& input, const std::filesystem::path& output);
#endif

// "4.6.0, 16 threads": for the report's context.
std::string opencv_description();

}  // namespace sdk::bench
