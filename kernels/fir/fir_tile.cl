// The tile of the luminance a work-group's windows cover, copied into local memory: the local
// K*K kernel (fir_local.cl) and the separable one that keeps its row sums there
// (fir_separable_local.cl) both start with it. Kernel files `#include "fir_tile.cl"`.
#ifndef SDK_FIR_TILE_CL
#define SDK_FIR_TILE_CL
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

// The float4s of a tile row that a work-item's windows cover: from PAD - RADIUS before its
// first output to RADIUS past its last.
#define TILE_ROW_LOADS ((PAD + COLUMNS_PER_ITEM + RADIUS + 3) / 4)

#endif  // SDK_FIR_TILE_CL
