// SPDX-License-Identifier: Apache-2.0
// The tiles of the luminance a work-group's windows cover, copied into local memory: the local
// K*K kernel (fir_local.cl) and the separable one that keeps its row sums there
// (fir_separable_local.cl) both walk down a strip of them. Kernel files `#include "fir_tile.cl"`.
#ifndef SDK_FIR_TILE_CL
#define SDK_FIR_TILE_CL
#include "fir_window.cl"

#if !defined(ROWS_PER_ITEM) || !defined(COLUMNS_PER_ITEM) || !defined(STEPS) || \
    !defined(GROUP_WIDTH) || !defined(GROUP_HEIGHT)
#error \
    "build with -DROWS_PER_ITEM=n -DCOLUMNS_PER_ITEM=4|8 -DSTEPS=n -DGROUP_WIDTH=16 -DGROUP_HEIGHT=n (kernels/fir/fir_filter.cpp)"
#endif

// [Local tile]
// A group of GROUP_WIDTH x GROUP_HEIGHT work-items computes COLUMNS_PER_ITEM * GROUP_WIDTH x
// ROWS_PER_ITEM * GROUP_HEIGHT outputs at each step. Their windows reach RADIUS pixels beyond
// them; the tile keeps RADIUS rows above and below, and PAD columns left and right, RADIUS
// rounded up to whole float4s, so that every tile row starts where an aligned float4 of the
// image does: tile row r is image row y0 - RADIUS + r, tile column c image column x0 - PAD + c,
// (x0, y0) the step's first output. The border applies where the tile leaves the image, so the
// sums need no edge path.
//
// The group's shape is built in (the host builds a program for each height it is asked for),
// so the tile's size is a constant: its addresses fold into each load as offsets, its loops
// have known counts, and the divisions below are by constants (measured: docs/history.md).
#define PAD ((RADIUS + 3) / 4 * 4)
#define TILE_FLOAT4S ((COLUMNS_PER_ITEM * GROUP_WIDTH + 2 * PAD) / 4)  // a row
#define STEP_ROWS (ROWS_PER_ITEM * GROUP_HEIGHT)
#define TILE_ROWS (STEP_ROWS + 2 * RADIUS)
#define TILE_SIZE (TILE_FLOAT4S * TILE_ROWS)  // float4s
#define GROUP_ITEMS (GROUP_WIDTH * GROUP_HEIGHT)

inline float4 read_four_with_border(__global const float* luminance, int width, int height,
                                    int row_pitch, int x, int y)
{
    // Rows start on 64-byte boundaries and x is a multiple of 4: one aligned load.
    if (x >= 0 && x + 3 < width && y >= 0 && y < height)
        return *(__global const float4*)(luminance + y * row_pitch + x);
    return (float4)(read_float_with_border(luminance, width, height, row_pitch, x, y),
                    read_float_with_border(luminance, width, height, row_pitch, x + 1, y),
                    read_float_with_border(luminance, width, height, row_pitch, x + 2, y),
                    read_float_with_border(luminance, width, height, row_pitch, x + 3, y));
}

// The float4 `index` of the tile whose top-left float4 is image column x_first, row y_first,
// counting row by row. (A division and no remainder operator: LLVM turns a division and
// remainder pair into a `freeze` that oclgrind cannot check.)
inline float4 tile_float4(__global const float* luminance, int width, int height, int row_pitch,
                          int x_first, int y_first, int index)
{
    const int row = index / TILE_FLOAT4S;
    const int column = index - row * TILE_FLOAT4S;
    return read_four_with_border(luminance, width, height, row_pitch, x_first + 4 * column,
                                 y_first + row);
}

// The group's work-items share a tile's float4s in turn: work-item i takes float4s i,
// i + GROUP_ITEMS, i + 2 * GROUP_ITEMS, ... (neighbours read neighbours: coalesced on a GPU).
// Up to STAGED of a work-item's share travel through registers: fetch_tile issues their loads
// and returns at once, and only store_tile, which puts them into local memory, waits for them.
// Between the two the group computes the tile before, so the next tile's loads are in flight
// while it does: a GPU hides the memory's latency behind arithmetic even with few groups per
// compute unit. The rest of a larger share (short groups) is copied at store_tile.
#define SHARE ((TILE_SIZE + GROUP_ITEMS - 1) / GROUP_ITEMS)
#define STAGED (SHARE < 8 ? SHARE : 8)
#define IN_TILE(index) (TILE_SIZE % GROUP_ITEMS == 0 || (index) < TILE_SIZE)

inline int share_start(void)
{
    return get_local_id(1) * GROUP_WIDTH + get_local_id(0);
}

inline void fetch_tile(__global const float* luminance, int width, int height, int row_pitch,
                       int x_first, int y_first, float4 staged[STAGED])
{
    for (int k = 0; k < STAGED; ++k) {
        const int index = share_start() + k * GROUP_ITEMS;
        if (IN_TILE(index))
            staged[k] = tile_float4(luminance, width, height, row_pitch, x_first, y_first, index);
    }
}

inline void store_tile(__global const float* luminance, int width, int height, int row_pitch,
                       int x_first, int y_first, const float4 staged[STAGED], __local float4* tile)
{
    for (int k = 0; k < STAGED; ++k) {
        const int index = share_start() + k * GROUP_ITEMS;
        if (IN_TILE(index)) tile[index] = staged[k];
    }
    for (int k = STAGED; k < SHARE; ++k) {
        const int index = share_start() + k * GROUP_ITEMS;
        if (IN_TILE(index))
            tile[index] = tile_float4(luminance, width, height, row_pitch, x_first, y_first, index);
    }
}
// [Local tile]

// [Strip]
// A group walks down a strip of STEPS tiles, one below the other, with two tiles in local
// memory: while it computes one from the first, the next one's loads are in flight (fetch_tile)
// and then stored into the second (store_tile); one barrier a step keeps the two apart.
// The strip's first tile: its top-left float4's image column and row.
inline int strip_x_first(void)
{
    return (int)get_group_id(0) * COLUMNS_PER_ITEM * GROUP_WIDTH - PAD;
}
inline int strip_y_first(void)
{
    return (int)get_group_id(1) * STEP_ROWS * STEPS - RADIUS;
}
// [Strip]

// The float4s of a tile row that a work-item's windows cover: from PAD - RADIUS before its
// first output to RADIUS past its last.
#define TILE_ROW_LOADS ((PAD + COLUMNS_PER_ITEM + RADIUS + 3) / 4)

#endif  // SDK_FIR_TILE_CL
