// The local-memory FIR filter: a work-group first copies its tile of the luminance, with the
// RADIUS-pixel halo all round, into local memory, so that each pixel crosses from global memory
// once per group instead of once per window that covers it (K*K times); then each work-item
// sums its four outputs' windows from the tile. The larger the window, the more reuse there is
// to capture; whether it pays depends on what the device's caches already capture.
#include "fir_window.cl"

// [Local tile]
// A group of GX x GY work-items computes 4*GX x GY outputs, whose windows cover a tile of
// (4*GX + 2*RADIUS) x (GY + 2*RADIUS) floats: tile row r is image row y0 - RADIUS + r, tile
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
    const int y_first = (int)get_group_id(1) * group_height - RADIUS;
    for (int r = get_local_id(1); r < group_height + 2 * RADIUS; r += group_height) {
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
    const int x0 = get_global_id(0) * 4, y = get_global_id(1);
    if (x0 >= width || y >= height) return;
    // The window's rows are K + 3 floats of the tile; local memory has no alignment to lose,
    // so the K shifted float4s are plain loads.
    const int tile_width = 4 * get_local_size(0) + 2 * RADIUS;
    __local const float* corner = tile + get_local_id(1) * tile_width + 4 * get_local_id(0);
    float4 sum = 0.0f;
    for (int j = 0; j < WINDOW; ++j)
        for (int i = 0; i < WINDOW; ++i)
            sum += vload4(0, corner + j * tile_width + i) * weights[j * WINDOW + i];
    store_four(output, width, height, row_pitch, x0, y, sum);
}
// [Kernel local]
