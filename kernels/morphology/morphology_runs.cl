// SPDX-License-Identifier: Apache-2.0
// Dilation and erosion by structuring elements of any odd size up to 63x63 whose rows are runs
// centred on the middle column: OpenCV's rectangle, cross and ellipse
// (kernels/morphology/structuring_element.hpp). morphology_packed.cl includes this file in place
// of its 3x3 and diamond passes when built with -DELEMENT=...; the packed layout, the region,
// the erosion by complement and the dilate and erode entry points are that file's.
//
// Build options (kernels/morphology/morphology_filter.cpp):
//   -DELEMENT=ELEMENT_RECTANGLE, ELEMENT_CROSS or ELEMENT_ELLIPSE
//   -DREACH_X=n        pixels the widest row reaches either side of the centre, 0..31
//   -DREACH_Y=n        rows above and below the centre row, 0..31
//   -DROW_REACHES=a,b  the ellipse: every row's reach, top row first (2 * REACH_Y + 1 numbers)
//   -DROWS_PER_ITEM=n  output rows per work-item; for the rectangle and cross at most the
//                      element's height (see vertical_run)
#define ELEMENT_RECTANGLE 1
#define ELEMENT_CROSS 2
#define ELEMENT_ELLIPSE 3
#if !defined(REACH_X) || !defined(REACH_Y) || !defined(ROWS_PER_ITEM)
#error "build with -DREACH_X=n -DREACH_Y=n -DROWS_PER_ITEM=n (morphology_filter.cpp passes them)"
#endif
#define ELEMENT_HEIGHT (2 * REACH_Y + 1)
// Input rows a work-item reads: its output rows and REACH_Y more either side.
#define INPUT_ROWS (ROWS_PER_ITEM + 2 * REACH_Y)

// A run of n pixels ORed together costs log2(n) shifts, not n: OR a row with itself shifted by
// 1, the result with itself shifted by 2, then by 4, ..., and each pixel holds the OR of the
// 1, 2, 4, ... pixels ending at it. Any n between two powers of two p <= n < 2p is the last
// power's result ORed with itself shifted by n - p (the two runs of p overlap, which OR allows).
//
// A row's reach is at most 31, so the run of one word needs only its neighbours. The left half
// of the run (the pixel and `reach` pixels to its left) is computed in a 64-bit window, the left
// word above the centre word: shifting the window right brings the left word's pixels into the
// centre word. The zeros shifted in at the top stand for pixels further left, and they reach at
// most 31 pixels into the window, never the centre word's. The right half mirrors it.
//
// towards_left[k] and towards_right[k] hold the runs of 2^k pixels, k up to LOG_REACH =
// floor(log2(REACH_X + 1)): every reach up to REACH_X then costs one more shift a side (run_of).
#if REACH_X >= 31
#define LOG_REACH 5
#elif REACH_X >= 15
#define LOG_REACH 4
#elif REACH_X >= 7
#define LOG_REACH 3
#elif REACH_X >= 3
#define LOG_REACH 2
#elif REACH_X >= 1
#define LOG_REACH 1
#else
#define LOG_REACH 0
#endif
typedef struct {
    ulong towards_left[LOG_REACH + 1];
    ulong towards_right[LOG_REACH + 1];
} RowRuns;

// [Runs by doubling]
inline RowRuns row_runs(uint left, uint centre, uint right)
{
    RowRuns runs;
    runs.towards_left[0] = upsample(left, centre);
    runs.towards_right[0] = upsample(centre, right);
#pragma unroll
    for (int k = 1; k <= LOG_REACH; ++k) {
        const int distance = 1 << (k - 1);
        runs.towards_left[k] = runs.towards_left[k - 1] | runs.towards_left[k - 1] >> distance;
        runs.towards_right[k] = runs.towards_right[k - 1] | runs.towards_right[k - 1] << distance;
    }
    return runs;
}

// The centre word dilated by a run of `reach` pixels either side (reach <= REACH_X).
inline uint run_of(const RowRuns* runs, int reach)
{
    const int n = reach + 1;    // pixels on each side, the centre included
    const int k = 31 - clz(n);  // the largest power of two 2^k <= n
    const int rest = n - (1 << k);
    const ulong left = runs->towards_left[k] | runs->towards_left[k] >> rest;
    const ulong right = runs->towards_right[k] | runs->towards_right[k] << rest;
    return (uint)left | (uint)(right >> 32);
}
// [Runs by doubling]

// The words of input row y the dilation reads: the centre word, and with `sides` the words
// either side. Interior work-items, whose every word lies inside the region, load them
// directly; the others through load_in_region (morphology_packed.cl), which reads 0 outside.
// `interior` is a constant at every call, so each path compiles without the other's tests.
typedef struct {
    uint left;
    uint centre;
    uint right;
} RowWords;

inline RowWords row_words(__global const uint* source, int words_per_row, int word, int y,
                          Region region, uint complement, bool interior, bool sides)
{
    RowWords words = {0, 0, 0};
    if (interior) {
        const __global uint* row = source + y * words_per_row + word;
        words.centre = to_pixel_order(row[0]) ^ complement;
        if (sides) {
            words.left = to_pixel_order(row[-1]) ^ complement;
            words.right = to_pixel_order(row[1]) ^ complement;
        }
        return words;
    }
    words.centre = load_in_region(source, words_per_row, word, y, region, complement);
    if (sides) {
        words.left = load_in_region(source, words_per_row, word - 1, y, region, complement);
        words.right = load_in_region(source, words_per_row, word + 1, y, region, complement);
    }
    return words;
}

// Input row r of the work-item's INPUT_ROWS (row y0 - REACH_Y + r of the image), dilated along
// the row by `reach`.
inline uint row_run(__global const uint* source, int words_per_row, int word, int y0, int r,
                    int reach, Region region, uint complement, bool interior)
{
    const RowWords words = row_words(source, words_per_row, word, y0 - REACH_Y + r, region,
                                     complement, interior, reach > 0);
    const RowRuns runs = row_runs(words.left, words.centre, words.right);
    return run_of(&runs, reach);
}

#if ELEMENT == ELEMENT_RECTANGLE || ELEMENT == ELEMENT_CROSS
#if ROWS_PER_ITEM > ELEMENT_HEIGHT
#error "the rectangle and cross take at most the element's height in rows per work-item"
#endif
// The OR of ELEMENT_HEIGHT consecutive rows' runs for each of ROWS_PER_ITEM output rows, after
// van Herk and Gil-Werman: output i covers input rows i .. i + ELEMENT_HEIGHT - 1, and as there
// are no more outputs than the element is high, every one of these windows contains input row
// ELEMENT_HEIGHT - 1. Each window is then the OR of a suffix of the rows up to that one (built
// going up from it, one OR a row) and a prefix of the rows after it (built going down, one OR a
// row): ELEMENT_HEIGHT + 2 * ROWS_PER_ITEM ORs for the column, not ELEMENT_HEIGHT per output.
inline void vertical_run(__global const uint* source, int words_per_row, int word, int y0,
                         int reach, Region region, uint complement, bool interior,
                         uint dilated[ROWS_PER_ITEM])
{
    uint suffix = 0;
#pragma unroll
    for (int r = ELEMENT_HEIGHT - 1; r >= 0; --r) {
        suffix |= row_run(source, words_per_row, word, y0, r, reach, region, complement, interior);
        if (r < ROWS_PER_ITEM) dilated[r] = suffix;
    }
    uint prefix = 0;
#pragma unroll
    for (int r = ELEMENT_HEIGHT; r < INPUT_ROWS; ++r) {
        prefix |= row_run(source, words_per_row, word, y0, r, reach, region, complement, interior);
        dilated[r - ELEMENT_HEIGHT + 1] |= prefix;
    }
}
#endif

// The column of ROWS_PER_ITEM words from row y0 down, dilated (on complemented words for the
// erosion, as in morphology_packed.cl):
//   rectangle  a run of REACH_X along every row, then a run of the element's height down the
//              column: separable, so a word of 32 outputs costs (K + H - 1) / K row runs of
//              about 2 log2(width) 64-bit shifts and ORs each, plus about 3 ORs down the
//              column (K = ROWS_PER_ITEM, H the height), whatever the size;
//   cross      the OR of the column's vertical run (of the words alone, reach 0) and the
//              output row's own run of REACH_X;
//   ellipse    a union of rectangles row by row: output row y is the OR over the element's rows
//              dy of input row y + dy's run of that row's reach. Each input row's doubling is
//              built once and serves every reach (run_of), so an output word costs one shift
//              and OR a side for each of the element's rows.
inline void dilate_element_column(__global const uint* source, int words_per_row, int word, int y0,
                                  Region region, uint complement, bool interior,
                                  uint dilated[ROWS_PER_ITEM])
{
#if ELEMENT == ELEMENT_RECTANGLE
    vertical_run(source, words_per_row, word, y0, REACH_X, region, complement, interior, dilated);
#elif ELEMENT == ELEMENT_CROSS
    vertical_run(source, words_per_row, word, y0, 0, region, complement, interior, dilated);
#pragma unroll
    for (int i = 0; i < ROWS_PER_ITEM; ++i)
        dilated[i] |= row_run(source, words_per_row, word, y0, i + REACH_Y, REACH_X, region,
                              complement, interior);
#elif ELEMENT == ELEMENT_ELLIPSE
    // Indexed by dy + REACH_Y with dy known after unrolling: the reaches fold into the shifts.
    const int row_reach[ELEMENT_HEIGHT] = {ROW_REACHES};
#pragma unroll
    for (int i = 0; i < ROWS_PER_ITEM; ++i) dilated[i] = 0;
#pragma unroll
    for (int r = 0; r < INPUT_ROWS; ++r) {
        const RowWords words = row_words(source, words_per_row, word, y0 - REACH_Y + r, region,
                                         complement, interior, REACH_X > 0);
        const RowRuns runs = row_runs(words.left, words.centre, words.right);
        // Input row r feeds output i through the element's row r - i.
#pragma unroll
        for (int i = 0; i < ROWS_PER_ITEM; ++i)
            if (r - i >= 0 && r - i < ELEMENT_HEIGHT) dilated[i] |= run_of(&runs, row_reach[r - i]);
    }
#else
#error "build with -DELEMENT=ELEMENT_RECTANGLE, ELEMENT_CROSS or ELEMENT_ELLIPSE"
#endif
}

// Whether every word the column reads (the words either side, REACH_Y rows above and below)
// lies wholly inside the region: then it loads directly and stores whole words.
inline bool column_in_region(int word, int y0, Region region)
{
    return y0 - REACH_Y >= region.top && y0 + ROWS_PER_ITEM - 1 + REACH_Y < region.bottom &&
           (word - 1) * 32 >= region.left && (word + 2) * 32 <= region.right;
}

// The column of word `word` in rows y0 .. y0 + ROWS_PER_ITEM - 1 (those below the image's height
// left out), through morphology_item in morphology_packed.cl: `complement` 0 dilates, all ones
// erodes, and words outside `region` (pixels) are copied.
inline void morphology_column(__global const uint* restrict source,
                              __global uint* restrict destination, int words_per_row, int height,
                              int word, int y0, Region region, uint complement)
{
    uint dilated[ROWS_PER_ITEM];
    if (column_in_region(word, y0, region)) {
        dilate_element_column(source, words_per_row, word, y0, region, complement, true, dilated);
#pragma unroll
        for (int i = 0; i < ROWS_PER_ITEM; ++i)
            destination[(y0 + i) * words_per_row + word] = to_memory_order(dilated[i] ^ complement);
        return;
    }
    // Along the region's edges: only the region's pixels change, the rest are copied, and rows
    // past the image's end are not written.
    dilate_element_column(source, words_per_row, word, y0, region, complement, false, dilated);
#pragma unroll
    for (int i = 0; i < ROWS_PER_ITEM; ++i) {
        const int y = y0 + i;
        if (y >= height) break;
        const int index = y * words_per_row + word;
        const bool region_row = y >= region.top && y < region.bottom;
        const uint inside = region_row ? region_columns(word, region) : 0;
        const uint original = to_pixel_order(source[index]);
        const uint result = dilated[i] ^ complement;
        destination[index] = to_memory_order((result & inside) | (original & ~inside));
    }
}
