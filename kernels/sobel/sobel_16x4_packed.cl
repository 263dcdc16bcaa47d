// SPDX-License-Identifier: Apache-2.0
// The 16x4 kernel (sobel_16x4.cl) with its arithmetic two pixels per 32-bit operation. Edge
// tiles take the 16x4 kernel's path (sobel_rows.cl); the contract is
// kernels/sobel/sobel_reference.hpp, matched bit for bit.
#include "sobel_rows.cl"

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

inline void packed_row_terms(const __global uchar* row, int x0, int width, PackedTerms* difference,
                             PackedTerms* smoothing)
{
    const uint4 centre = *(const __global uint4*)(row + x0);
    const uint before = (uint)neighbour_byte(row, x0 - 1, width);
    const uint after = (uint)neighbour_byte(row, x0 + 16, width);
    // Pixels x-1 and x+1 for every x: each little-endian word moved by one byte (a rotate, one
    // funnel-shift instruction on most GPUs), the byte that wraps round replaced by the
    // neighbouring word's (or the neighbour byte at either end). Why not shuffle2:
    // docs/performance.md#sobel-choices.
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
    const uint4 gx_even =
        difference_above.even + (difference_here.even << 1) + difference_below.even;
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
/**
 * dX and dY of the 16x4 block from x0 = 16 * get_global_id(0), y0 = 4 * get_global_id(1).
 * Little-endian devices only (the host checks).
 * @param luminance the input image, 8 bits a pixel, rows `row_pitch` bytes apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch bytes from one row's start to the next, a multiple of 64, the same in all
 *        three images
 * @param gradient_x the output dX, one signed byte a pixel: (horizontal Sobel) >> 3
 * @param gradient_y the output dY, one signed byte a pixel: (vertical Sobel) >> 3
 */
__attribute__((vec_type_hint(uint4))) __kernel void sobel_16x4_packed(
    __global const uchar* restrict luminance, const int width, const int height,
    const int row_pitch, __global char* restrict gradient_x, __global char* restrict gradient_y)
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
        store_packed_gradients(difference[r], difference[r + 1], difference[r + 2], smoothing[r],
                               smoothing[r + 2], x0, width, gradient_x + out, gradient_y + out);
    }
}
// [Kernel 16x4 packed]

// The host runs sobel_magnitude from the same program (sobel_16x1.cl says why).
#include "sobel_magnitude.cl"
