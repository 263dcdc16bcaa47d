// SPDX-License-Identifier: Apache-2.0
// Border handling shared by every filter; kernel files `#include "border.cl"`. The mode is chosen
// when the program is built, by name (-DBORDER_REFLECT101, from border_build_option in
// kernels/border.cpp), so the interior code carries no mode switch.
#ifndef SDK_BORDER_CL
#define SDK_BORDER_CL

#if defined(BORDER_REPLICATE) + defined(BORDER_REFLECT101) + defined(BORDER_CONSTANT) + \
        defined(BORDER_NONE) !=                                                         \
    1
#error "define exactly one of BORDER_REPLICATE, BORDER_REFLECT101, BORDER_CONSTANT, BORDER_NONE"
#endif

// [Border coordinate]
// The coordinate to read in place of i on an axis of n pixels, however far outside i lies (a 5x5
// window reaches two), or -1 where the border supplies zero (constant, and none). Plain % and
// comparisons only: oclgrind cannot run the intrinsics that abs() can compile to.
inline int border_coordinate(int i, int n)
{
    if (i >= 0 && i < n) return i;
#if defined(BORDER_REPLICATE)
    return i < 0 ? 0 : n - 1;
#elif defined(BORDER_REFLECT101)
    if (n == 1) return 0;
    // Mirroring about both edges repeats with period 2n-2: fold i into one period, then the
    // second half of the period is the first read backwards.
    const int period = 2 * n - 2;
    int j = i % period;
    if (j < 0) j += period;
    return j < n ? j : period - j;
#else
    return -1;
#endif
}
// [Border coordinate]

// [Border float pixel]
// Where pixel (x, y) of an image whose rows start `row_pitch` elements apart is read from: its
// index with the border applied, or -1 where the border supplies zero. Only the edge paths call
// this: it costs two comparisons per axis, which the interior paths never pay.
inline int border_index(int width, int height, int row_pitch, int x, int y)
{
    const int bx = border_coordinate(x, width);
    const int by = border_coordinate(y, height);
    return bx < 0 || by < 0 ? -1 : by * row_pitch + bx;
}

// One pixel of a float image, or the border's substitute outside it (the FIR filter reads the
// luminance as floats).
inline float read_float_with_border(__global const float* image, int width, int height,
                                    int row_pitch, int x, int y)
{
    const int index = border_index(width, height, row_pitch, x, y);
    return index < 0 ? 0.0f : image[index];
}
// [Border float pixel]

// The same for an 8-bit image (the Sobel kernels' edge paths).
inline int read_pixel_with_border(__global const uchar* image, int width, int height, int row_pitch,
                                  int x, int y)
{
    const int index = border_index(width, height, row_pitch, x, y);
    return index < 0 ? 0 : image[index];
}

#endif  // SDK_BORDER_CL
