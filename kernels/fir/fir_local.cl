// The local-memory FIR filter: a work-group first copies its tile of the luminance, with the
// RADIUS-pixel halo all round, into local memory, so that each pixel crosses from global memory
// once per group instead of once per window that covers it (K*K times); then each work-item
// sums the windows of its 4x4 outputs (4 along a row, ROWS_PER_ITEM rows) from the tile. The
// larger the window, the more reuse there is to capture; whether it pays depends on what the
// device's caches already capture.
#include "fir_window.cl"

#ifndef ROWS_PER_ITEM
#error "build with -DROWS_PER_ITEM=n, the output rows of a work-item (kernels/fir/fir_filter.cpp)"
#endif

// [Local tile]
// A group of GX x GY work-items computes 4*GX x ROWS_PER_ITEM*GY outputs, whose windows cover a
// tile of (4*GX + 2*RADIUS) x (ROWS_PER_ITEM*GY + 2*RADIUS) floats: tile row r is image row
// y0 - RADIUS + r, tile
// column c image column x0 - RADIUS + c, (x0, y0) the group's first output. The host sizes
// `tile` for the shape it launches (kernels/fir/fir_filter.cpp). Each row of work-items copies
// tile rows ly, ly + GY, ..., taking each row's floats in turn, neighbours reading neighbours
// (coalesced on a GPU); no division splits a flat index (oclgrind 21.10 cannot check the
// `freeze` LLVM makes of one). The border applies where the tile leaves the image, so the sums
// below need no edge path.
inline void load_tile(__global const float* luminance, int width, int height, int row_pitch,
                      __local float* tile)
{
    const int group_width = get_local_size(0);
    const int group_height = get_local_size(1);
    const int tile_width = 4 * group_width + 2 * RADIUS;
    const int x_first = (int)get_group_id(0) * 4 * group_width - RADIUS;
    const int y_first = (int)get_group_id(1) * ROWS_PER_ITEM * group_height - RADIUS;
    for (int r = get_local_id(1); r < ROWS_PER_ITEM * group_height + 2 * RADIUS;
         r += group_height) {
        const int y = y_first + r;
        for (int c = get_local_id(0); c < tile_width; c += group_width) {
            const int x = x_first + c;
            const bool inside = x >= 0 && x < width && y >= 0 && y < height;
            tile[r * tile_width + c] =
                inside ? luminance[y * row_pitch + x]
                       : read_float_with_border(luminance, width, height, row_pitch, x, y);
        }
    }
}
// [Local tile]

// [Kernel local]
__kernel void fir_local(__global const float* restrict luminance, const int width,
                        const int height, const int row_pitch, __constant float* weights,
                        __global float* restrict output, __local float* tile)
{
    // The whole group loads, then meets at the barrier before any work-item reads the tile;
    // work-items past the image's right or bottom edge leave only after it (a barrier that
    // some of the group never reach is undefined behaviour).
    load_tile(luminance, width, height, row_pitch, tile);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x0 = get_global_id(0) * 4, y0 = get_global_id(1) * ROWS_PER_ITEM;
    if (x0 >= width || y0 >= height) return;
    // The K + ROWS_PER_ITEM - 1 tile rows under the work-item's outputs, each read once into
    // registers (K + 3 floats; WINDOW and ROWS_PER_ITEM are build-time constants, so the arrays
    // and loops unroll) and used by every output row whose window covers it: tile row j is
    // window row j - r of output row r. With one output row a work-item, each tile row was
    // read once per output row instead: on an H200 at 16384x16384 the 15x15 window took 6.57 ms
    // that way, 5.02 ms this way (7x7: 1.90, 1.66 ms).
    const int tile_width = 4 * get_local_size(0) + 2 * RADIUS;
    __local const float* corner =
        tile + get_local_id(1) * ROWS_PER_ITEM * tile_width + 4 * get_local_id(0);
    float4 sums[ROWS_PER_ITEM];
    for (int r = 0; r < ROWS_PER_ITEM; ++r) sums[r] = 0.0f;
    for (int j = 0; j < WINDOW + ROWS_PER_ITEM - 1; ++j) {
        float pixels[WINDOW + 3];
        for (int i = 0; i < WINDOW + 3; ++i) pixels[i] = corner[j * tile_width + i];
        for (int r = 0; r < ROWS_PER_ITEM; ++r) {
            if (j - r < 0 || j - r >= WINDOW) continue;
            for (int i = 0; i < WINDOW; ++i) {
                const float weight = weights[(j - r) * WINDOW + i];
                sums[r] += (float4)(pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) * weight;
            }
        }
    }
    for (int r = 0; r < ROWS_PER_ITEM && y0 + r < height; ++r)
        store_four(output, width, height, row_pitch, x0, y0 + r, sums[r]);
}
// [Kernel local]
