// SPDX-License-Identifier: Apache-2.0
// The local-memory FIR filter: a work-group first copies its tile of the luminance, with the
// window's halo all round, into local memory, so that each pixel crosses from global memory once
// per group instead of once per window that covers it (K*K times); then each work-item sums the
// windows of its COLUMNS_PER_ITEM x ROWS_PER_ITEM outputs from the tile. The larger the window,
// the more reuse there is to capture; whether it pays depends on what the device's caches
// already capture.
#include "fir_tile.cl"

// [Kernel local]
// The K*K weights by value, not through a pointer: kernel arguments live in a bank of constant
// memory that a GPU's multiply-add can read as an operand, at a place fixed when the loops below
// are unrolled, where a pointer's weights are loaded one by one (measured: docs/history.md).
// 15x15 takes 900 bytes of the 1024 every device allows for arguments.
// Built with -DWEIGHTS_IN_CONSTANT_BUFFER they come through a __constant pointer instead: Mesa's
// rusticl crashes on a by-value argument read in a loop (docs/portability.md#mesas-rusticl).
#ifdef WEIGHTS_IN_CONSTANT_BUFFER
typedef __constant const float* Weights;
#define WEIGHT(i) weights[i]
#else
typedef struct {
    float w[WINDOW * WINDOW];
} Weights;
#define WEIGHT(i) weights.w[i]
#endif

/**
 * The KxK FIR of a COLUMNS_PER_ITEM x ROWS_PER_ITEM block of outputs in each of STEPS tiles down
 * the group's strip (fir_tile.cl), from the tiles in local memory.
 * @param luminance the input image, one float a pixel, rows `row_pitch` floats apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch floats from one row's start to the next, a multiple of 16 (64 bytes), the
 *        same in both images
 * @param weights the K*K weights, row-major, the window's top row first: a struct by value,
 *        or with -DWEIGHTS_IN_CONSTANT_BUFFER a __constant buffer
 * @param output the filtered image, one float a pixel, rows `row_pitch` floats apart
 * @param tiles local memory for two tiles, 2 * TILE_SIZE float4s (the host sizes it for the
 *        group's shape: kernels/fir/fir_filter.cpp, local_tile_bytes)
 */
__kernel __attribute__((reqd_work_group_size(GROUP_WIDTH, GROUP_HEIGHT, 1))) void fir_local(
    __global const float* restrict luminance, const int width, const int height,
    const int row_pitch, const Weights weights, __global float* restrict output,
    __local float4* tiles)
{
    // The group's strip of tiles (fir_tile.cl): the first one loaded and stored before the
    // walk, each next one fetched while this one is summed.
    const int x_first = strip_x_first();
    int y_first = strip_y_first();
    float4 staged[STAGED];
    fetch_tile(luminance, width, height, row_pitch, x_first, y_first, staged);
    store_tile(luminance, width, height, row_pitch, x_first, y_first, staged, tiles);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x0 = get_global_id(0) * COLUMNS_PER_ITEM;
    for (int step = 0; step < STEPS; ++step) {
        // The whole group takes the same steps and meets at every barrier, work-items past
        // the image's right edge included (a barrier that some of the group never reach is
        // undefined behaviour); the strip ends where the image does.
        const int step_top = y_first + RADIUS;
        if (step_top >= height) break;
        const bool more = step + 1 < STEPS && step_top + STEP_ROWS < height;
        __local const float4* tile = tiles + (step % 2) * TILE_SIZE;
        y_first += STEP_ROWS;
        if (more) fetch_tile(luminance, width, height, row_pitch, x_first, y_first, staged);
        // [Local sums]
        // The K + ROWS_PER_ITEM - 1 tile rows under the work-item's outputs, each read once into
        // registers and used by every output row whose window covers it: tile row j is window
        // row j - r of output row r. RADIUS, ROWS_PER_ITEM and COLUMNS_PER_ITEM are build-time
        // constants, so the loops unroll and every weight's place is known. Read as float4s:
        // scalar reads 4 or 8 floats apart, one per work-item, fall on a few of local memory's
        // banks and queue behind each other (measured: docs/history.md).
        __local const float4* corner = tile + get_local_id(1) * ROWS_PER_ITEM * TILE_FLOAT4S +
                                       get_local_id(0) * (COLUMNS_PER_ITEM / 4);
        float sums[ROWS_PER_ITEM][COLUMNS_PER_ITEM];
        for (int r = 0; r < ROWS_PER_ITEM; ++r)
            for (int o = 0; o < COLUMNS_PER_ITEM; ++o) sums[r][o] = 0.0f;
#pragma unroll
        for (int j = 0; j < WINDOW + ROWS_PER_ITEM - 1; ++j) {
            float pixels[4 * TILE_ROW_LOADS];
            for (int l = 0; l < TILE_ROW_LOADS; ++l)
                vstore4(corner[j * TILE_FLOAT4S + l], l, pixels);
            for (int r = 0; r < ROWS_PER_ITEM; ++r) {
                if (j - r < 0 || j - r >= WINDOW) continue;
                for (int i = 0; i < WINDOW; ++i) {
                    const float weight = WEIGHT((j - r) * WINDOW + i);
                    for (int o = 0; o < COLUMNS_PER_ITEM; ++o)
                        sums[r][o] += pixels[PAD - RADIUS + i + o] * weight;
                }
            }
        }
        // [Local sums]
        const int y0 = step_top + get_local_id(1) * ROWS_PER_ITEM;
        for (int r = 0; r < ROWS_PER_ITEM && x0 < width && y0 + r < height; ++r)
            for (int o = 0; o < COLUMNS_PER_ITEM; o += 4)
                store_four(output, width, height, row_pitch, x0 + o, y0 + r,
                           (float4)(sums[r][o], sums[r][o + 1], sums[r][o + 2], sums[r][o + 3]));
        if (more)
            store_tile(luminance, width, height, row_pitch, x_first, y_first, staged,
                       tiles + ((step + 1) % 2) * TILE_SIZE);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
// [Kernel local]
