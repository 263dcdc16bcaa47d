// Border handling shared by every filter. The mode is chosen when the program is built,
// -DBORDER=N with the numbers of filters/border.hpp, so the interior code carries no mode switch.
#define BORDER_REPLICATE 0
#define BORDER_REFLECT101 1
#define BORDER_CONSTANT 2
#define BORDER_NONE 3
#ifndef BORDER
#define BORDER BORDER_REPLICATE
#endif

// [Border coordinate]
// The coordinate to read in place of i on an axis of n pixels (i at most one step outside),
// or -1 where the border supplies zero (constant, and none).
inline int border_coordinate(int i, int n)
{
    if (i >= 0 && i < n) return i;
#if BORDER == BORDER_REPLICATE
    return i < 0 ? 0 : n - 1;
#elif BORDER == BORDER_REFLECT101
    if (n == 1) return 0;
    return i < 0 ? -i : 2 * n - 2 - i;
#else
    return -1;
#endif
}
// [Border coordinate]

// One pixel of an 8-bit image whose rows start `row_pitch` bytes apart, or the border's
// substitute outside it. Only the edge paths call this: it costs two comparisons per axis, which
// the interior paths never pay.
inline int read_pixel_with_border(__global const uchar* image, int width, int height,
                                  int row_pitch, int x, int y)
{
    const int bx = border_coordinate(x, width);
    const int by = border_coordinate(y, height);
    if (bx < 0 || by < 0) return 0;
    return image[by * row_pitch + bx];
}

// [Border float pixel]
// The same for a float image (the FIR filter reads the luminance as floats).
inline float read_float_with_border(__global const float* image, int width, int height,
                                    int row_pitch, int x, int y)
{
    const int bx = border_coordinate(x, width);
    const int by = border_coordinate(y, height);
    if (bx < 0 || by < 0) return 0.0f;
    return image[by * row_pitch + bx];
}
// [Border float pixel]
