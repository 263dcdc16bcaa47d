// SPDX-License-Identifier: Apache-2.0
// The vectorised Sobel: each work-item computes 16 neighbouring outputs of a row (sobel_16x1,
// the Mali tutorial's design) or a 16x4 block (sobel_16x4, the Adreno post's data reuse), and
// sobel_16x4_packed does the 16x4 arithmetic two pixels per 32-bit operation.
#include "border.cl"
#include "sobel_pixel.cl"


// Rows start `row_pitch` bytes apart, a multiple of 64 (kernels/sobel/sobel_filter.cpp), so a
// work-item's 16 pixels x0 .. x0+15 (x0 a multiple of 16) are one aligned 16-byte vector: a
// single wide load or store, where an unaligned vload16 can become 16 byte accesses.

// [Neighbours]
// The pixels just left and right of a 16-pixel run, x0-1 and x0+16, as single bytes; at the
// image's left and right edges the border supplies them. This is a per-work-item choice, not a
// per-pixel check, so work-items at the edges stay on the fast path.
inline int neighbour_byte(const __global uchar* row, int x, int width)
{
    const int inside = border_coordinate(x, width);
    return inside < 0 ? 0 : row[inside];
}
// [Neighbours]

// [Row terms]
// A row's pixels x0-1 .. x0+15 (left), x0 .. x0+15 (centre) and x0+1 .. x0+16 (right) as three
// 16-byte vectors, from one aligned load and the two neighbour bytes. The shifted vectors are
// built with swizzles, whose lanes the compiler sees as constants: one byte-shift instruction on
// a CPU, byte permutes on a GPU. (shuffle2 with a constant mask means the same, but PoCL
// compiles it lane by lane, which made the 16x1 kernel much slower there:
// docs/performance.md#sobel-choices.)
// Each lane is named on its own because oclgrind crashes on grouped swizzles (c.s0123).
inline void row_pixels(const __global uchar* row, int x0, int width, uchar16* left,
                       uchar16* centre, uchar16* right)
{
    *centre = *(const __global uchar16*)(row + x0);
    const uchar before = (uchar)neighbour_byte(row, x0 - 1, width);
    const uchar after = (uchar)neighbour_byte(row, x0 + 16, width);
    const uchar16 c = *centre;
    *left = (uchar16)(before, c.s0, c.s1, c.s2, c.s3, c.s4, c.s5, c.s6, c.s7, c.s8, c.s9, c.sa,
                      c.sb, c.sc, c.sd, c.se);
    *right = (uchar16)(c.s1, c.s2, c.s3, c.s4, c.s5, c.s6, c.s7, c.s8, c.s9, c.sa, c.sb, c.sc,
                       c.sd, c.se, c.sf, after);
}

// [Separable row terms]
// Both Sobel masks are separable, so each input row contributes two 16-wide terms:
//   difference = right - left              (weighted 1, 2, 1 down the rows, gives gx)
//   smoothing  = left + 2 * centre + right (row above minus row below gives gy)
// 16-bit lanes hold every intermediate (|gx|, |gy| <= 1020).
inline void row_terms(const __global uchar* row, int x0, int width, short16* difference,
                      short16* smoothing)
{
    uchar16 left, centre, right;
    row_pixels(row, x0, width, &left, &centre, &right);
    const short16 l = convert_short16(left);
    const short16 c = convert_short16(centre);
    const short16 r = convert_short16(right);
    *difference = r - l;
    *smoothing = l + c + c + r;
}
// [Separable row terms]
// [Row terms]

// [Store gradients]
// Combines the terms of the rows above, at and below an output row, and stores dX, dY as 16
// signed bytes each, in one aligned store apiece: an arithmetic shift by 3 brings +-1020 into a
// char's range.
inline void store_gradients(short16 difference_above, short16 difference_here,
                            short16 difference_below, short16 smoothing_above,
                            short16 smoothing_below, int x0, int width,
                            __global char* gradient_x, __global char* gradient_y)
{
    char16 dx = convert_char16(
        (difference_above + difference_here + difference_here + difference_below) >> (short)3);
    char16 dy = convert_char16((smoothing_above - smoothing_below) >> (short)3);
#if defined(BORDER_NONE)
    // Only pixels whose whole window is inside are computed: not the first and last columns.
    if (x0 == 0) dx.s0 = dy.s0 = 0;
    if (x0 + 16 == width) dx.sf = dy.sf = 0;
#endif
    *(__global char16*)gradient_x = dx;
    *(__global char16*)gradient_y = dy;
}
// [Store gradients]

// [Edge block]
// The slow path, for the top and bottom rows (whose neighbours above or below come from the
// border) and for the partial run at the right end of rows whose width is not a multiple of 16:
// one pixel at a time through the border, on PoCL far dearer per pixel than the fast path
// (docs/performance.md#sobel-choices). So few pixels take it that a GPU does not notice, and it
// keeps the fast path free of per-pixel checks.
inline void sobel_block_with_border(__global const uchar* luminance, int width, int height,
                                    int row_pitch, int x0, int y0, int block_height,
                                    __global char* gradient_x, __global char* gradient_y)
{
    for (int y = y0; y < min(y0 + block_height, height); ++y)
        for (int x = x0; x < min(x0 + 16, width); ++x)
            sobel_pixel_with_border(luminance, width, height, row_pitch, x, y, gradient_x,
                                    gradient_y);
}
// [Edge block]

// [Kernel 16x1]
// The 16 outputs of row y from x0 on, when all 16 pixels exist and so do the rows above and
// below: three row loads, one store each for dX and dY.
inline void sobel_16_pixels(__global const uchar* luminance, int width, int row_pitch, int x0,
                            int y, __global char* gradient_x, __global char* gradient_y)
{
    const int offset = y * row_pitch;
    short16 difference_above, smoothing_above, difference_here, smoothing_here;
    short16 difference_below, smoothing_below;
    row_terms(luminance + offset - row_pitch, x0, width, &difference_above, &smoothing_above);
    row_terms(luminance + offset, x0, width, &difference_here, &smoothing_here);
    row_terms(luminance + offset + row_pitch, x0, width, &difference_below, &smoothing_below);
    store_gradients(difference_above, difference_here, difference_below, smoothing_above,
                    smoothing_below, x0, width, gradient_x + offset + x0,
                    gradient_y + offset + x0);
}

// The 16 outputs of row y from x0 on, whichever path they need: the one above when it can,
// else pixel by pixel (the top and bottom rows, the right tail).
inline void sobel_16_outputs(__global const uchar* luminance, int width, int height,
                             int row_pitch, int x0, int y, __global char* gradient_x,
                             __global char* gradient_y)
{
    const bool fast = x0 + 16 <= width && y >= 1 && y + 1 < height;
    if (fast)
        sobel_16_pixels(luminance, width, row_pitch, x0, y, gradient_x, gradient_y);
    else
        sobel_block_with_border(luminance, width, height, row_pitch, x0, y, 1, gradient_x,
                                gradient_y);
}

// vec_type_hint: the kernel is written in 16-lane vectors already. Without the hint, Intel's CPU
// compiler vectorises it a second time, across work-items, and the result is many times slower
// to compile and to run (docs/portability.md#intels-cpu-runtime). Other compilers may ignore it.
__attribute__((vec_type_hint(short16)))
__kernel void sobel_16x1(__global const uchar* restrict luminance, const int width,
                         const int height, const int row_pitch,
                         __global char* restrict gradient_x, __global char* restrict gradient_y)
{
    const int x0 = get_global_id(0) * 16;
    const int y = get_global_id(1);
    if (x0 >= width || y >= height) return;
    sobel_16_outputs(luminance, width, height, row_pitch, x0, y, gradient_x, gradient_y);
}
// [Kernel 16x1]

// [Edge tile]
// A 16x4 tile on the image's top or bottom edge still has rows whose whole window is inside the
// image: those take the 16x1 path, so only the first and last rows of the image, and the right
// tail of rows whose width is not a multiple of 16, go pixel by pixel. (Doing whole edge tiles
// pixel by pixel cost PoCL a large share of the packed kernel's time:
// docs/performance.md#sobel-choices.)
inline void sobel_edge_tile(__global const uchar* luminance, int width, int height,
                            int row_pitch, int x0, int y0, __global char* gradient_x,
                            __global char* gradient_y)
{
    for (int y = y0; y < min(y0 + 4, height); ++y)
        sobel_16_outputs(luminance, width, height, row_pitch, x0, y, gradient_x, gradient_y);
}
// [Edge tile]

// [Kernel 16x4]
__attribute__((vec_type_hint(short16)))
__kernel void sobel_16x4(__global const uchar* restrict luminance, const int width,
                         const int height, const int row_pitch,
                         __global char* restrict gradient_x, __global char* restrict gradient_y)
{
    const int x0 = get_global_id(0) * 16;
    const int y0 = get_global_id(1) * 4;
    if (x0 >= width || y0 >= height) return;

    // Fast path: all 16x4 pixels exist and so do the rows above and below the block.
    const bool fast = x0 + 16 <= width && y0 >= 1 && y0 + 4 < height;
    if (!fast) {
        sobel_edge_tile(luminance, width, height, row_pitch, x0, y0, gradient_x, gradient_y);
        return;
    }

    // Six input rows feed four output rows. Each row is loaded once and its terms serve up to
    // three outputs: 6 row loads instead of the 12 that four 16x1 work-items make.
    const __global uchar* row = luminance + (y0 - 1) * row_pitch;
    short16 difference[6], smoothing[6];
    for (int r = 0; r < 6; ++r)
        row_terms(row + r * row_pitch, x0, width, &difference[r], &smoothing[r]);

    for (int r = 0; r < 4; ++r) {
        const int out = (y0 + r) * row_pitch + x0;
        store_gradients(difference[r], difference[r + 1], difference[r + 2], smoothing[r],
                        smoothing[r + 2], x0, width, gradient_x + out, gradient_y + out);
    }
}
// [Kernel 16x4]

// [Packed row terms]
// sobel_16x4_packed does the same arithmetic two pixels per 32-bit operation ("SIMD within a
// register"): the 16 bytes are read as four little-endian 32-bit words (every GPU and CPU we
// know of; the host refuses a big-endian device for this variant), and the even bytes (0 and 2
// of each word) and the odd bytes (1 and 3) are spread into 16-bit fields of their own words.
// Many GPUs have no 16-lane 16-bit ALU, so short16 arithmetic costs one 32-bit operation per lane;
// packed, it costs one per two lanes, and the kernel stops being limited by integer throughput.
// Fields must never borrow from their neighbours, so differences carry a bias that keeps them
// positive: right - left + 256 is in [1, 511], and every later sum stays below 2^16.
typedef struct {
    uint4 even;  // pixels 0, 2, 4, ... of the run, one per 16-bit field
    uint4 odd;   // pixels 1, 3, 5, ...
} PackedTerms;

#define EVEN_FIELDS ((uint4)(0x00FF00FFu))

inline void packed_row_terms(const __global uchar* row, int x0, int width,
                             PackedTerms* difference, PackedTerms* smoothing)
{
    const uint4 centre = *(const __global uint4*)(row + x0);
    const uint before = (uint)neighbour_byte(row, x0 - 1, width);
    const uint after = (uint)neighbour_byte(row, x0 + 16, width);
    // Pixels x-1 and x+1 for every x: each little-endian word moved by one byte (a rotate, one
    // funnel-shift instruction on most GPUs), the byte that wraps round replaced by the
    // neighbouring word's (or the neighbour byte at either end). Measured faster on a GPU
    // than building the shifted vectors with shuffle2 (docs/performance.md#sobel-choices).
    const uint4 word_before = (uint4)(before << 24, centre.s0, centre.s1, centre.s2);
    const uint4 word_after = (uint4)(centre.s1, centre.s2, centre.s3, after);
    const uint4 left = (rotate(centre, (uint4)(8)) & (uint4)(0xFFFFFF00u)) | (word_before >> 24);
    const uint4 right = (rotate(centre, (uint4)(24)) & (uint4)(0x00FFFFFFu)) | (word_after << 24);

    const uint4 left_even = left & EVEN_FIELDS, left_odd = (left >> 8) & EVEN_FIELDS;
    const uint4 centre_even = centre & EVEN_FIELDS, centre_odd = (centre >> 8) & EVEN_FIELDS;
    const uint4 right_even = right & EVEN_FIELDS, right_odd = (right >> 8) & EVEN_FIELDS;
    const uint4 bias = (uint4)(0x01000100u);  // +256 in each field
    difference->even = right_even + bias - left_even;
    difference->odd = right_odd + bias - left_odd;
    smoothing->even = left_even + (centre_even << 1) + right_even;
    smoothing->odd = left_odd + (centre_odd << 1) + right_odd;
}
// [Packed row terms]

// [Packed store]
// gx + 1024 and gy + 1024 are in [4, 2044]: shifted right by 3 they are dX + 128 and dY + 128,
// one byte each, and flipping the top bit turns that offset byte into the signed value.
inline uint4 packed_to_bytes(uint4 even, uint4 odd)
{
    const uint4 even_bytes = (even >> 3) & EVEN_FIELDS;
    const uint4 odd_bytes = ((odd >> 3) & EVEN_FIELDS) << 8;
    return (even_bytes | odd_bytes) ^ (uint4)(0x80808080u);
}

inline void store_packed_gradients(PackedTerms difference_above, PackedTerms difference_here,
                                   PackedTerms difference_below, PackedTerms smoothing_above,
                                   PackedTerms smoothing_below, int x0, int width,
                                   __global char* gradient_x, __global char* gradient_y)
{
    // The three differences carry 256 each, weighted 1, 2, 1: a bias of 1024, as wanted.
    const uint4 gx_even = difference_above.even + (difference_here.even << 1) +
                          difference_below.even;
    const uint4 gx_odd = difference_above.odd + (difference_here.odd << 1) + difference_below.odd;
    const uint4 bias = (uint4)(0x04000400u);  // +1024 in each field
    const uint4 gy_even = smoothing_above.even + bias - smoothing_below.even;
    const uint4 gy_odd = smoothing_above.odd + bias - smoothing_below.odd;
    char16 dx = as_char16(packed_to_bytes(gx_even, gx_odd));
    char16 dy = as_char16(packed_to_bytes(gy_even, gy_odd));
#if defined(BORDER_NONE)
    if (x0 == 0) dx.s0 = dy.s0 = 0;
    if (x0 + 16 == width) dx.sf = dy.sf = 0;
#endif
    *(__global char16*)gradient_x = dx;
    *(__global char16*)gradient_y = dy;
}
// [Packed store]

// [Kernel 16x4 packed]
__attribute__((vec_type_hint(uint4)))
__kernel void sobel_16x4_packed(__global const uchar* restrict luminance, const int width,
                                const int height, const int row_pitch,
                                __global char* restrict gradient_x,
                                __global char* restrict gradient_y)
{
    const int x0 = get_global_id(0) * 16;
    const int y0 = get_global_id(1) * 4;
    if (x0 >= width || y0 >= height) return;

    const bool fast = x0 + 16 <= width && y0 >= 1 && y0 + 4 < height;
    if (!fast) {
        sobel_edge_tile(luminance, width, height, row_pitch, x0, y0, gradient_x, gradient_y);
        return;
    }

    const __global uchar* row = luminance + (y0 - 1) * row_pitch;
    PackedTerms difference[6], smoothing[6];
    for (int r = 0; r < 6; ++r)
        packed_row_terms(row + r * row_pitch, x0, width, &difference[r], &smoothing[r]);

    for (int r = 0; r < 4; ++r) {
        const int out = (y0 + r) * row_pitch + x0;
        store_packed_gradients(difference[r], difference[r + 1], difference[r + 2],
                               smoothing[r], smoothing[r + 2], x0, width, gradient_x + out,
                               gradient_y + out);
    }
}
// [Kernel 16x4 packed]

// [Magnitude kernel]
// floor(sqrt(dX^2 + dY^2)) on the device, 16 pixels per work-item. A float sqrt() may be a few
// ulp off, so its root is stepped to the exact integer floor: dX^2 + dY^2 is at most 32768, so
// one step either way is enough. Vector comparisons give -1 for true, scalar ones 1.
inline int16 floor_sqrt16(int16 squared)
{
    int16 root = convert_int16(sqrt(convert_float16(squared)));
    root += root * root > squared;
    root -= (root + 1) * (root + 1) <= squared;
    return root;
}

inline int floor_sqrt(int squared)
{
    int root = (int)sqrt((float)squared);
    root -= root * root > squared;
    root += (root + 1) * (root + 1) <= squared;
    return root;
}

__kernel void sobel_magnitude(__global const char* restrict gradient_x,
                              __global const char* restrict gradient_y, const int width,
                              const int height, const int row_pitch,
                              __global uchar* restrict magnitude)
{
    const int x0 = get_global_id(0) * 16;
    const int y = get_global_id(1);
    if (x0 >= width || y >= height) return;
    const int i = y * row_pitch + x0;
    if (x0 + 16 <= width) {
        const int16 dx = convert_int16(vload16(0, gradient_x + i));
        const int16 dy = convert_int16(vload16(0, gradient_y + i));
        vstore16(convert_uchar16(floor_sqrt16(dx * dx + dy * dy)), 0, magnitude + i);
        return;
    }
    for (int x = 0; x < width - x0; ++x) {
        const int dx = gradient_x[i + x];
        const int dy = gradient_y[i + x];
        magnitude[i + x] = (uchar)floor_sqrt(dx * dx + dy * dy);
    }
}
// [Magnitude kernel]
