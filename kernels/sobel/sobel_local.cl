// SPDX-License-Identifier: Apache-2.0
// The local-memory Sobel: a work-group first copies its tile of the luminance, with the 1-pixel
// halo around it, into local memory, so that each pixel crosses from global memory once per
// group instead of once per window that covers it; then each work-item computes 16 outputs of a
// row (as sobel_16x1 does) from the tile. Whether that pays depends on the device: a GPU whose
// caches already serve the reuse gains little, a device without such caches gains most.
#include "sobel_rows.cl"

// [Local tile]
// A group of GX x GY work-items computes 16*GX x GY outputs, whose windows cover a tile of
// (16*GX + 2) x (GY + 2) pixels: tile row r is image row y0 - 1 + r, tile column c image column
// x0 - 1 + c, where (x0, y0) is the group's first output. The host sizes `tile` for the
// work-group shape it launches (kernels/sobel/sobel_filter.cpp).
//
// Each work-item copies its own 16 columns of the tile's rows ly, ly + GY, ... : one aligned
// 16-byte load where the run lies inside the image, else pixel by pixel through the border,
// which is where every border mode is applied; the first and last work-items of a row also copy
// the halo columns either side.
inline void load_tile(__global const uchar* luminance, int width, int height, int row_pitch,
                      __local uchar* tile)
{
    const int group_width = get_local_size(0);
    const int stride = 16 * group_width + 2;
    const int lx = get_local_id(0);
    const int x0 = get_global_id(0) * 16;
    const int group_x0 = get_group_id(0) * group_width * 16;
    const int group_y0 = get_group_id(1) * get_local_size(1);
    for (int r = get_local_id(1); r < (int)get_local_size(1) + 2; r += get_local_size(1)) {
        const int y = group_y0 - 1 + r;
        __local uchar* tile_row = tile + r * stride;
        if (y >= 0 && y < height && x0 + 16 <= width) {
            vstore16(*(const __global uchar16*)(luminance + y * row_pitch + x0), 0,
                     tile_row + 1 + 16 * lx);
        } else {
            for (int i = 0; i < 16; ++i)
                tile_row[1 + 16 * lx + i] =
                    (uchar)read_pixel_with_border(luminance, width, height, row_pitch, x0 + i, y);
        }
        if (lx == 0)
            tile_row[0] =
                (uchar)read_pixel_with_border(luminance, width, height, row_pitch, group_x0 - 1, y);
        if (lx == group_width - 1)
            tile_row[stride - 1] = (uchar)read_pixel_with_border(
                luminance, width, height, row_pitch, group_x0 + 16 * group_width, y);
    }
}
// [Local tile]

// [Local row terms]
// Pixels x-1, x and x+1 of a work-item's 16 outputs are three overlapping 16-byte runs of the
// tile row, one byte apart: local memory has no alignment to lose, so they are three plain
// loads instead of the global kernels' load and swizzles.
inline void tile_row_terms(__local const uchar* tile_row, short16* difference, short16* smoothing)
{
    const short16 left = convert_short16(vload16(0, tile_row));
    const short16 centre = convert_short16(vload16(0, tile_row + 1));
    const short16 right = convert_short16(vload16(0, tile_row + 2));
    *difference = right - left;
    *smoothing = left + centre + centre + right;
}
// [Local row terms]

// [Kernel local]
/**
 * dX and dY of pixels x0 .. x0+15 of row y, x0 = 16 * get_global_id(0), y = get_global_id(1),
 * from the work-group's tile of the luminance in local memory.
 * @param luminance the input image, 8 bits a pixel, rows `row_pitch` bytes apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch bytes from one row's start to the next, a multiple of 64, the same in all
 *        three images
 * @param gradient_x the output dX, one signed byte a pixel: (horizontal Sobel) >> 3
 * @param gradient_y the output dY, one signed byte a pixel: (vertical Sobel) >> 3
 * @param tile local memory for the group's tile, (16 * GX + 2) * (GY + 2) bytes for a group of
 *        GX x GY work-items (the host sizes it for the shape it launches)
 */
// vec_type_hint: written in 16-lane vectors (sobel_16x1.cl says why).
__attribute__((vec_type_hint(short16))) __kernel void sobel_local(
    __global const uchar* restrict luminance, const int width, const int height,
    const int row_pitch, __global char* restrict gradient_x, __global char* restrict gradient_y,
    __local uchar* tile)
{
    // Every work-item helps to fill the tile, even one past the image's edge, and all wait
    // until it is full: a barrier must be reached by the whole group.
    load_tile(luminance, width, height, row_pitch, tile);
    barrier(CLK_LOCAL_MEM_FENCE);

    const int x0 = get_global_id(0) * 16;
    const int y = get_global_id(1);
    if (x0 >= width || y >= height) return;
#if defined(BORDER_NONE)
    const bool edge_row =
        y == 0 || y + 1 == height;  // not computed: store_gradients zeroes columns only
#else
    const bool edge_row = false;
#endif
    if (x0 + 16 > width || edge_row) {
        // The right tail of a row (and with none the first and last rows): pixel by pixel.
        sobel_row_with_border(luminance, width, height, row_pitch, x0, y, gradient_x, gradient_y);
        return;
    }
    const int stride = 16 * get_local_size(0) + 2;
    __local const uchar* above = tile + get_local_id(1) * stride + 16 * get_local_id(0);
    short16 difference_above, smoothing_above, difference_here, smoothing_here;
    short16 difference_below, smoothing_below;
    tile_row_terms(above, &difference_above, &smoothing_above);
    tile_row_terms(above + stride, &difference_here, &smoothing_here);
    tile_row_terms(above + 2 * stride, &difference_below, &smoothing_below);
    const int out = y * row_pitch + x0;
    store_gradients(difference_above, difference_here, difference_below, smoothing_above,
                    smoothing_below, x0, width, gradient_x + out, gradient_y + out);
}
// [Kernel local]

// The host runs sobel_magnitude from the same program (sobel_16x1.cl says why).
#include "sobel_magnitude.cl"
