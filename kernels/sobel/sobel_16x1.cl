// SPDX-License-Identifier: Apache-2.0
// The Arm Mali SDK tutorial's vectorised Sobel: each work-item computes 16 neighbouring outputs
// of a row, dX and dY, from three row loads, with the arithmetic in 16 lanes of 16 bits. Unlike
// the tutorial's kernel it handles every width, height and border; the contract is
// kernels/sobel/sobel_reference.hpp, matched bit for bit. The host builds this file with the
// border mode's name (-DBORDER_REPLICATE, ...: kernels/border.cpp) and sizes the launch at one
// work-item per 16 pixels of a row (kernels/sobel/sobel_filter.cpp).
#include "border.cl"
#include "sobel_pixel.cl"

// [Neighbours]
// The pixel just left or right of a 16-pixel run, x0-1 or x0+16, as a single byte; at the
// image's left and right edges the border supplies it. This is a per-work-item choice, not a
// per-pixel check, so work-items at the edges stay on the fast path.
inline int neighbour_byte(const __global uchar* row, int x, int width)
{
    const int inside = border_coordinate(x, width);
    return inside < 0 ? 0 : row[inside];
}
// [Neighbours]

// [Kernel 16x1]
/**
 * dX and dY of pixels x0 .. x0+15 of row y, x0 = 16 * get_global_id(0), y = get_global_id(1).
 * @param luminance the input image, 8 bits a pixel, rows `row_pitch` bytes apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch bytes from one row's start to the next, a multiple of 64, the same in all
 *        three images
 * @param gradient_x the output dX, one signed byte a pixel: (horizontal Sobel) >> 3
 * @param gradient_y the output dY, one signed byte a pixel: (vertical Sobel) >> 3
 */
// vec_type_hint: the kernel is written in 16-lane vectors already, which tells a compiler that
// vectorises across work-items not to do it again. Why: docs/portability.md#intels-cpu-runtime.
__attribute__((vec_type_hint(short16))) __kernel void sobel_16x1(
    __global const uchar* restrict luminance, const int width, const int height,
    const int row_pitch, __global char* restrict gradient_x, __global char* restrict gradient_y)
{
    // 1. The work-item's 16 outputs. The global size is rounded up to whole work-groups, so some
    //    work-items have none. The image's first and last rows (whose rows above or below come
    //    from the border) and the partial run at the right end of a row whose width is not a
    //    multiple of 16 go one pixel at a time through the border (sobel_pixel.cl): so few
    //    pixels take that path that it costs little, and the rest carries no per-pixel checks.
    const int x0 = get_global_id(0) * 16;
    const int y = get_global_id(1);
    if (x0 >= width || y >= height) return;
    if (x0 + 16 > width || y < 1 || y + 1 >= height) {
        for (int x = x0; x < min(x0 + 16, width); ++x)
            sobel_pixel_with_border(luminance, width, height, row_pitch, x, y, gradient_x,
                                    gradient_y);
        return;
    }

    // Both Sobel masks are separable, so each of the three input rows reduces to two terms:
    //   difference = right - left              (weighted 1, 2, 1 down the rows, gives gx)
    //   smoothing  = left + 2 * centre + right (row above minus row below gives gy)
    // where centre is pixels x0 .. x0+15 of the row, left x0-1 .. x0+14 and right x0+1 .. x0+16.
    // The loop is unrolled, so that the six terms stay in registers, not in an array in memory.
    short16 difference[3], smoothing[3];
#pragma unroll
    for (int r = 0; r < 3; ++r) {
        const __global uchar* row = luminance + (y - 1 + r) * row_pitch;
        // 2. Load. Rows start on 64-byte boundaries and x0 is a multiple of 16, so the centre
        //    run is one aligned 16-byte vector: a single wide load, where an unaligned vload16
        //    can become 16 byte loads. Its two neighbours are single bytes.
        const uchar16 c = *(const __global uchar16*)(row + x0);
        const uchar before = (uchar)neighbour_byte(row, x0 - 1, width);
        const uchar after = (uchar)neighbour_byte(row, x0 + 16, width);
        // 3. Widen. The shifted runs are built with swizzles, whose lanes the compiler sees as
        //    constants (a byte shift on a CPU, byte permutes on a GPU), then all three go to
        //    16-bit lanes, which hold every intermediate (|gx|, |gy| <= 1020).
        //    Why swizzles, not shuffle2: docs/performance.md#sobel-choices. Each lane is named
        //    on its own: oclgrind crashes on grouped swizzles (docs/portability.md#oclgrind).
        const short16 left =
            convert_short16((uchar16)(before, c.s0, c.s1, c.s2, c.s3, c.s4, c.s5, c.s6, c.s7, c.s8,
                                      c.s9, c.sa, c.sb, c.sc, c.sd, c.se));
        const short16 centre = convert_short16(c);
        const short16 right =
            convert_short16((uchar16)(c.s1, c.s2, c.s3, c.s4, c.s5, c.s6, c.s7, c.s8, c.s9, c.sa,
                                      c.sb, c.sc, c.sd, c.se, c.sf, after));
        difference[r] = right - left;
        smoothing[r] = left + centre + centre + right;
    }

    // 4. Compute. gx and gy from the three rows' terms, then an arithmetic shift by 3 brings
    //    +-1020 into a signed byte's range.
    char16 dx =
        convert_char16((difference[0] + difference[1] + difference[1] + difference[2]) >> (short)3);
    char16 dy = convert_char16((smoothing[0] - smoothing[2]) >> (short)3);

    // 5. Store dX and dY, one aligned 16-byte store each. With none, only pixels whose whole
    //    window is inside are computed: not the first and last columns.
#if defined(BORDER_NONE)
    if (x0 == 0) dx.s0 = dy.s0 = 0;
    if (x0 + 16 == width) dx.sf = dy.sf = 0;
#endif
    const int out = y * row_pitch + x0;
    *(__global char16*)(gradient_x + out) = dx;
    *(__global char16*)(gradient_y + out) = dy;
}
// [Kernel 16x1]

// The host runs sobel_magnitude (dX and dY to the output image) from the same program, so that
// a variant is one build.
#include "sobel_magnitude.cl"
