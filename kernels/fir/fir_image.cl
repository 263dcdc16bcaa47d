// SPDX-License-Identifier: Apache-2.0
// The image FIR filter: the luminance is read through an image2d_t and a sampler instead of
// from a buffer. An image is laid out and cached for 2-D neighbourhoods (on GPUs, texture units
// and their caches), and the sampler's addressing mode answers reads outside the image, so the
// kernel needs no edge path where the border is one the sampler can express.
#include "fir_window.cl"
#include "image_sampler.cl"

// [Image pixel]
inline float image_pixel(read_only image2d_t luminance, int x, int y)
{
    return read_imagef(luminance, luminance_sampler, sampler_coordinates(luminance, x, y)).x;
}
// [Image pixel]

// [Kernel image]
/**
 * The KxK FIR of outputs x0 .. x0+3 of row y, x0 = 4 * get_global_id(0), y = get_global_id(1),
 * as the buffer kernels: each window row's K + 3 pixels are read once into registers, then
 * shifted into the four outputs' float4.
 * @param luminance the input image, one float channel (CL_R, CL_FLOAT), read through the sampler
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch floats from one row's start to the next in the float images, a multiple of
 *        16 (64 bytes)
 * @param weights the K*K weights, row-major, the window's top row first
 * @param output the filtered image, one float a pixel, rows `row_pitch` floats apart
 */
__kernel void fir_image(read_only image2d_t luminance, const int width, const int height,
                        const int row_pitch, __constant float* weights,
                        __global float* restrict output)
{
    const int x0 = get_global_id(0) * 4;
    const int y = get_global_id(1);
    if (x0 >= width || y >= height) return;
    float4 sum = 0.0f;
    for (int j = 0; j < WINDOW; ++j) {
        float line[WINDOW + 3];
        for (int c = 0; c < WINDOW + 3; ++c)
            line[c] = image_pixel(luminance, x0 - RADIUS + c, y - RADIUS + j);
        for (int i = 0; i < WINDOW; ++i)
            sum +=
                (float4)(line[i], line[i + 1], line[i + 2], line[i + 3]) * weights[j * WINDOW + i];
    }
    store_four(output, width, height, row_pitch, x0, y, sum);
}
// [Kernel image]

// [Buffer to image]
/**
 * Where the device cannot view the luminance buffer as an image (PoCL, OpenCL 1.2 devices), a
 * run first copies it into one, one work-item per pixel. clEnqueueCopyBufferToImage cannot: it
 * expects rows packed without the buffer's padding to row_pitch.
 * @param luminance the luminance buffer, one float a pixel, rows `row_pitch` floats apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch floats from one row's start to the next in `luminance`
 * @param image the copy, width x height pixels of one float channel
 */
__kernel void luminance_to_float_image(__global const float* restrict luminance, const int width,
                                       const int height, const int row_pitch,
                                       write_only image2d_t image)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
    write_imagef(image, (int2)(x, y), (float4)(luminance[y * row_pitch + x], 0.0f, 0.0f, 1.0f));
}
// [Buffer to image]
