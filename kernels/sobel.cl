// The vectorised Sobel: each work-item computes 16 neighbouring outputs of a row (sobel_16x1,
// the Mali tutorial's design) or a 16x4 block (sobel_16x4, the Adreno post's data reuse).
// Built together with border.cl and sobel_pixel.cl (see common/filters/sobel_filter.cpp).

// [Row terms]
// Both Sobel masks are separable, so each input row contributes two 16-wide terms:
//   difference = right - left              (weighted 1, 2, 1 down the rows, gives gx)
//   smoothing  = left + 2 * centre + right (row above minus row below gives gy)
// Three overlapping 16-byte loads fetch columns x-1, x and x+1. 16-bit lanes hold every
// intermediate (|gx|, |gy| <= 1020) and pack twice as many lanes per SIMD register as 32-bit.
inline void row_terms(const __global uchar* row, short16* difference, short16* smoothing)
{
    const short16 left = convert_short16(vload16(0, row - 1));
    const short16 centre = convert_short16(vload16(0, row));
    const short16 right = convert_short16(vload16(0, row + 1));
    *difference = right - left;
    *smoothing = left + centre + centre + right;
}
// [Row terms]

// [Store gradients]
// Combines the terms of the rows above, at and below an output row, and stores dX, dY as 16
// signed bytes each: an arithmetic shift by 3 brings +-1020 into a char's range.
inline void store_gradients(short16 difference_above, short16 difference_here,
                            short16 difference_below, short16 smoothing_above,
                            short16 smoothing_below, __global char* gradient_x,
                            __global char* gradient_y)
{
    const short16 gx = difference_above + difference_here + difference_here + difference_below;
    const short16 gy = smoothing_above - smoothing_below;
    vstore16(convert_char16(gx >> (short16)(3)), 0, gradient_x);
    vstore16(convert_char16(gy >> (short16)(3)), 0, gradient_y);
}
// [Store gradients]

// [Edge block]
// The slow path, for blocks that touch the image's edge or run past its right end: one pixel at
// a time through the border. Only blocks at the edges take it, so the interior stays branch-free.
inline void sobel_block_with_border(__global const uchar* luminance, int width, int height,
                                    int x0, int y0, int block_height, __global char* gradient_x,
                                    __global char* gradient_y)
{
    for (int y = y0; y < min(y0 + block_height, height); ++y)
        for (int x = x0; x < min(x0 + 16, width); ++x)
            sobel_pixel_with_border(luminance, width, height, x, y, gradient_x, gradient_y);
}
// [Edge block]

// [Kernel 16x1]
__kernel void sobel_16x1(__global const uchar* restrict luminance, const int width,
                         const int height, __global char* restrict gradient_x,
                         __global char* restrict gradient_y)
{
    const int x0 = get_global_id(0) * 16;
    const int y = get_global_id(1);
    if (x0 >= width || y >= height) return;

    // Interior: columns x0-1 .. x0+16 and rows y-1 .. y+1 all exist.
    const bool interior = x0 >= 1 && x0 + 16 < width && y >= 1 && y + 1 < height;
    if (!interior) {
        sobel_block_with_border(luminance, width, height, x0, y, 1, gradient_x, gradient_y);
        return;
    }

    const int offset = y * width + x0;
    short16 difference_above, smoothing_above, difference_here, smoothing_here;
    short16 difference_below, smoothing_below;
    row_terms(luminance + offset - width, &difference_above, &smoothing_above);
    row_terms(luminance + offset, &difference_here, &smoothing_here);
    row_terms(luminance + offset + width, &difference_below, &smoothing_below);
    store_gradients(difference_above, difference_here, difference_below, smoothing_above,
                    smoothing_below, gradient_x + offset, gradient_y + offset);
}
// [Kernel 16x1]

// [Kernel 16x4]
__kernel void sobel_16x4(__global const uchar* restrict luminance, const int width,
                         const int height, __global char* restrict gradient_x,
                         __global char* restrict gradient_y)
{
    const int x0 = get_global_id(0) * 16;
    const int y0 = get_global_id(1) * 4;
    if (x0 >= width || y0 >= height) return;

    // Interior: columns x0-1 .. x0+16 and rows y0-1 .. y0+4 all exist.
    const bool interior = x0 >= 1 && x0 + 16 < width && y0 >= 1 && y0 + 4 < height;
    if (!interior) {
        sobel_block_with_border(luminance, width, height, x0, y0, 4, gradient_x, gradient_y);
        return;
    }

    // Six input rows feed four output rows. Each row is loaded once and its terms serve up to
    // three outputs: 18 vector loads instead of the 36 that four 16x1 work-items make.
    const int offset = y0 * width + x0;
    const __global uchar* row = luminance + offset - width;
    short16 difference[6], smoothing[6];
    for (int r = 0; r < 6; ++r)
        row_terms(row + r * width, &difference[r], &smoothing[r]);

    for (int r = 0; r < 4; ++r) {
        const int out = offset + r * width;
        store_gradients(difference[r], difference[r + 1], difference[r + 2], smoothing[r],
                        smoothing[r + 2], gradient_x + out, gradient_y + out);
    }
}
// [Kernel 16x4]

// [Magnitude kernel]
// floor(sqrt(dX^2 + dY^2)) on the device, for users who keep the whole pipeline there.
// sqrt() may be a few ulp off, so the float root is corrected to the exact integer root.
__kernel void sobel_magnitude(__global const char* restrict gradient_x,
                              __global const char* restrict gradient_y, const int pixel_count,
                              __global uchar* restrict magnitude)
{
    const int i = get_global_id(0);
    if (i >= pixel_count) return;
    const int dx = gradient_x[i];
    const int dy = gradient_y[i];
    const int squared = dx * dx + dy * dy;
    int root = (int)sqrt((float)squared);
    if (root * root > squared) --root;
    if ((root + 1) * (root + 1) <= squared) ++root;
    magnitude[i] = (uchar)root;
}
// [Magnitude kernel]
