// SPDX-License-Identifier: Apache-2.0
// The image Sobel: the luminance is read through an image2d_t and a sampler instead of from a
// buffer. An image is laid out and cached for 2-D neighbourhoods (on GPUs, texture units and
// their caches), and the sampler's addressing mode answers reads outside the image, so the
// kernel itself needs no edge path where the border is one the sampler can express.
#include "image_sampler.cl"

// [Image pixel]
inline int image_pixel(read_only image2d_t luminance, int x, int y)
{
    return (int)read_imageui(luminance, luminance_sampler, sampler_coordinates(luminance, x, y)).x;
}
// [Image pixel]

// [Kernel image]
/**
 * dX and dY of pixel (get_global_id(0), get_global_id(1)). One output per work-item: the
 * image's cache, not the work-item, is what reuses each pixel across the nine windows that
 * read it.
 * @param luminance the input image, one 8-bit unsigned channel (CL_R, CL_UNSIGNED_INT8)
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch bytes from one row's start to the next in the two outputs, a multiple of 64
 * @param gradient_x the output dX, one signed byte a pixel: (horizontal Sobel) >> 3
 * @param gradient_y the output dY, one signed byte a pixel: (vertical Sobel) >> 3
 */
__kernel void sobel_image(read_only image2d_t luminance, const int width, const int height,
                          const int row_pitch, __global char* restrict gradient_x,
                          __global char* restrict gradient_y)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
    const int index = y * row_pitch + x;
#if defined(BORDER_NONE)
    if (x < 1 || y < 1 || x + 1 >= width || y + 1 >= height) {
        gradient_x[index] = 0;
        gradient_y[index] = 0;
        return;
    }
#endif
    // The two masks are separable: each column's difference and each row's smoothing.
    const int above_left = image_pixel(luminance, x - 1, y - 1);
    const int above = image_pixel(luminance, x, y - 1);
    const int above_right = image_pixel(luminance, x + 1, y - 1);
    const int left = image_pixel(luminance, x - 1, y);
    const int right = image_pixel(luminance, x + 1, y);
    const int below_left = image_pixel(luminance, x - 1, y + 1);
    const int below = image_pixel(luminance, x, y + 1);
    const int below_right = image_pixel(luminance, x + 1, y + 1);
    const int gx = (above_right + 2 * right + below_right) - (above_left + 2 * left + below_left);
    const int gy = (above_left + 2 * above + above_right) - (below_left + 2 * below + below_right);
    gradient_x[index] = (char)(gx >> 3);
    gradient_y[index] = (char)(gy >> 3);
}
// [Kernel image]

// [Buffer to image]
/**
 * Where the device cannot view the luminance buffer as an image (PoCL, OpenCL 1.2 devices), a
 * run first copies it into one, one work-item per pixel. clEnqueueCopyBufferToImage cannot: it
 * expects rows packed without the buffer's padding to row_pitch.
 * @param luminance the luminance buffer, 8 bits a pixel, rows `row_pitch` bytes apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch bytes from one row's start to the next in `luminance`
 * @param image the copy, width x height pixels of one 8-bit unsigned channel
 */
__kernel void luminance_to_image(__global const uchar* restrict luminance, const int width,
                                 const int height, const int row_pitch, write_only image2d_t image)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
    write_imageui(image, (int2)(x, y), (uint4)(luminance[y * row_pitch + x], 0, 0, 0));
}
// [Buffer to image]

// The host runs sobel_magnitude from the same program (sobel_16x1.cl says why).
#include "sobel_magnitude.cl"
