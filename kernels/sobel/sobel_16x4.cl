// SPDX-License-Identifier: Apache-2.0
// The Adreno optimisation post's data reuse: each work-item computes a 16x4 block of outputs, and
// each of the six input rows under it is loaded once, where four 16x1 work-items load twelve.
// The row arithmetic is the 16x1 kernel's (sobel_rows.cl); the contract is
// kernels/sobel/sobel_reference.hpp, matched bit for bit.
#include "sobel_rows.cl"

// [Kernel 16x4]
/**
 * dX and dY of the 16x4 block from x0 = 16 * get_global_id(0), y0 = 4 * get_global_id(1).
 * @param luminance the input image, 8 bits a pixel, rows `row_pitch` bytes apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch bytes from one row's start to the next, a multiple of 64, the same in all
 *        three images
 * @param gradient_x the output dX, one signed byte a pixel: (horizontal Sobel) >> 3
 * @param gradient_y the output dY, one signed byte a pixel: (vertical Sobel) >> 3
 */
// vec_type_hint: written in 16-lane vectors (sobel_16x1.cl says why).
__attribute__((vec_type_hint(short16))) __kernel void sobel_16x4(
    __global const uchar* restrict luminance, const int width, const int height,
    const int row_pitch, __global char* restrict gradient_x, __global char* restrict gradient_y)
{
    const int x0 = get_global_id(0) * 16;
    const int y0 = get_global_id(1) * 4;
    if (x0 >= width || y0 >= height) return;

    // Fast path: all 16x4 pixels exist and so do the rows above and below the block.
    const bool fast = x0 + 16 <= width && y0 >= 1 && y0 + 4 < height;
    if (!fast) {
        sobel_edge_tile(luminance, width, height, row_pitch, x0, y0, gradient_x, gradient_y);
        return;
    }

    // Six input rows feed four output rows. Each row is loaded once and its terms serve up to
    // three outputs: 6 row loads instead of the 12 that four 16x1 work-items make.
    const __global uchar* row = luminance + (y0 - 1) * row_pitch;
    short16 difference[6], smoothing[6];
    for (int r = 0; r < 6; ++r)
        row_terms(row + r * row_pitch, x0, width, &difference[r], &smoothing[r]);

    for (int r = 0; r < 4; ++r) {
        const int out = (y0 + r) * row_pitch + x0;
        store_gradients(difference[r], difference[r + 1], difference[r + 2], smoothing[r],
                        smoothing[r + 2], x0, width, gradient_x + out, gradient_y + out);
    }
}
// [Kernel 16x4]

// The host runs sobel_magnitude from the same program (sobel_16x1.cl says why).
#include "sobel_magnitude.cl"
