// Separable weights in one kernel, the row sums kept in local memory: the local variant's way
// with weights that are a column times a row (kernels/fir/fir_separable.hpp finds the factors).
// The two-pass way (fir_separable.cl) writes the row sums to global memory as a full-size float
// image and reads them back: 16 bytes a pixel cross memory instead of 8. Here a work-group copies
// its tile with the window's halo into local memory (fir_tile.cl, as the local K*K kernel does),
// makes the row sums of every tile row into local memory beside it, and sums each output's
// column of row sums from there: only the luminance read and the output written cross global
// memory. Whether that pays depends on the device's local memory and barriers: on an H200 at
// 16384x16384 a 15x15 took 0.98 ms this way against 1.76 ms in two passes; on PoCL, where local
// memory is ordinary memory and a barrier ends a loop over the group's work-items, 41 ms against
// 12 ms (2816x2816). With --variant auto the tuner measures which (kernels/fir/fir_tuning.hpp).
#include "fir_tile.cl"

// The factors by value, as the local K*K kernel takes its weights (fir_local.cl says why).
typedef struct {
    float row[WINDOW];
    float column[WINDOW];
} Factors;

// [Separable local]
// The row sums: ROWS_PER_ITEM * GY + 2 * RADIUS tile rows, each COLUMNS_PER_ITEM * GX floats
// (no halo: a row sum is made for each output column), stored in local memory after the tile.
#define SUM_FLOAT4S(group_width) (COLUMNS_PER_ITEM * (group_width) / 4)

__kernel void fir_separable_local(__global const float* restrict luminance, const int width,
                                  const int height, const int row_pitch, const Factors factors,
                                  __global float* restrict output, __local float4* tile)
{
    const int group_width = get_local_size(0), group_height = get_local_size(1);
    const int lx = get_local_id(0), ly = get_local_id(1);
    const int tile_rows = ROWS_PER_ITEM * group_height + 2 * RADIUS;
    __local float4* row_sums = tile + tile_rows * TILE_FLOAT4S(group_width);
    load_tile(luminance, width, height, row_pitch, tile);
    barrier(CLK_LOCAL_MEM_FENCE);

    // 1. Every tile row's row sums under this work-item's columns, the rows shared out among
    //    the group's rows of work-items (ly, ly + GY, ...); the halo rows too, which the column
    //    sums above and below the group's outputs need.
    for (int r = ly; r < tile_rows; r += group_height) {
        float pixels[4 * TILE_ROW_LOADS];
        __local const float4* from = tile + r * TILE_FLOAT4S(group_width) + lx * (COLUMNS_PER_ITEM / 4);
        for (int l = 0; l < TILE_ROW_LOADS; ++l) vstore4(from[l], l, pixels);
        float sums[COLUMNS_PER_ITEM];
        for (int o = 0; o < COLUMNS_PER_ITEM; ++o) sums[o] = 0.0f;
        for (int i = 0; i < WINDOW; ++i)
            for (int o = 0; o < COLUMNS_PER_ITEM; ++o)
                sums[o] += pixels[PAD - RADIUS + i + o] * factors.row[i];
        for (int q = 0; q < COLUMNS_PER_ITEM / 4; ++q)
            row_sums[r * SUM_FLOAT4S(group_width) + lx * (COLUMNS_PER_ITEM / 4) + q] =
                vload4(q, sums);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // 2. This work-item's outputs: each column of row sums weighted by the column factors, the
    //    WINDOW + ROWS_PER_ITEM - 1 rows under its outputs read once each (as fir_local.cl
    //    reads its tile rows). Work-items past the image's edge leave only now, after the last
    //    barrier.
    const int x0 = get_global_id(0) * COLUMNS_PER_ITEM, y0 = get_global_id(1) * ROWS_PER_ITEM;
    if (x0 >= width || y0 >= height) return;
    float outputs[ROWS_PER_ITEM][COLUMNS_PER_ITEM];
    for (int r = 0; r < ROWS_PER_ITEM; ++r)
        for (int o = 0; o < COLUMNS_PER_ITEM; ++o) outputs[r][o] = 0.0f;
#pragma unroll
    for (int j = 0; j < WINDOW + ROWS_PER_ITEM - 1; ++j) {
        float sums[COLUMNS_PER_ITEM];
        for (int q = 0; q < COLUMNS_PER_ITEM / 4; ++q)
            vstore4(row_sums[(ly * ROWS_PER_ITEM + j) * SUM_FLOAT4S(group_width) +
                             lx * (COLUMNS_PER_ITEM / 4) + q],
                    q, sums);
        for (int r = 0; r < ROWS_PER_ITEM; ++r) {
            if (j - r < 0 || j - r >= WINDOW) continue;
            for (int o = 0; o < COLUMNS_PER_ITEM; ++o)
                outputs[r][o] += sums[o] * factors.column[j - r];
        }
    }
    for (int r = 0; r < ROWS_PER_ITEM && y0 + r < height; ++r)
        for (int o = 0; o < COLUMNS_PER_ITEM; o += 4)
            store_four(output, width, height, row_pitch, x0 + o, y0 + r,
                       (float4)(outputs[r][o], outputs[r][o + 1], outputs[r][o + 2],
                                outputs[r][o + 3]));
}
// [Separable local]
