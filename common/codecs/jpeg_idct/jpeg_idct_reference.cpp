// SPDX-License-Identifier: Apache-2.0
#include "common/codecs/jpeg_idct/jpeg_idct_reference.hpp"

#include <algorithm>
#include <cstdlib>

namespace sdk {
namespace {

constexpr int kConstBits = 13;  // the multipliers' fraction bits
constexpr int kPass1Bits = 2;   // bits the first pass keeps beyond its input's
// The factorisation's multipliers, round(2^13 x), with c_k = cos(k pi / 16) and s = sqrt(2):
constexpr std::int32_t kC6 = 4433;         // s c6
constexpr std::int32_t kC2MinusC6 = 6270;  // s (c2 - c6)
constexpr std::int32_t kC2PlusC6 = 15137;  // s (c2 + c6)
constexpr std::int32_t kC3 = 9633;         // s c3
constexpr std::int32_t kOdd7 = 2446;       // s (-c1 + c3 + c5 - c7)
constexpr std::int32_t kOdd5 = 16819;      // s ( c1 + c3 - c5 + c7)
constexpr std::int32_t kOdd3 = 25172;      // s ( c1 + c3 + c5 - c7)
constexpr std::int32_t kOdd1 = 12299;      // s ( c1 + c3 - c5 - c7)
constexpr std::int32_t kC3MinusC7 = 7373;  // s (c3 - c7), negated where used
constexpr std::int32_t kC1PlusC3 = 20995;  // s (c1 + c3), negated
constexpr std::int32_t kC3PlusC5 = 16069;  // s (c3 + c5), negated
constexpr std::int32_t kC3MinusC5 = 3196;  // s (c3 - c5), negated

// libjpeg-turbo's SIMD code (x86's SSE2 and AVX2 alike) holds the samples between its steps in
// 16-bit lanes: the dequantised coefficients and the sums of two inputs wrap there (pmullw,
// paddw), each pass's results saturate there (packssdw), and the last pass's results saturate to
// a signed byte before 128 is added (packsswb). Its 32-bit sums never overflow: the largest, of
// 16-bit inputs times the multipliers, stays below 2^31.
std::int16_t wrap_16(std::int32_t x)
{
    return static_cast<std::int16_t>(static_cast<std::uint16_t>(x));
}
std::int16_t saturate_16(std::int32_t x)
{
    return static_cast<std::int16_t>(std::clamp(x, -32768, 32767));
}

// x / 2^bits rounded to nearest, halves up (the shift of a negative sum rounds down, as
// libjpeg's does), saturated to 16 bits.
std::int16_t descale(std::int32_t x, int bits)
{
    return saturate_16((x + (1 << (bits - 1))) >> bits);
}

// One 8-point inverse DCT: in[0..7], `in_step` apart, to out[0..7], `out_step` apart, each
// output descaled by `bits`. The even inputs (0, 2, 4, 6) make a 4-point IDCT, the odd ones
// (1, 3, 5, 7) four rotations that share their sums; outputs i and 7 - i are the even part's
// i-th value plus and minus the odd part's. Each product pairs two inputs, as the SIMD code's
// multiply-adds do.
void idct_8(const std::int16_t* in, int in_step, std::int16_t* out, int out_step, int bits)
{
    const std::int32_t x0 = in[0], x1 = in[in_step], x2 = in[2 * in_step], x3 = in[3 * in_step];
    const std::int32_t x4 = in[4 * in_step], x5 = in[5 * in_step], x6 = in[6 * in_step];
    const std::int32_t x7 = in[7 * in_step];

    // Even part: the DC and the middle frequency scaled up exactly, 2 and 6 rotated.
    const std::int32_t even_a = x2 * (kC6 + kC2MinusC6) + x6 * kC6;
    const std::int32_t even_b = x2 * kC6 + x6 * (kC6 - kC2PlusC6);
    const std::int32_t sum = std::int32_t{wrap_16(x0 + x4)} * (1 << kConstBits);
    const std::int32_t difference = std::int32_t{wrap_16(x0 - x4)} * (1 << kConstBits);
    const std::int32_t even[4] = {sum + even_a, difference + even_b, difference - even_b,
                                  sum - even_a};

    // Odd part: the shared rotation of (x3 + x7) and (x1 + x5), then each input's own.
    const std::int32_t z37 = wrap_16(x3 + x7);
    const std::int32_t z15 = wrap_16(x1 + x5);
    const std::int32_t shared_37 = z37 * (kC3 - kC3PlusC5) + z15 * kC3;
    const std::int32_t shared_15 = z37 * kC3 + z15 * (kC3 - kC3MinusC5);
    const std::int32_t odd[4] = {x7 * -kC3MinusC7 + x1 * (kOdd1 - kC3MinusC7) + shared_15,
                                 x5 * -kC1PlusC3 + x3 * (kOdd3 - kC1PlusC3) + shared_37,
                                 x5 * (kOdd5 - kC1PlusC3) + x3 * -kC1PlusC3 + shared_15,
                                 x7 * (kOdd7 - kC3MinusC7) + x1 * -kC3MinusC7 + shared_37};

    for (int i = 0; i < 4; ++i) {
        out[i * out_step] = descale(even[i] + odd[i], bits);
        out[(7 - i) * out_step] = descale(even[i] - odd[i], bits);
    }
}

// A sample from the second pass's result: saturated to -128..127, then offset by 128, as the
// SIMD code's last step (packsswb, then adding 128) does. libjpeg's C code looks its range-limit
// table up by the low 10 bits instead, which wraps beyond +-512; the host decodes with the SIMD
// code, and the device must give the host's bytes.
std::uint8_t range_limit(std::int16_t value)
{
    return static_cast<std::uint8_t>(std::clamp<std::int32_t>(value, -128, 127) + 128);
}

}  // namespace

void idct_islow_block(const std::int16_t* coefficients, const std::uint16_t* quantisation,
                      std::uint8_t* out, std::size_t pitch)
{
    std::int16_t dequantised[64];
    for (int k = 0; k < 64; ++k)
        dequantised[k] = wrap_16(std::int32_t{coefficients[k]} * quantisation[k]);
    // Columns first (each column's 8 vertical frequencies), keeping kPass1Bits more bits...
    std::int16_t columns[64];
    bool vertical_frequencies = false;
    for (int k = 8; k < 64; ++k)
        vertical_frequencies = vertical_frequencies || coefficients[k] != 0;
    if (vertical_frequencies) {
        for (int x = 0; x < 8; ++x)
            idct_8(dequantised + x, 8, columns + x, 8, kConstBits - kPass1Bits);
    } else {
        // The SIMD code's shortcut for a block of one row of coefficients: each column's 8
        // values its first one shifted in 16 bits, where it wraps (the full pass saturates).
        for (int k = 0; k < 64; ++k)
            columns[k] = wrap_16(std::int32_t{dequantised[k % 8]} * (1 << kPass1Bits));
    }
    // ...then rows, dropping them and the 2D transform's factor of 8 too.
    for (int y = 0; y < 8; ++y) {
        std::int16_t samples[8];
        idct_8(columns + 8 * y, 1, samples, 1, kConstBits + kPass1Bits + 3);
        for (int x = 0; x < 8; ++x) out[y * pitch + x] = range_limit(samples[x]);
    }
}

Image luminance_from_coefficients(const JpegLuminanceCoefficients& plane)
{
    // The whole blocks first, then the image's width x height of them.
    const std::size_t plane_width = plane.blocks_wide * 8;
    std::vector<std::uint8_t> samples(plane_width * plane.blocks_high * 8);
    for (std::size_t by = 0; by < plane.blocks_high; ++by)
        for (std::size_t bx = 0; bx < plane.blocks_wide; ++bx)
            idct_islow_block(plane.coefficients.data() + (by * plane.blocks_wide + bx) * 64,
                             plane.quantisation.data(),
                             samples.data() + by * 8 * plane_width + bx * 8, plane_width);
    Image image{plane.width, plane.height, 1,
                std::vector<std::uint8_t>(plane.width * plane.height)};
    for (std::size_t y = 0; y < plane.height; ++y)
        std::copy_n(samples.data() + y * plane_width, plane.width,
                    image.pixels.data() + y * plane.width);
    return image;
}

bool idct_exact_for(const JpegLuminanceCoefficients& plane)
{
    // One pass over the blocks, no branch in it: the largest block sum, compared at the end.
    const std::int16_t* values = plane.coefficients.data();
    std::int64_t largest = 0;
    for (std::size_t block = 0; block < plane.coefficients.size(); block += 64) {
        std::int64_t sum = 0;
        for (int k = 0; k < 64; ++k)
            sum += std::abs(std::int32_t{values[block + k]}) * std::int64_t{plane.quantisation[k]};
        largest = std::max(largest, sum);
    }
    return largest <= kIdctExactBlockSum;
}

}  // namespace sdk
