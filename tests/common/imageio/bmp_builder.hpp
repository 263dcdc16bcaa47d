// SPDX-License-Identifier: Apache-2.0
#pragma once

// A deliberately naive BMP writer for tests, independent of the SDK's encoder: every header
// field is taken from the spec as given, so tests can build both valid files in layouts the SDK
// never writes and malformed ones.

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace bmptest {

struct BmpSpec {
    std::int32_t width = 1;
    std::int32_t height = 1;  // as stored: negative means rows are stored top-down
    std::uint16_t planes = 1;
    std::uint16_t bpp = 24;
    std::uint32_t compression = 0;  // 0 BI_RGB, 1 RLE8, 2 RLE4, 3 BI_BITFIELDS, 4 JPEG, 5 PNG
    std::uint32_t header_size = 40;
    std::vector<std::uint32_t> palette;  // 0x00RRGGBB entries, written as B, G, R, 0
    std::uint32_t colours_used = 0;      // biClrUsed exactly as written
    // R, G, B masks: written after a 40-byte header when compression is BI_BITFIELDS, and into
    // the mask fields of V4 / V5 headers always.
    std::array<std::uint32_t, 3> masks{};
    std::size_t gap = 0;                        // zero bytes between the palette and the pixel data
    std::optional<std::uint32_t> pixel_offset;  // default: where the pixel data starts
    // One value per pixel, top row first: a palette index for bpp <= 8, 0xRRGGBB for 24 bit,
    // the raw little-endian pixel word for 16 and 32 bit (so 0xXXRRGGBB for 32-bit BI_RGB).
    std::vector<std::uint32_t> values;
};

inline void put_le(std::vector<std::uint8_t>& out, std::uint64_t value, int bytes)
{
    for (int i = 0; i < bytes; ++i) {
        out.push_back(static_cast<std::uint8_t>((value >> (8 * i)) & 0xFF));
    }
}

inline std::vector<std::uint8_t> pack_row(const BmpSpec& spec, std::size_t row)
{
    const std::size_t width = static_cast<std::size_t>(spec.width);
    std::vector<std::uint8_t> bytes;
    if (spec.bpp < 8) {
        // Accumulate into a bit string, most significant bit first within each byte.
        std::vector<bool> bits;
        for (std::size_t x = 0; x < width; ++x) {
            const std::uint32_t value = spec.values.at(row * width + x);
            for (int b = spec.bpp - 1; b >= 0; --b) {
                bits.push_back(((value >> b) & 1u) != 0);
            }
        }
        while (bits.size() % 8 != 0) {
            bits.push_back(false);
        }
        for (std::size_t i = 0; i < bits.size(); i += 8) {
            std::uint8_t byte = 0;
            for (std::size_t j = 0; j < 8; ++j) {
                byte = static_cast<std::uint8_t>(byte * 2 + (bits[i + j] ? 1 : 0));
            }
            bytes.push_back(byte);
        }
    } else {
        for (std::size_t x = 0; x < width; ++x) {
            put_le(bytes, spec.values.at(row * width + x), spec.bpp / 8);
        }
    }
    while (bytes.size() % 4 != 0) {
        bytes.push_back(0);
    }
    return bytes;
}

inline std::vector<std::uint8_t> build_bmp(const BmpSpec& spec)
{
    std::vector<std::uint8_t> info;
    put_le(info, spec.header_size, 4);
    put_le(info, static_cast<std::uint32_t>(spec.width), 4);
    put_le(info, static_cast<std::uint32_t>(spec.height), 4);
    put_le(info, spec.planes, 2);
    put_le(info, spec.bpp, 2);
    put_le(info, spec.compression, 4);
    put_le(info, 0, 4);  // biSizeImage: 0 is allowed for uncompressed data
    put_le(info, 3780, 4);
    put_le(info, 3780, 4);
    put_le(info, spec.colours_used, 4);
    put_le(info, 0, 4);
    if (spec.header_size >= 108) {
        for (std::uint32_t mask : spec.masks) {
            put_le(info, mask, 4);
        }
        put_le(info, 0, 4);           // alpha mask
        put_le(info, 0x73524742, 4);  // 'sRGB' colour space
    }
    info.resize(spec.header_size, 0);  // endpoints, gamma, V5 intent and profile fields
    if (spec.header_size == 40 && spec.compression == 3) {
        for (std::uint32_t mask : spec.masks) {
            put_le(info, mask, 4);
        }
    }
    for (std::uint32_t colour : spec.palette) {
        put_le(info, colour & 0xFF, 1);
        put_le(info, (colour >> 8) & 0xFF, 1);
        put_le(info, (colour >> 16) & 0xFF, 1);
        put_le(info, 0, 1);
    }

    info.insert(info.end(), spec.gap, 0);

    const std::int64_t height = spec.height;
    const auto rows = static_cast<std::size_t>(height < 0 ? -height : height);
    std::vector<std::uint8_t> pixels;
    for (std::size_t stored = 0; stored < rows; ++stored) {
        const std::size_t row = spec.height < 0 ? stored : rows - 1 - stored;
        const auto packed = pack_row(spec, row);
        pixels.insert(pixels.end(), packed.begin(), packed.end());
    }

    const std::uint32_t offset =
        spec.pixel_offset.value_or(static_cast<std::uint32_t>(14 + info.size()));
    std::vector<std::uint8_t> file = {'B', 'M'};
    put_le(file, 14 + info.size() + pixels.size(), 4);
    put_le(file, 0, 4);
    put_le(file, offset, 4);
    file.insert(file.end(), info.begin(), info.end());
    file.insert(file.end(), pixels.begin(), pixels.end());
    return file;
}

}  // namespace bmptest
