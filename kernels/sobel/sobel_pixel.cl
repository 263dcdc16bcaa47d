// SPDX-License-Identifier: Apache-2.0
// dX and dY of one pixel read through the border: the edge path of every Sobel kernel.
// Images are stored with rows `row_pitch` bytes apart (kernels/sobel/sobel_filter.cpp explains
// why); the contract is in kernels/sobel/sobel_reference.hpp, matched bit for bit.
#ifndef SDK_SOBEL_PIXEL_CL
#define SDK_SOBEL_PIXEL_CL

#include "border.cl"

// [Sobel edge pixel]
inline void sobel_pixel_with_border(__global const uchar* luminance, int width, int height,
                                    int row_pitch, int x, int y, __global char* gradient_x,
                                    __global char* gradient_y)
{
    const int index = y * row_pitch + x;
#if defined(BORDER_NONE)
    // The Mali SDK's behaviour: a pixel whose window leaves the image is not computed.
    if (x < 1 || y < 1 || x + 1 >= width || y + 1 >= height) {
        gradient_x[index] = 0;
        gradient_y[index] = 0;
        return;
    }
#endif
#define L(dx, dy) read_pixel_with_border(luminance, width, height, row_pitch, x + (dx), y + (dy))
    const int gx = (L(1, -1) + 2 * L(1, 0) + L(1, 1)) - (L(-1, -1) + 2 * L(-1, 0) + L(-1, 1));
    const int gy = (L(-1, -1) + 2 * L(0, -1) + L(1, -1)) - (L(-1, 1) + 2 * L(0, 1) + L(1, 1));
#undef L
    // OpenCL C's >> on a negative value is an arithmetic shift; |g| <= 1020, so g >> 3 fits a char.
    gradient_x[index] = (char)(gx >> 3);
    gradient_y[index] = (char)(gy >> 3);
}
// [Sobel edge pixel]

#endif  // SDK_SOBEL_PIXEL_CL
