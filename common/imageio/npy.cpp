// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/npy.hpp"

#include "common/imageio/file_io.hpp"

#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

namespace sdk {
namespace {

// The format stores '<f4', so floats must be IEEE 754 binary32 to be copied bit for bit.
static_assert(std::numeric_limits<float>::is_iec559 && sizeof(float) == 4,
              "npy float32 output needs IEEE 754 single precision floats");

constexpr char kMagic[] = "\x93NUMPY";
constexpr std::size_t kMagicSize = 6;
constexpr std::size_t kPreambleSize = kMagicSize + 2 + 2;  // magic, version, header length
constexpr std::size_t kAlignment = 64;  // the spec's alignment, so readers can mmap the data

// Magic, version 1.0, header length and the header dict, padded with spaces and ended by '\n'
// so that the element data starts at a multiple of 64 bytes.
std::vector<std::uint8_t> preamble(const char* descr, std::size_t height, std::size_t width,
                                   std::size_t value_count)
{
    if (width != 0 && height > std::numeric_limits<std::size_t>::max() / width) {
        throw std::invalid_argument("encode_npy: shape overflows");
    }
    if (height * width != value_count) {
        throw std::invalid_argument("encode_npy: shape (" + std::to_string(height) + ", " +
                                    std::to_string(width) + ") needs " +
                                    std::to_string(height * width) + " values, got " +
                                    std::to_string(value_count));
    }
    std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, " +
                         "'shape': (" + std::to_string(height) + ", " + std::to_string(width) +
                         "), }";
    const std::size_t unpadded = kPreambleSize + header.size() + 1;  // +1 for the '\n'
    header.append((kAlignment - unpadded % kAlignment) % kAlignment, ' ');
    header.push_back('\n');

    std::vector<std::uint8_t> out(kMagic, kMagic + kMagicSize);
    out.push_back(1);                                                // major version
    out.push_back(0);                                                // minor version
    out.push_back(static_cast<std::uint8_t>(header.size() & 0xFF));  // little-endian uint16
    out.push_back(static_cast<std::uint8_t>(header.size() >> 8));
    out.insert(out.end(), header.begin(), header.end());
    return out;
}

}  // namespace

std::vector<std::uint8_t> encode_npy(const std::vector<std::uint8_t>& values, std::size_t height,
                                     std::size_t width)
{
    std::vector<std::uint8_t> out = preamble("|u1", height, width, values.size());
    out.insert(out.end(), values.begin(), values.end());
    return out;
}

std::vector<std::uint8_t> encode_npy(const std::vector<std::int8_t>& values, std::size_t height,
                                     std::size_t width)
{
    std::vector<std::uint8_t> out = preamble("|i1", height, width, values.size());
    for (const std::int8_t value : values) {
        out.push_back(static_cast<std::uint8_t>(value));  // two's complement bit pattern
    }
    return out;
}

std::vector<std::uint8_t> encode_npy(const std::vector<float>& values, std::size_t height,
                                     std::size_t width)
{
    std::vector<std::uint8_t> out = preamble("<f4", height, width, values.size());
    out.reserve(out.size() + values.size() * 4);
    for (const float value : values) {
        std::uint32_t bits = 0;
        std::memcpy(&bits, &value, sizeof bits);
        // Byte by byte so the file is little-endian whatever the host's byte order.
        for (int shift = 0; shift < 32; shift += 8) {
            out.push_back(static_cast<std::uint8_t>(bits >> shift));
        }
    }
    return out;
}

void write_npy(const std::filesystem::path& path, const std::vector<std::uint8_t>& values,
               std::size_t height, std::size_t width)
{
    const auto bytes = encode_npy(values, height, width);
    write_file_atomically(path, bytes.data(), bytes.size());
}

void write_npy(const std::filesystem::path& path, const std::vector<std::int8_t>& values,
               std::size_t height, std::size_t width)
{
    const auto bytes = encode_npy(values, height, width);
    write_file_atomically(path, bytes.data(), bytes.size());
}

void write_npy(const std::filesystem::path& path, const std::vector<float>& values,
               std::size_t height, std::size_t width)
{
    const auto bytes = encode_npy(values, height, width);
    write_file_atomically(path, bytes.data(), bytes.size());
}

}  // namespace sdk
