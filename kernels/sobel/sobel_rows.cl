// SPDX-License-Identifier: Apache-2.0
// The 16x1 kernel's steps (sobel_16x1.cl) as functions, for the kernels that take them a row at
// a time: sobel_16x4 and sobel_16x4_packed (which also send the inner rows of their edge tiles
// down the 16x1 path) and sobel_local. sobel_16x1.cl keeps its own copy inline, so that the
// tutorial's kernel reads top to bottom; every variant is tested against the same reference.
// Images are stored with rows `row_pitch` bytes apart, a multiple of 64
// (kernels/sobel/sobel_filter.cpp), so a work-item's 16 pixels x0 .. x0+15 (x0 a multiple of 16)
// are one aligned 16-byte vector.
#ifndef SDK_SOBEL_ROWS_CL
#define SDK_SOBEL_ROWS_CL

#include "border.cl"
#include "sobel_pixel.cl"

// [Neighbours]
// The pixel just left or right of a 16-pixel run, x0-1 or x0+16, as a single byte; at the
// image's left and right edges the border supplies it.
inline int neighbour_byte(const __global uchar* row, int x, int width)
{
    const int inside = border_coordinate(x, width);
    return inside < 0 ? 0 : row[inside];
}
// [Neighbours]

// [Row terms]
// A row's two 16-wide terms for outputs x0 .. x0+15, from one aligned load and the two
// neighbour bytes, the shifted runs built with swizzles (sobel_16x1.cl says why):
//   difference = right - left              (weighted 1, 2, 1 down the rows, gives gx)
//   smoothing  = left + 2 * centre + right (row above minus row below gives gy)
inline void row_terms(const __global uchar* row, int x0, int width, short16* difference,
                      short16* smoothing)
{
    const uchar16 c = *(const __global uchar16*)(row + x0);
    const uchar before = (uchar)neighbour_byte(row, x0 - 1, width);
    const uchar after = (uchar)neighbour_byte(row, x0 + 16, width);
    const short16 left = convert_short16((uchar16)(before, c.s0, c.s1, c.s2, c.s3, c.s4, c.s5, c.s6,
                                                   c.s7, c.s8, c.s9, c.sa, c.sb, c.sc, c.sd, c.se));
    const short16 centre = convert_short16(c);
    const short16 right =
        convert_short16((uchar16)(c.s1, c.s2, c.s3, c.s4, c.s5, c.s6, c.s7, c.s8, c.s9, c.sa, c.sb,
                                  c.sc, c.sd, c.se, c.sf, after));
    *difference = right - left;
    *smoothing = left + centre + centre + right;
}
// [Row terms]

// [Store gradients]
// Combines the terms of the rows above, at and below an output row, and stores dX, dY as 16
// signed bytes each, in one aligned store apiece: an arithmetic shift by 3 brings +-1020 into a
// char's range.
inline void store_gradients(short16 difference_above, short16 difference_here,
                            short16 difference_below, short16 smoothing_above,
                            short16 smoothing_below, int x0, int width, __global char* gradient_x,
                            __global char* gradient_y)
{
    char16 dx = convert_char16(
        (difference_above + difference_here + difference_here + difference_below) >> (short)3);
    char16 dy = convert_char16((smoothing_above - smoothing_below) >> (short)3);
#if defined(BORDER_NONE)
    // Only pixels whose whole window is inside are computed: not the first and last columns.
    if (x0 == 0) dx.s0 = dy.s0 = 0;
    if (x0 + 16 == width) dx.sf = dy.sf = 0;
#endif
    *(__global char16*)gradient_x = dx;
    *(__global char16*)gradient_y = dy;
}
// [Store gradients]

// [Edge block]
// The slow path, one pixel at a time through the border, for row y's outputs x0 .. x0+15 that
// exist: the image's top and bottom rows and the right tail of rows whose width is not a
// multiple of 16. So few pixels take it that it costs little, and it keeps the fast paths free
// of per-pixel checks. Why not whole edge blocks: docs/performance.md#sobel-choices.
inline void sobel_row_with_border(__global const uchar* luminance, int width, int height,
                                  int row_pitch, int x0, int y, __global char* gradient_x,
                                  __global char* gradient_y)
{
    for (int x = x0; x < min(x0 + 16, width); ++x)
        sobel_pixel_with_border(luminance, width, height, row_pitch, x, y, gradient_x, gradient_y);
}
// [Edge block]

// [Edge tile]
// A 16x4 tile on the image's edge, row by row: rows whose whole window is inside take the 16x1
// path (three row loads, one store each for dX and dY), the rest go pixel by pixel.
inline void sobel_edge_tile(__global const uchar* luminance, int width, int height, int row_pitch,
                            int x0, int y0, __global char* gradient_x, __global char* gradient_y)
{
    for (int y = y0; y < min(y0 + 4, height); ++y) {
        if (x0 + 16 > width || y < 1 || y + 1 >= height) {
            sobel_row_with_border(luminance, width, height, row_pitch, x0, y, gradient_x,
                                  gradient_y);
            continue;
        }
        const __global uchar* above = luminance + (y - 1) * row_pitch;
        short16 difference[3], smoothing[3];
#pragma unroll  // the terms in registers, as sobel_16x1's
        for (int r = 0; r < 3; ++r)
            row_terms(above + r * row_pitch, x0, width, &difference[r], &smoothing[r]);
        const int out = y * row_pitch + x0;
        store_gradients(difference[0], difference[1], difference[2], smoothing[0], smoothing[2], x0,
                        width, gradient_x + out, gradient_y + out);
    }
}
// [Edge tile]

#endif  // SDK_SOBEL_ROWS_CL
