// SPDX-License-Identifier: Apache-2.0
// Binary morphology on bit-packed images (the 2013 blog posts "Dilation and Erosion in packed
// bit" and "Connecting pixels"): binarise and pack the luminance 32 pixels to a word, dilate or
// erode a whole word per work-item, unpack to 8 bits for display.
// Built with -DSHAPE=SHAPE_SQUARE or -DSHAPE=SHAPE_DIAMOND, or with -DELEMENT=... for the
// rectangle, cross and ellipse of any size (morphology_runs.cl); the options are set in
// kernels/morphology/morphology_filter.cpp.

// [Packed layout]
// One bit per pixel, 1 = foreground. Row y starts at word y * words_per_row, where
// words_per_row = ceil(width / 32): the row pitch is a whole number of 32-bit words, so every
// work-item loads and stores aligned words and no word holds pixels of two rows. In memory the
// bytes are in PBM's order, 8 pixels a byte with the leftmost pixel in the most significant bit,
// so a downloaded row is a PBM row plus up to 3 padding bytes. Bits past the width are always 0:
// binarise_and_pack writes them 0 and the morphology kernels copy them through unchanged.
//
// Inside a kernel a word holds the leftmost of its 32 pixels in bit 31, so one shift moves all
// 32 pixels sideways across byte boundaries. On a little-endian device (every current GPU and
// CPU) that order is the memory order byte-swapped: one byte-permute instruction on most GPUs.
inline uint to_pixel_order(uint memory_word)
{
#ifdef __ENDIAN_LITTLE__
    return as_uint(as_uchar4(memory_word).s3210);
#else
    return memory_word;
#endif
}

// The swap is its own inverse; the second name says which way a word is going. (Not plain
// `memory_order`: OpenCL C 2.0 and later define a type of that name, which breaks the build there.)
inline uint to_memory_order(uint pixel_word)
{
    return to_pixel_order(pixel_word);
}
// [Packed layout]

// The bit of each of 8 pixels in its byte, leftmost first.
#define BYTE_BITS (uchar8)(0x80, 0x40, 0x20, 0x10, 0x08, 0x04, 0x02, 0x01)

// [Binarise and pack]
// 8 pixels to one packed byte without a loop: a vector compare marks the foreground lanes,
// select gives each of them its own bit (0 elsewhere), and three halving sums gather the 8 bits.
// The bits are distinct, so adding them is ORing them; sums because oclgrind crashes on vector
// AND and OR (docs/portability.md#oclgrind).
inline uint pack8(uchar8 luminance, uchar threshold, int invert)
{
    const uchar8 level = (uchar8)(threshold);
    const char8 foreground = invert ? luminance < level : luminance >= level;
    const uchar8 bits = select((uchar8)(0), BYTE_BITS, foreground);
    const uchar4 four = bits.lo + bits.hi;
    const uchar2 two = four.lo + four.hi;
    return two.x + two.y;
}

/**
 * One work-item per 32-bit word of the packed image, word get_global_id(0) of row
 * get_global_id(1): 32 luminance bytes in, 4 bytes out. A word that runs past the end of its row
 * reads only the pixels that exist and leaves the rest 0. Where the row starts on an 8-byte
 * boundary (every row when the width is a multiple of 8), the bytes are loaded as whole uint2s:
 * vload8 may not assume alignment, and a GPU's compiler may then load byte by byte
 * (docs/performance.md#morphology-choices).
 * @param luminance the input image, 8 bits a pixel, rows `width` bytes apart (no padding)
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param words_per_row 32-bit words from one packed row's start to the next, ceil(width / 32)
 * @param threshold the luminance at and above which a pixel is foreground, 0 .. 255
 * @param invert nonzero: pixels below the threshold are foreground instead
 * @param packed the binary image, one bit a pixel, rows `words_per_row` words apart
 */
__kernel void binarise_and_pack(__global const uchar* restrict luminance, const int width,
                                const int height, const int words_per_row, const uint threshold,
                                const int invert, __global uint* restrict packed)
{
    const int word = get_global_id(0);
    const int y = get_global_id(1);
    if (word >= words_per_row || y >= height) return;

    const int x0 = word * 32;
    const int pixels = min(32, width - x0);
    const __global uchar* row = luminance + y * width + x0;
    uint bits = 0;
    const bool aligned = ((y * width) & 7) == 0;
    if (pixels == 32 && aligned) {
        const __global uint2* row8 = (const __global uint2*)row;
        for (int byte = 0; byte < 4; ++byte)
            bits = bits << 8 | pack8(as_uchar8(row8[byte]), (uchar)threshold, invert);
    } else if (pixels == 32) {
        for (int byte = 0; byte < 4; ++byte)
            bits = bits << 8 | pack8(vload8(byte, row), (uchar)threshold, invert);
    } else {
        for (int k = 0; k < pixels; ++k) {
            const bool foreground = invert ? row[k] < threshold : row[k] >= threshold;
            bits |= (uint)foreground << (31 - k);
        }
    }
    packed[y * words_per_row + word] = to_memory_order(bits);
}
// [Binarise and pack]

// The rectangle, cross and ellipse of any size (-DELEMENT=...) take their passes from
// morphology_runs.cl instead of the square's and diamond's below; the rest is shared.
#ifndef ELEMENT
// [Structuring elements]
// A structuring element described row by row: rows dy = -RADIUS..RADIUS, and in each the
// reach, how many pixels it extends to the left and to the right of the centre column.
//   square:  the 3x3 block (the 8-neighbourhood), reach 1 in rows -1, 0 and +1;
//   diamond: every pixel within city-block distance 2, the blog's "2 pixel distance" element of
//            13 pixels, reach 0 in rows +-2, 1 in rows +-1 and 2 in row 0. Unlike the square it
//            covers (x +- 2, y) and (x, y +- 2), so a closing joins pixels one diagonal step apart.
// Both are symmetric about their centre, which lets erosion reuse the dilation (see below).
#define SHAPE_SQUARE 1
#define SHAPE_DIAMOND 2
#if SHAPE == SHAPE_SQUARE
#define RADIUS 1
#define REACH(dy) 1
#elif SHAPE == SHAPE_DIAMOND
#define RADIUS 2
// Spelled out, not 2 - abs(dy): a GPU's OpenCL compiler left abs(dy) to run time even in fully
// unrolled loops, so spread[][] below was indexed at run time and lived in stack memory instead
// of registers (docs/performance.md#morphology-choices). Not a conditional that negates dy
// either: that becomes an abs intrinsic, which oclgrind cannot run (docs/portability.md#oclgrind).
#define REACH(dy) ((dy) == 0 ? 2 : (dy) == 1 || (dy) == -1 ? 1 : 0)
#else
#error "build with -DSHAPE=SHAPE_SQUARE or -DSHAPE=SHAPE_DIAMOND"
#endif
// [Structuring elements]
#endif

// pixels_at_distance groups its shifts as the centre word's pixels and the neighbours' edge
// pixels: grouped by side, clang sees funnel shifts, which oclgrind cannot run
// (docs/portability.md#oclgrind).
// [Horizontal reach]
// Every pixel of a row within `reach` of each pixel of the centre word, ORed together. Shifting
// the word right by s moves every pixel s places to the right, so each position now holds its
// neighbour s to the left; the s positions that open up at the left end take the last s pixels
// of the word on the left. Shifting left brings in the neighbours on the right the same way.
// Each shift moves all 32 pixels at once.
inline uint pixels_at_distance(uint left, uint centre, uint right, int s)
{
    return ((centre >> s) | (centre << s)) | ((left << (32 - s)) | (right >> (32 - s)));
}

inline uint horizontal_dilation(uint left, uint centre, uint right, int reach)
{
    uint result = centre;
    for (int s = 1; s <= reach; ++s) result |= pixels_at_distance(left, centre, right, s);
    return result;
}
// [Horizontal reach]

// [Region]
// The region of interest, [left, right) x [top, bottom) in pixels, is processed as if it were
// the whole image (by default it is the whole image): pixels outside it count as pixels outside
// the image do, and keep their value in the output. The image's edges are simply the default
// region's edges, so one code path handles both.
typedef struct {
    int left;
    int top;
    int right;
    int bottom;
} Region;

// n ones from bit 31 down: the first n pixels of a word. Shifts by 32 are not defined (OpenCL
// takes the count modulo 32), hence the test for 0.
inline uint leading_pixels(int n)
{
    return n == 0 ? 0u : 0xFFFFFFFFu << (32 - n);
}

// The bits of word `word` whose pixels lie in columns [left, right) of the region. As right is
// at most the width, the padding bits past the width are never part of it.
inline uint region_columns(int word, Region region)
{
    const int begin = clamp(region.left - word * 32, 0, 32);
    const int end = clamp(region.right - word * 32, 0, 32);
    return leading_pixels(end) & ~leading_pixels(begin);
}

// A word as the dilation sees it: `complement` flips it (see the kernels), and bits outside the
// region, whole words past the row's ends and rows outside the region read as 0. Nothing is
// loaded outside the buffer: the morphology blog's kernel read index -1 and the previous row's last
// byte here.
inline uint load_in_region(__global const uint* packed, int words_per_row, int word, int y,
                           Region region, uint complement)
{
    if (y < region.top || y >= region.bottom || word < 0 || word >= words_per_row) return 0;
    const uint pixels = to_pixel_order(packed[y * words_per_row + word]) ^ complement;
    return pixels & region_columns(word, region);
}
// [Region]

#ifndef ELEMENT
// [Dilate word]
// The dilation of one word: for each row of the structuring element, the row's three words (or
// only the centre one where the reach is 0) spread sideways by the reach, all ORed together.
// Interior words, whose whole neighbourhood lies inside the region, load directly.
inline uint dilate_interior_word(__global const uint* packed, int words_per_row, int word, int y,
                                 uint complement)
{
    uint dilated = 0;
#pragma unroll
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
        const __global uint* row = packed + (y + dy) * words_per_row + word;
        const int reach = REACH(dy);
        const uint centre = to_pixel_order(row[0]) ^ complement;
        const uint left = reach > 0 ? to_pixel_order(row[-1]) ^ complement : 0;
        const uint right = reach > 0 ? to_pixel_order(row[1]) ^ complement : 0;
        dilated |= horizontal_dilation(left, centre, right, reach);
    }
    return dilated;
}

// Words along the region's edges read every neighbour through load_in_region.
inline uint dilate_edge_word(__global const uint* packed, int words_per_row, int word, int y,
                             Region region, uint complement)
{
    uint dilated = 0;
    for (int dy = -RADIUS; dy <= RADIUS; ++dy) {
        const int reach = REACH(dy);
        const int row = y + dy;
        uint left = 0, right = 0;
        const uint centre = load_in_region(packed, words_per_row, word, row, region, complement);
        if (reach > 0) {
            left = load_in_region(packed, words_per_row, word - 1, row, region, complement);
            right = load_in_region(packed, words_per_row, word + 1, row, region, complement);
        }
        dilated |= horizontal_dilation(left, centre, right, reach);
    }
    return dilated;
}

// Whether every word the dilation of word `word` in rows first_row .. last_row reads (the words
// either side, RADIUS rows above and below) lies wholly inside the region.
inline bool neighbourhood_in_region(int word, int first_row, int last_row, Region region)
{
    return first_row - RADIUS >= region.top && last_row + RADIUS < region.bottom &&
           (word - 1) * 32 >= region.left && (word + 2) * 32 <= region.right;
}

// One branch per work-item, not one per load. Why: docs/performance.md#morphology-choices.
inline uint dilate_word(__global const uint* packed, int words_per_row, int word, int y,
                        Region region, uint complement)
{
    const bool interior = neighbourhood_in_region(word, y, y, region);
    return interior ? dilate_interior_word(packed, words_per_row, word, y, complement)
                    : dilate_edge_word(packed, words_per_row, word, y, region, complement);
}
// [Dilate word]

// [Morphology kernels]
// Erosion by a symmetric element is the complement of the dilation of the complement, so erode
// runs the same code on flipped words (complement = all ones) and flips the result back. Outside
// the region the complement reads as 0, which is the original's foreground: dilation sees
// background beyond the edges, erosion foreground, and neither invents nor removes pixels at the
// edge. Words outside the region are copied.
inline void morphology_word(__global const uint* restrict source,
                            __global uint* restrict destination, int words_per_row, int word, int y,
                            Region region, uint complement)
{
    const int index = y * words_per_row + word;
    const bool region_row = y >= region.top && y < region.bottom;
    const uint inside = region_row ? region_columns(word, region) : 0;
    if (inside == 0) {
        destination[index] = source[index];
        return;
    }
    const uint dilated = dilate_word(source, words_per_row, word, y, region, complement);
    const uint result = dilated ^ complement;
    const uint original = to_pixel_order(source[index]);
    destination[index] = to_memory_order((result & inside) | (original & ~inside));
}

// Each work-item takes one word in each of ROWS_PER_ITEM consecutive rows. Output rows y and y+1
// share all but one of their input rows, so a column of outputs loads each input row once,
// spreads it sideways once per reach, and ORs the spreads together per output row, where one
// word per work-item loads every input row once per output row it feeds (three times for the
// square). Past a few rows per work-item the kernel slows again
// (docs/performance.md#morphology-choices). ROWS_PER_ITEM comes from the host as
// a build option (kernels/morphology/morphology_filter.cpp: 4 for the square, 3 for the diamond),
// which sizes the launch by it.
#ifndef ROWS_PER_ITEM
#error "build with -DROWS_PER_ITEM=n (kernels/morphology/morphology_filter.cpp passes it)"
#endif

// A column wholly inside the region, away from its edges: no masks, no border tests.
inline void dilate_interior_column(__global const uint* restrict source,
                                   __global uint* restrict destination, int words_per_row, int word,
                                   int y0, uint complement)
{
    // spread[r][reach]: input row y0 - RADIUS + r, spread sideways by `reach` pixels.
    uint spread[ROWS_PER_ITEM + 2 * RADIUS][RADIUS + 1];
    const __global uint* row = source + (y0 - RADIUS) * words_per_row + word;
#pragma unroll
    for (int r = 0; r < ROWS_PER_ITEM + 2 * RADIUS; ++r) {
        const uint left = to_pixel_order(row[-1]) ^ complement;
        const uint centre = to_pixel_order(row[0]) ^ complement;
        const uint right = to_pixel_order(row[1]) ^ complement;
        // Each reach extends the one before it by one pixel. (Calling horizontal_dilation for
        // each reach nests a loop whose count depends on this one; a GPU's compiler left that
        // inner loop rolled, and its branches held back the next rows' loads:
        // docs/performance.md#morphology-choices.)
        spread[r][0] = centre;
#pragma unroll
        for (int reach = 1; reach <= RADIUS; ++reach)
            spread[r][reach] =
                spread[r][reach - 1] | pixels_at_distance(left, centre, right, reach);
        row += words_per_row;
    }
#pragma unroll
    for (int i = 0; i < ROWS_PER_ITEM; ++i) {
        uint dilated = 0;
#pragma unroll
        for (int dy = -RADIUS; dy <= RADIUS; ++dy) dilated |= spread[i + RADIUS + dy][REACH(dy)];
        destination[(y0 + i) * words_per_row + word] = to_memory_order(dilated ^ complement);
    }
}

// The column of word `word` in rows y0 .. y0 + ROWS_PER_ITEM - 1 (those below the image's height
// left out), through morphology_item below: `complement` 0 dilates, all ones erodes, and words
// outside `region` (pixels) are copied.
inline void morphology_column(__global const uint* restrict source,
                              __global uint* restrict destination, int words_per_row, int height,
                              int word, int y0, Region region, uint complement)
{
    if (neighbourhood_in_region(word, y0, y0 + ROWS_PER_ITEM - 1, region)) {
        dilate_interior_column(source, destination, words_per_row, word, y0, complement);
        return;
    }
    for (int y = y0; y < min(y0 + ROWS_PER_ITEM, height); ++y)
        morphology_word(source, destination, words_per_row, word, y, region, complement);
}
// [Morphology kernels]
#else
#include "morphology_runs.cl"
#endif

// The entry points, one copy for every element: morphology_column is the square's and the
// diamond's above, or the runs' of any rectangle, cross or ellipse (morphology_runs.cl).
//
// The work-item's column, the same for every element: word get_global_id(0) in rows
// ROWS_PER_ITEM * get_global_id(1) onwards. The launch is rounded up to whole work-groups, so
// work-items past the row's last word or the image's last row do nothing. `source`,
// `destination`, `words_per_row` and `height` are the kernels' own (see dilate); `region` the
// region of interest in pixels; `complement` 0 to dilate, all ones to erode.
inline void morphology_item(__global const uint* restrict source,
                            __global uint* restrict destination, int words_per_row, int height,
                            Region region, uint complement)
{
    const int word = get_global_id(0);
    const int y0 = get_global_id(1) * ROWS_PER_ITEM;
    if (word >= words_per_row || y0 >= height) return;
    morphology_column(source, destination, words_per_row, height, word, y0, region, complement);
}

/**
 * Dilation of the words get_global_id(0) in rows ROWS_PER_ITEM * get_global_id(1) onwards.
 * @param source the binary image, one bit a pixel (the packed layout above)
 * @param destination its dilation, the same layout; words outside the region are copied
 * @param words_per_row 32-bit words from one packed row's start to the next, ceil(width / 32),
 *        the same in both images
 * @param height the image's height in rows
 * @param left the region of interest's first column, in pixels (0 for the whole image)
 * @param top its first row (0 for the whole image)
 * @param right the column just past it, in pixels, at most the width
 * @param bottom the row just past it, at most the height
 */
__kernel void dilate(__global const uint* restrict source, __global uint* restrict destination,
                     const int words_per_row, const int height, const int left, const int top,
                     const int right, const int bottom)
{
    const Region region = {left, top, right, bottom};
    morphology_item(source, destination, words_per_row, height, region, 0u);
}

/**
 * Erosion, as dilate: the complement's dilation, complemented.
 * @param source the binary image, one bit a pixel (the packed layout above)
 * @param destination its erosion, the same layout; words outside the region are copied
 * @param words_per_row 32-bit words from one packed row's start to the next, ceil(width / 32),
 *        the same in both images
 * @param height the image's height in rows
 * @param left the region of interest's first column, in pixels (0 for the whole image)
 * @param top its first row (0 for the whole image)
 * @param right the column just past it, in pixels, at most the width
 * @param bottom the row just past it, at most the height
 */
__kernel void erode(__global const uint* restrict source, __global uint* restrict destination,
                    const int words_per_row, const int height, const int left, const int top,
                    const int right, const int bottom)
{
    const Region region = {left, top, right, bottom};
    morphology_item(source, destination, words_per_row, height, region, 0xFFFFFFFFu);
}

// [Unpack]
// One packed byte to 8 pixels, the reverse of pack8: shifting lane k left by k brings pixel k's
// bit to the top of the lane, where a compare makes it -1 (0xFF, white) or 0 (black).
inline uchar8 unpack8(uint byte)
{
    const uchar8 top_bits = (uchar8)((uchar)byte) << (uchar8)(0, 1, 2, 3, 4, 5, 6, 7);
    return as_uchar8(top_bits >= (uchar8)(0x80));
}

/**
 * One work-item per word, word get_global_id(0) of row get_global_id(1): 4 bytes in, up to 32
 * luminance-sized bytes out, 255 for foreground and 0 for background, for display and for the
 * BMP file. Aligned rows store whole uint2s, as binarise_and_pack loads them.
 * @param packed the binary image, one bit a pixel, rows `words_per_row` words apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param words_per_row 32-bit words from one packed row's start to the next, ceil(width / 32)
 * @param image the output, 8 bits a pixel, rows `width` bytes apart (no padding)
 */
__kernel void unpack(__global const uint* restrict packed, const int width, const int height,
                     const int words_per_row, __global uchar* restrict image)
{
    const int word = get_global_id(0);
    const int y = get_global_id(1);
    if (word >= words_per_row || y >= height) return;

    const uint bits = to_pixel_order(packed[y * words_per_row + word]);
    const int x0 = word * 32;
    const int pixels = min(32, width - x0);
    __global uchar* row = image + y * width + x0;
    const bool aligned = ((y * width) & 7) == 0;
    if (pixels == 32 && aligned) {
        __global uint2* row8 = (__global uint2*)row;
        for (int byte = 0; byte < 4; ++byte)
            row8[byte] = as_uint2(unpack8(bits >> (24 - 8 * byte)));
    } else if (pixels == 32) {
        for (int byte = 0; byte < 4; ++byte) vstore8(unpack8(bits >> (24 - 8 * byte)), byte, row);
    } else {
        for (int k = 0; k < pixels; ++k) row[k] = (bits >> (31 - k)) & 1 ? 255 : 0;
    }
}
// [Unpack]
