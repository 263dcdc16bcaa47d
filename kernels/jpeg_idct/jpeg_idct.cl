// SPDX-License-Identifier: Apache-2.0
// The data-parallel half of a JPEG's decoding: the host's entropy decoder (libjpeg) leaves the
// luminance plane's quantised DCT coefficients, and here each work-item turns one 8x8 block of
// them into 64 luminance samples, bit for bit as libjpeg-turbo's default inverse DCT (JDCT_ISLOW)
// does. The contract, and the factorisation explained: jpeg_idct_reference.hpp.

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

// x / 2^bits rounded to nearest, halves up.
inline int descale(int x, int bits)
{
    return (x + (1 << (bits - 1))) >> bits;
}

// [One 8-point IDCT]
// in[0..7] (`in_step` apart) to out[0..7] (`out_step` apart), descaled by `bits`: the even inputs
// make a 4-point IDCT, the odd ones four rotations sharing their sums.
inline void idct_8(const int* in, int in_step, int* out, int out_step, int bits)
{
    const int x0 = in[0], x1 = in[in_step], x2 = in[2 * in_step], x3 = in[3 * in_step];
    const int x4 = in[4 * in_step], x5 = in[5 * in_step], x6 = in[6 * in_step];
    const int x7 = in[7 * in_step];

    const int rotation = (x2 + x6) * C6;
    const int even_a = rotation + x2 * C2_MINUS_C6;
    const int even_b = rotation - x6 * C2_PLUS_C6;
    const int sum = (x0 + x4) * (1 << CONST_BITS);
    const int difference = (x0 - x4) * (1 << CONST_BITS);
    const int even[4] = {sum + even_a, difference + even_b, difference - even_b, sum - even_a};

    const int shared = (x7 + x5 + x3 + x1) * C3;
    const int pair_71 = -(x7 + x1) * C3_MINUS_C7;
    const int pair_53 = -(x5 + x3) * C1_PLUS_C3;
    const int pair_73 = shared - (x7 + x3) * C3_PLUS_C5;
    const int pair_51 = shared - (x5 + x1) * C3_MINUS_C5;
    const int odd[4] = {x1 * ODD1 + pair_71 + pair_51, x3 * ODD3 + pair_53 + pair_73,
                        x5 * ODD5 + pair_53 + pair_51, x7 * ODD7 + pair_71 + pair_73};

    for (int i = 0; i < 4; ++i) {
        out[i * out_step] = descale(even[i] + odd[i], bits);
        out[(7 - i) * out_step] = descale(even[i] - odd[i], bits);
    }
}
// [One 8-point IDCT]

// Offset by 128 and clamped as libjpeg's range-limit table does: on the low 10 bits.
inline uchar range_limit(int value)
{
    const int low_bits = value & 1023;
    const int wrapped = low_bits >= 512 ? low_bits - 1024 : low_bits;
    return (uchar)clamp(wrapped + 128, 0, 255);
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
        int values[64];
        for (int k = 0; k < 64; ++k) values[k] = block[k] * quantisation[k];
        int columns[64];
        for (int x = 0; x < 8; ++x)
            idct_8(values + x, 8, columns + x, 8, CONST_BITS - PASS1_BITS);
        for (int y = 0; y < 8; ++y) {
            int row[8];
            idct_8(columns + 8 * y, 1, row, 1, CONST_BITS + PASS1_BITS + 3);
            for (int x = 0; x < 8; ++x) samples[8 * y + x] = x0 + x < width ? range_limit(row[x]) : 0;
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
