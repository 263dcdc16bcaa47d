// SPDX-License-Identifier: Apache-2.0
// The gradient's magnitude, floor(sqrt(dX^2 + dY^2)), the image the Sobel samples write. Each
// Sobel kernel's file includes this one, so that the host builds one program per
// variant and takes sobel_magnitude from it (kernels/sobel/sobel_filter.cpp).
#ifndef SDK_SOBEL_MAGNITUDE_CL
#define SDK_SOBEL_MAGNITUDE_CL

// [Magnitude kernel]
// A float sqrt() may be a few ulp off, so its root is stepped to the exact integer floor:
// dX^2 + dY^2 is at most 32768, so one step either way is enough. Vector comparisons give -1
// for true, scalar ones 1. Eight lanes, not sixteen: a 16-lane int or float vector is 64 bytes,
// more than a CPU without AVX-512 passes to a function in registers, and PoCL's compiler warns
// of that on stderr at every first build.
inline int8 floor_sqrt8(int8 squared)
{
    int8 root = convert_int8(sqrt(convert_float8(squared)));
    root += root * root > squared;
    root -= (root + 1) * (root + 1) <= squared;
    return root;
}

// dX^2 + dY^2 of eight pixels, from their signed-byte gradients.
inline uchar8 magnitude8(char8 gradient_x, char8 gradient_y)
{
    const int8 dx = convert_int8(gradient_x);
    const int8 dy = convert_int8(gradient_y);
    return convert_uchar8(floor_sqrt8(dx * dx + dy * dy));
}

inline int floor_sqrt(int squared)
{
    int root = (int)sqrt((float)squared);
    root -= root * root > squared;
    root += (root + 1) * (root + 1) <= squared;
    return root;
}

/**
 * The magnitude of pixels x0 .. x0+15 of row y, x0 = 16 * get_global_id(0), y = get_global_id(1):
 * one 16-byte load of each gradient and one store where all 16 exist, else pixel by pixel.
 * @param gradient_x dX, one signed byte a pixel, rows `row_pitch` bytes apart
 * @param gradient_y dY, the same
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch bytes from one row's start to the next, the same in all three images
 * @param magnitude the output, one byte a pixel, 0 .. 181
 */
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
        // Two halves of eight, each loaded and stored on its own: oclgrind 21.10 takes the
        // halves of one 16-byte load (.lo, .hi) for uninitialised (docs/portability.md#oclgrind).
        vstore8(magnitude8(vload8(0, gradient_x + i), vload8(0, gradient_y + i)), 0, magnitude + i);
        vstore8(magnitude8(vload8(1, gradient_x + i), vload8(1, gradient_y + i)), 1, magnitude + i);
        return;
    }
    for (int x = 0; x < width - x0; ++x) {
        const int dx = gradient_x[i + x];
        const int dy = gradient_y[i + x];
        magnitude[i + x] = (uchar)floor_sqrt(dx * dx + dy * dy);
    }
}
// [Magnitude kernel]

#endif  // SDK_SOBEL_MAGNITUDE_CL
