// SPDX-License-Identifier: Apache-2.0
// Separable weights in one kernel, the row sums kept in local memory: the local variant's way
// with weights that are a column times a row (kernels/fir/fir_separable.hpp finds the factors).
// The two-pass way (fir_separable.cl) writes the row sums to global memory as a full-size float
// image and reads them back: 16 bytes a pixel cross memory instead of 8. Here a work-group walks
// down a strip of tiles with the window's halo in local memory (fir_tile.cl, as the local K*K
// kernel does), makes the row sums of every tile row into local memory beside them, and sums
// each output's column of row sums from there: only the luminance read and the output written
// cross global memory. Whether that pays depends on the device's local memory and barriers
// (docs/performance.md#fir-choices); with --variant auto the tuner measures which
// (kernels/fir/fir_tuning.hpp).
#include "fir_tile.cl"

// The factors by value, as the local K*K kernel takes its weights (fir_local.cl says why), or
// with -DWEIGHTS_IN_CONSTANT_BUFFER through a __constant pointer, the row's then the column's.
#ifdef WEIGHTS_IN_CONSTANT_BUFFER
typedef __constant const float* Factors;
#define ROW_FACTOR(i) factors[i]
#define COLUMN_FACTOR(i) factors[WINDOW + (i)]
#else
typedef struct {
    float row[WINDOW];
    float column[WINDOW];
} Factors;
#define ROW_FACTOR(i) factors.row[i]
#define COLUMN_FACTOR(i) factors.column[i]
#endif

// [Separable local]
// The row sums: TILE_ROWS rows, each COLUMNS_PER_ITEM * GROUP_WIDTH floats (no halo: a row sum
// is made for each output column), stored in local memory after the two tiles.
#define SUM_FLOAT4S (COLUMNS_PER_ITEM * GROUP_WIDTH / 4)

/**
 * The separable FIR of a COLUMNS_PER_ITEM x ROWS_PER_ITEM block of outputs in each of STEPS
 * tiles down the group's strip (fir_tile.cl), the row sums made in local memory.
 * @param luminance the input image, one float a pixel, rows `row_pitch` floats apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch floats from one row's start to the next, a multiple of 16 (64 bytes), the
 *        same in both images
 * @param factors the row factor's K weights, then the column factor's: a struct by value, or
 *        with -DWEIGHTS_IN_CONSTANT_BUFFER a __constant buffer of 2K floats
 * @param output the filtered image, one float a pixel, rows `row_pitch` floats apart
 * @param tiles local memory for two tiles and the row sums after them, 2 * TILE_SIZE +
 *        TILE_ROWS * SUM_FLOAT4S float4s (kernels/fir/fir_filter.cpp, separable_local_bytes)
 */
__kernel __attribute__((reqd_work_group_size(GROUP_WIDTH, GROUP_HEIGHT, 1))) void
fir_separable_local(__global const float* restrict luminance, const int width, const int height,
                    const int row_pitch, const Factors factors, __global float* restrict output,
                    __local float4* tiles)
{
    const int lx = get_local_id(0), ly = get_local_id(1);
    // The group's strip of tiles, two at a time in local memory, as fir_local.cl walks it; the
    // row sums after them.
    __local float4* row_sums = tiles + 2 * TILE_SIZE;
    const int x_first = strip_x_first();
    int y_first = strip_y_first();
    float4 staged[STAGED];
    fetch_tile(luminance, width, height, row_pitch, x_first, y_first, staged);
    store_tile(luminance, width, height, row_pitch, x_first, y_first, staged, tiles);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x0 = get_global_id(0) * COLUMNS_PER_ITEM;
    for (int step = 0; step < STEPS; ++step) {
        const int step_top = y_first + RADIUS;
        if (step_top >= height) break;  // the whole group at once: it meets at every barrier
        const bool more = step + 1 < STEPS && step_top + STEP_ROWS < height;
        __local const float4* tile = tiles + (step % 2) * TILE_SIZE;
        y_first += STEP_ROWS;
        if (more) fetch_tile(luminance, width, height, row_pitch, x_first, y_first, staged);

        // 1. Every tile row's row sums under this work-item's columns, the rows shared out
        //    among the group's rows of work-items (ly, ly + GROUP_HEIGHT, ...); the halo rows
        //    too, which the column sums above and below the step's outputs need.
        for (int r = ly; r < TILE_ROWS; r += GROUP_HEIGHT) {
            float pixels[4 * TILE_ROW_LOADS];
            __local const float4* from = tile + r * TILE_FLOAT4S + lx * (COLUMNS_PER_ITEM / 4);
            for (int l = 0; l < TILE_ROW_LOADS; ++l) vstore4(from[l], l, pixels);
            float sums[COLUMNS_PER_ITEM];
            for (int o = 0; o < COLUMNS_PER_ITEM; ++o) sums[o] = 0.0f;
            for (int i = 0; i < WINDOW; ++i)
                for (int o = 0; o < COLUMNS_PER_ITEM; ++o)
                    sums[o] += pixels[PAD - RADIUS + i + o] * ROW_FACTOR(i);
            for (int q = 0; q < COLUMNS_PER_ITEM / 4; ++q)
                row_sums[r * SUM_FLOAT4S + lx * (COLUMNS_PER_ITEM / 4) + q] = vload4(q, sums);
        }
        barrier(CLK_LOCAL_MEM_FENCE);

        // 2. This work-item's outputs: each column of row sums weighted by the column factors,
        //    the WINDOW + ROWS_PER_ITEM - 1 rows under its outputs read once each (as
        //    fir_local.cl reads its tile rows).
        float outputs[ROWS_PER_ITEM][COLUMNS_PER_ITEM];
        for (int r = 0; r < ROWS_PER_ITEM; ++r)
            for (int o = 0; o < COLUMNS_PER_ITEM; ++o) outputs[r][o] = 0.0f;
#pragma unroll
        for (int j = 0; j < WINDOW + ROWS_PER_ITEM - 1; ++j) {
            float sums[COLUMNS_PER_ITEM];
            for (int q = 0; q < COLUMNS_PER_ITEM / 4; ++q)
                vstore4(row_sums[(ly * ROWS_PER_ITEM + j) * SUM_FLOAT4S +
                                 lx * (COLUMNS_PER_ITEM / 4) + q],
                        q, sums);
            for (int r = 0; r < ROWS_PER_ITEM; ++r) {
                if (j - r < 0 || j - r >= WINDOW) continue;
                for (int o = 0; o < COLUMNS_PER_ITEM; ++o)
                    outputs[r][o] += sums[o] * COLUMN_FACTOR(j - r);
            }
        }
        const int y0 = step_top + ly * ROWS_PER_ITEM;
        for (int r = 0; r < ROWS_PER_ITEM && x0 < width && y0 + r < height; ++r)
            for (int o = 0; o < COLUMNS_PER_ITEM; o += 4)
                store_four(output, width, height, row_pitch, x0 + o, y0 + r,
                           (float4)(outputs[r][o], outputs[r][o + 1], outputs[r][o + 2],
                                    outputs[r][o + 3]));
        // The next tile in, and every work-item done with these row sums, before the next step
        // makes its own.
        if (more)
            store_tile(luminance, width, height, row_pitch, x_first, y_first, staged,
                       tiles + ((step + 1) % 2) * TILE_SIZE);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
// [Separable local]
