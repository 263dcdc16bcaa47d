// The local-memory FIR filter: a work-group first copies its tile of the luminance, with the
// window's halo all round, into local memory, so that each pixel crosses from global memory once
// per group instead of once per window that covers it (K*K times); then each work-item sums the
// windows of its COLUMNS_PER_ITEM x ROWS_PER_ITEM outputs from the tile. The larger the window,
// the more reuse there is to capture; whether it pays depends on what the device's caches
// already capture.
#include "fir_window.cl"

#if !defined(ROWS_PER_ITEM) || !defined(COLUMNS_PER_ITEM)
#error "build with -DROWS_PER_ITEM=n -DCOLUMNS_PER_ITEM=4 or 8 (kernels/fir/fir_filter.cpp)"
#endif

// [Local tile]
// A group of GX x GY work-items computes COLUMNS_PER_ITEM*GX x ROWS_PER_ITEM*GY outputs. Their
// windows reach RADIUS pixels beyond them; the tile keeps RADIUS rows above and below, and PAD
// columns left and right, RADIUS rounded up to whole float4s, so that every tile row starts
// where an aligned float4 of the image does: tile row r is image row y0 - RADIUS + r, tile column
// c image column x0 - PAD + c, (x0, y0) the group's first output. The host sizes `tile` for the
// shape it launches (kernels/fir/fir_filter.cpp). Each row of work-items copies tile rows ly,
// ly + GY, ..., taking each row's float4s in turn, neighbours reading neighbours (coalesced on a
// GPU); no division splits a flat index (oclgrind 21.10 cannot check the `freeze` LLVM makes of
// one). The border applies where the tile leaves the image, so the sums below need no edge path.
#define PAD ((RADIUS + 3) / 4 * 4)
#define TILE_FLOAT4S(group_width) ((COLUMNS_PER_ITEM * (group_width) + 2 * PAD) / 4)

inline void load_tile(__global const float* luminance, int width, int height, int row_pitch,
                      __local float4* tile)
{
    const int group_width = get_local_size(0);
    const int group_height = get_local_size(1);
    const int x_first = (int)get_group_id(0) * COLUMNS_PER_ITEM * group_width - PAD;
    const int y_first = (int)get_group_id(1) * ROWS_PER_ITEM * group_height - RADIUS;
    for (int r = get_local_id(1); r < ROWS_PER_ITEM * group_height + 2 * RADIUS;
         r += group_height) {
        const int y = y_first + r;
        for (int c = get_local_id(0); c < TILE_FLOAT4S(group_width); c += group_width) {
            const int x = x_first + 4 * c;
            float4 pixels;
            if (x >= 0 && x + 3 < width && y >= 0 && y < height) {
                // Rows start on 64-byte boundaries and x is a multiple of 4: one aligned load.
                pixels = *(__global const float4*)(luminance + y * row_pitch + x);
            } else {
                pixels.s0 = read_float_with_border(luminance, width, height, row_pitch, x, y);
                pixels.s1 = read_float_with_border(luminance, width, height, row_pitch, x + 1, y);
                pixels.s2 = read_float_with_border(luminance, width, height, row_pitch, x + 2, y);
                pixels.s3 = read_float_with_border(luminance, width, height, row_pitch, x + 3, y);
            }
            tile[r * TILE_FLOAT4S(group_width) + c] = pixels;
        }
    }
}
// [Local tile]

// [Kernel local]
// The K*K weights by value, not through a pointer: kernel arguments live in a bank of constant
// memory that an NVIDIA GPU's multiply-add reads as an operand, at a place fixed when the loops
// below are unrolled, where a pointer's weights are loaded one by one (on an H200 at
// 16384x16384, 15x15: 2.53 ms this way, 2.87 ms through a __constant pointer with the loop
// rolled, 3.3 ms unrolled). 15x15 takes 900 bytes of the 1024 every device allows for arguments.
typedef struct {
    float w[WINDOW * WINDOW];
} Weights;

// The float4s of a tile row that a work-item's windows cover: from PAD - RADIUS before its
// first output to RADIUS past its last.
#define TILE_ROW_LOADS ((PAD + COLUMNS_PER_ITEM + RADIUS + 3) / 4)

__kernel void fir_local(__global const float* restrict luminance, const int width,
                        const int height, const int row_pitch, const Weights weights,
                        __global float* restrict output, __local float4* tile)
{
    // The whole group loads, then meets at the barrier before any work-item reads the tile;
    // work-items past the image's right or bottom edge leave only after it (a barrier that
    // some of the group never reach is undefined behaviour).
    load_tile(luminance, width, height, row_pitch, tile);
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x0 = get_global_id(0) * COLUMNS_PER_ITEM, y0 = get_global_id(1) * ROWS_PER_ITEM;
    if (x0 >= width || y0 >= height) return;
    // The K + ROWS_PER_ITEM - 1 tile rows under the work-item's outputs, each read once into
    // registers and used by every output row whose window covers it: tile row j is window row
    // j - r of output row r. RADIUS, ROWS_PER_ITEM and COLUMNS_PER_ITEM are build-time
    // constants, so the loops unroll and every weight's place is known. Read as float4s: scalar
    // reads 4 or 8 floats apart, one per work-item, fall on a few of local memory's banks and
    // queue behind each other (H200, 15x15 with 4x4 outputs: 5.02 ms so, 3.28 ms as float4s).
    const int row_float4s = TILE_FLOAT4S(get_local_size(0));
    __local const float4* corner = tile + get_local_id(1) * ROWS_PER_ITEM * row_float4s +
                                   get_local_id(0) * (COLUMNS_PER_ITEM / 4);
    float sums[ROWS_PER_ITEM][COLUMNS_PER_ITEM];
    for (int r = 0; r < ROWS_PER_ITEM; ++r)
        for (int o = 0; o < COLUMNS_PER_ITEM; ++o) sums[r][o] = 0.0f;
#pragma unroll
    for (int j = 0; j < WINDOW + ROWS_PER_ITEM - 1; ++j) {
        float pixels[4 * TILE_ROW_LOADS];
        for (int l = 0; l < TILE_ROW_LOADS; ++l) vstore4(corner[j * row_float4s + l], l, pixels);
        for (int r = 0; r < ROWS_PER_ITEM; ++r) {
            if (j - r < 0 || j - r >= WINDOW) continue;
            for (int i = 0; i < WINDOW; ++i) {
                const float weight = weights.w[(j - r) * WINDOW + i];
                for (int o = 0; o < COLUMNS_PER_ITEM; ++o)
                    sums[r][o] += pixels[PAD - RADIUS + i + o] * weight;
            }
        }
    }
    for (int r = 0; r < ROWS_PER_ITEM && y0 + r < height; ++r)
        for (int o = 0; o < COLUMNS_PER_ITEM; o += 4)
            store_four(output, width, height, row_pitch, x0 + o, y0 + r,
                       (float4)(sums[r][o], sums[r][o + 1], sums[r][o + 2], sums[r][o + 3]));
}
// [Kernel local]
