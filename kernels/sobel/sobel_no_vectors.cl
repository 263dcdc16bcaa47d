// SPDX-License-Identifier: Apache-2.0
// The naive Sobel: one work-item per output pixel, nine scalar byte loads each.
#include "border.cl"
#include "sobel_pixel.cl"

// [Naive kernel]
/**
 * dX and dY of pixel (get_global_id(0), get_global_id(1)).
 * @param luminance the input image, 8 bits a pixel, rows `row_pitch` bytes apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch bytes from one row's start to the next, the same in all three images
 * @param gradient_x the output dX, one signed byte a pixel: (horizontal Sobel) >> 3
 * @param gradient_y the output dY, one signed byte a pixel: (vertical Sobel) >> 3
 */
__kernel void sobel_no_vectors(__global const uchar* restrict luminance, const int width,
                               const int height, const int row_pitch,
                               __global char* restrict gradient_x,
                               __global char* restrict gradient_y)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    // The global size is rounded up to whole work-groups, so some work-items have no pixel.
    if (x >= width || y >= height) return;

    if (x < 1 || y < 1 || x + 1 >= width || y + 1 >= height) {
        sobel_pixel_with_border(luminance, width, height, row_pitch, x, y, gradient_x, gradient_y);
        return;
    }

    // Interior: the whole 3x3 window is inside the image, so read it directly.
    const int index = y * row_pitch + x;
    const __global uchar* above = luminance + index - row_pitch;
    const __global uchar* here = luminance + index;
    const __global uchar* below = luminance + index + row_pitch;

    const int gx = (above[1] + 2 * here[1] + below[1]) - (above[-1] + 2 * here[-1] + below[-1]);
    const int gy = (above[-1] + 2 * above[0] + above[1]) - (below[-1] + 2 * below[0] + below[1]);
    gradient_x[index] = (char)(gx >> 3);
    gradient_y[index] = (char)(gy >> 3);
}
// [Naive kernel]

// The host runs sobel_magnitude (dX and dY to the output image) from the same program, so that
// the sample's build is one program, as each vectorised variant's is.
#include "sobel_magnitude.cl"
