// SPDX-License-Identifier: Apache-2.0
// The separable path: weights that are an outer product, column[j] * row[i], filter in two 1-D
// passes (kernels/fir/fir_separable.hpp finds the factors). fir_rows filters each row into a
// float buffer of row sums, handling the left and right borders; fir_columns filters each column
// of the row sums, handling the top and bottom. 2K loads per output instead of K*K. Both keep
// the 2-D kernels' layout: 4 outputs per work-item along a row, rows `row_pitch` floats apart.
#include "fir_window.cl"

// [Row pass]
inline float row_sum_with_border(__global const float* luminance, int width, int height,
                                 int row_pitch, int x, int y, __constant float* row_weights)
{
#if defined(BORDER_NONE)
    // Columns within RADIUS of the left or right edge are not computed (the column pass zeroes
    // those outputs itself).
    if (x < RADIUS || x + RADIUS >= width) return 0.0f;
#endif
    return window_row_with_border(luminance, width, height, row_pitch, x, y, row_weights);
}

/**
 * The row pass: row sums x0 .. x0+3 of row y, x0 = 4 * get_global_id(0), y = get_global_id(1).
 * @param luminance the input image, one float a pixel, rows `row_pitch` floats apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch floats from one row's start to the next, a multiple of 16 (64 bytes), the
 *        same in both images
 * @param row_weights the row factor's K weights, the leftmost first
 * @param row_sums the row sums, one float a pixel, rows `row_pitch` floats apart
 */
__kernel void fir_rows(__global const float* restrict luminance, const int width, const int height,
                       const int row_pitch, __constant float* row_weights,
                       __global float* restrict row_sums)
{
    const int x0 = get_global_id(0) * 4;
    const int y = get_global_id(1);
    if (x0 >= width || y >= height) return;
    if (x0 < RADIUS || x0 + 3 + RADIUS >= width) {
        for (int x = x0; x < min(x0 + 4, width); ++x)
            row_sums[y * row_pitch + x] =
                row_sum_with_border(luminance, width, height, row_pitch, x, y, row_weights);
        return;
    }
    const __global float* row = luminance + y * row_pitch + x0 - RADIUS;
    float4 sum = 0.0f;
    for (int i = 0; i < WINDOW; ++i) sum += vload4(0, row + i) * row_weights[i];
    *(__global float4*)(row_sums + y * row_pitch + x0) = sum;
}
// [Row pass]

// [Column pass]
inline float column_sum_with_border(__global const float* row_sums, int width, int height,
                                    int row_pitch, int x, int y, __constant float* column_weights)
{
    // The 2-D rule exactly: 0 within RADIUS of any edge (not a sum of zeros, which may be -0).
    if (!fir_computed(x, y, width, height)) return 0.0f;
    float sum = 0.0f;
    for (int j = 0; j < WINDOW; ++j)
        sum += column_weights[j] *
               read_float_with_border(row_sums, width, height, row_pitch, x, y - RADIUS + j);
    return sum;
}

/**
 * The column pass: outputs x0 .. x0+3 of row y, x0 = 4 * get_global_id(0), y = get_global_id(1).
 * @param row_sums fir_rows's output, one float a pixel, rows `row_pitch` floats apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch floats from one row's start to the next, a multiple of 16 (64 bytes), the
 *        same in both images
 * @param column_weights the column factor's K weights, the top one first
 * @param output the filtered image, one float a pixel, rows `row_pitch` floats apart
 */
__kernel void fir_columns(__global const float* restrict row_sums, const int width,
                          const int height, const int row_pitch, __constant float* column_weights,
                          __global float* restrict output)
{
    const int x0 = get_global_id(0) * 4;
    const int y = get_global_id(1);
    if (x0 >= width || y >= height) return;
#if defined(BORDER_NONE)
    const bool edge_columns = x0 < RADIUS || x0 + 3 + RADIUS >= width;
#else
    const bool edge_columns = x0 + 3 >= width;  // only the row's partial tail
#endif
    if (edge_columns || y < RADIUS || y + RADIUS >= height) {
        for (int x = x0; x < min(x0 + 4, width); ++x)
            output[y * row_pitch + x] =
                column_sum_with_border(row_sums, width, height, row_pitch, x, y, column_weights);
        return;
    }
    // [Column sums]
    // x0 is a multiple of 4 and rows start on 64-byte boundaries: every load is one aligned
    // float4, the column's neighbours a row_pitch apart.
    const __global float* column = row_sums + (y - RADIUS) * row_pitch + x0;
    float4 sum = 0.0f;
    for (int j = 0; j < WINDOW; ++j)
        sum += *(const __global float4*)(column + j * row_pitch) * column_weights[j];
    *(__global float4*)(output + y * row_pitch + x0) = sum;
    // [Column sums]
}
// [Column pass]
