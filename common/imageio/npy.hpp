// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <vector>

namespace sdk {

// NumPy .npy version 1.0 files holding a (height, width) array in C order, for comparing filter
// output with Python. Element types: uint8 ('|u1'), int8 ('|i1'), float32 ('<f4'). Each throws
// std::invalid_argument when values.size() != height * width.
std::vector<std::uint8_t> encode_npy(const std::vector<std::uint8_t>& values, std::size_t height,
                                     std::size_t width);
std::vector<std::uint8_t> encode_npy(const std::vector<std::int8_t>& values, std::size_t height,
                                     std::size_t width);
std::vector<std::uint8_t> encode_npy(const std::vector<float>& values, std::size_t height,
                                     std::size_t width);

// encode_npy, then write_file_atomically (which throws FileError on failure).
void write_npy(const std::filesystem::path& path, const std::vector<std::uint8_t>& values,
               std::size_t height, std::size_t width);
void write_npy(const std::filesystem::path& path, const std::vector<std::int8_t>& values,
               std::size_t height, std::size_t width);
void write_npy(const std::filesystem::path& path, const std::vector<float>& values,
               std::size_t height, std::size_t width);

}  // namespace sdk
