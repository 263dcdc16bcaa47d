// SPDX-License-Identifier: Apache-2.0
// The data-parallel half of a JPEG's decoding: the host's entropy decoder (libjpeg) leaves the
// luminance plane's quantised DCT coefficients, and here each work-item turns one 8x8 block of
// them into 64 luminance samples, bit for bit as libjpeg-turbo's default inverse DCT (JDCT_ISLOW)
// does in the host's SIMD code, 16-bit steps included. The contract, and the factorisation
// explained: jpeg_idct_reference.hpp.

#define CONST_BITS 13  // the multipliers' fraction bits
#define PASS1_BITS 2   // bits the first pass keeps beyond its input's
// round(2^13 x), with c_k = cos(k pi / 16) and s = sqrt(2)
#define C6 4433           // s c6
#define C2_MINUS_C6 6270  // s (c2 - c6)
#define C2_PLUS_C6 15137  // s (c2 + c6)
#define C3 9633           // s c3
#define ODD7 2446         // s (-c1 + c3 + c5 - c7)
#define ODD5 16819        // s ( c1 + c3 - c5 + c7)
#define ODD3 25172        // s ( c1 + c3 + c5 - c7)
#define ODD1 12299        // s ( c1 + c3 - c5 - c7)
#define C3_MINUS_C7 7373  // s (c3 - c7)
#define C1_PLUS_C3 20995  // s (c1 + c3)
#define C3_PLUS_C5 16069  // s (c3 + c5)
#define C3_MINUS_C5 3196  // s (c3 - c5)

// The SIMD code's 16-bit lanes: a sum wraps there, a pass's result saturates.
inline int wrap_16(int x)
{
    return as_short((ushort)x);
}

// x / 2^bits rounded to nearest, halves up, saturated to 16 bits.
inline short descale(int x, int bits)
{
    return (short)clamp((x + (1 << (bits - 1))) >> bits, -32768, 32767);
}

// [One 8-point IDCT]
// in[0..7] (`in_step` apart) to out[0..7] (`out_step` apart), descaled by `bits`: the even inputs
// make a 4-point IDCT, the odd ones four rotations sharing their sums. Each product pairs two
// inputs, as the SIMD code's multiply-adds do; no 32-bit sum of 16-bit inputs overflows.
inline void idct_8(const short* in, int in_step, short* out, int out_step, int bits)
{
    const int x0 = in[0], x1 = in[in_step], x2 = in[2 * in_step], x3 = in[3 * in_step];
    const int x4 = in[4 * in_step], x5 = in[5 * in_step], x6 = in[6 * in_step];
    const int x7 = in[7 * in_step];

    const int even_a = x2 * (C6 + C2_MINUS_C6) + x6 * C6;
    const int even_b = x2 * C6 + x6 * (C6 - C2_PLUS_C6);
    const int sum = wrap_16(x0 + x4) * (1 << CONST_BITS);
    const int difference = wrap_16(x0 - x4) * (1 << CONST_BITS);
    const int even[4] = {sum + even_a, difference + even_b, difference - even_b, sum - even_a};

    const int z37 = wrap_16(x3 + x7);
    const int z15 = wrap_16(x1 + x5);
    const int shared_37 = z37 * (C3 - C3_PLUS_C5) + z15 * C3;
    const int shared_15 = z37 * C3 + z15 * (C3 - C3_MINUS_C5);
    const int odd[4] = {x7 * -C3_MINUS_C7 + x1 * (ODD1 - C3_MINUS_C7) + shared_15,
                        x5 * -C1_PLUS_C3 + x3 * (ODD3 - C1_PLUS_C3) + shared_37,
                        x5 * (ODD5 - C1_PLUS_C3) + x3 * -C1_PLUS_C3 + shared_15,
                        x7 * (ODD7 - C3_MINUS_C7) + x1 * -C3_MINUS_C7 + shared_37};

    for (int i = 0; i < 4; ++i) {
        out[i * out_step] = descale(even[i] + odd[i], bits);
        out[(7 - i) * out_step] = descale(even[i] - odd[i], bits);
    }
}
// [One 8-point IDCT]

// Saturated to -128..127 and offset by 128, as the SIMD code's last step does (libjpeg's C
// range-limit table would wrap beyond +-512 instead).
inline uchar range_limit(short value)
{
    return (uchar)(clamp((int)value, -128, 127) + 128);
}

// Work-item (bx, by) decodes block bx of block row first_row / 8 + by. `coefficients` holds
// those block rows only, blocks_wide blocks each of 64 coefficients row by row; `quantisation`
// their 64 multipliers. It writes the luminance rows first_row .. first_row + rows - 1 of its
// block into `luminance` (row first_row at offset 0, rows `row_pitch` bytes apart): the image's
// `width` samples, then zeros to the pitch. Work-items past the blocks write only those zeros.
__kernel void jpeg_idct_luminance(__global const short* restrict coefficients,
                                  __constant ushort* restrict quantisation, int blocks_wide,
                                  int width, int first_row, int rows,
                                  __global uchar* restrict luminance, int row_pitch)
{
    const int bx = get_global_id(0);
    const int by = get_global_id(1);
    const int x0 = 8 * bx;
    const int y0 = 8 * (first_row / 8 + by);
    if (x0 >= row_pitch || y0 >= first_row + rows) return;

    uchar samples[64] = {0};
    if (bx < blocks_wide) {
        // Dequantise, then columns (keeping PASS1_BITS more bits), then rows (dropping them and
        // the 2-D transform's factor of 8).
        __global const short* block = coefficients + (by * blocks_wide + bx) * 64;
        short values[64];
        bool vertical_frequencies = false;
        for (int k = 0; k < 64; ++k) {
            values[k] = (short)wrap_16(block[k] * quantisation[k]);
            vertical_frequencies = vertical_frequencies || (k >= 8 && block[k] != 0);
        }
        short columns[64];
        if (vertical_frequencies) {
            for (int x = 0; x < 8; ++x)
                idct_8(values + x, 8, columns + x, 8, CONST_BITS - PASS1_BITS);
        } else {
            // The SIMD code's shortcut for one row of coefficients: shifted in 16 bits, wrapping.
            for (int k = 0; k < 64; ++k)
                columns[k] = (short)wrap_16(values[k % 8] * (1 << PASS1_BITS));
        }
        for (int y = 0; y < 8; ++y) {
            short row[8];
            idct_8(columns + 8 * y, 1, row, 1, CONST_BITS + PASS1_BITS + 3);
            for (int x = 0; x < 8; ++x)
                samples[8 * y + x] = x0 + x < width ? range_limit(row[x]) : 0;
        }
    }
    // The block's rows within the band, whole 8 bytes where the pitch allows.
    const int y_begin = max(y0, first_row);
    const int y_end = min(y0 + 8, first_row + rows);
    for (int y = y_begin; y < y_end; ++y) {
        __global uchar* out = luminance + (y - first_row) * row_pitch + x0;
        const uchar* in = samples + 8 * (y - y0);
        if (x0 + 8 <= row_pitch) {
            vstore8(vload8(0, in), 0, out);
        } else {
            for (int x = 0; x < row_pitch - x0; ++x) out[x] = in[x];
        }
    }
}
