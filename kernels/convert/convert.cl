// SPDX-License-Identifier: Apache-2.0
// Conversions between an image file's pixel rows as stored and the top-down 8-bit images with a
// row pitch that the filters work on. They let the host move a file's bytes to the device and
// back without touching a pixel: the upload is what the file holds, the download what is
// written. Every byte of a destination row is written, its padding as zeros.

// A BMP usually stores its bottom row first.
inline int stored_row(int y, int height, int top_down)
{
    return top_down ? y : height - 1 - y;
}

// Each work-item converts 16 pixels of a row: vector loads and arithmetic, which CPU devices
// such as PoCL turn into SIMD code; the row's last, partial group goes pixel by pixel, and the
// work-items past the width write the pitch's padding as zeros.
#define PIXELS_PER_ITEM 16

// [BGR to luminance]
// BT.601 luma in 15-bit fixed point, bit-exact with common/imageio/luminance.hpp (and OpenCV's
// cvtColor BGR2GRAY): the weights sum to 2^15, so nothing overflows 32 bits.
inline uint luma(uint r, uint g, uint b)
{
    return (9798u * r + 19235u * g + 3735u * b + (1u << 14)) >> 15;
}

inline uint4 luma4(uint4 r, uint4 g, uint4 b)
{
    return (9798u * r + 19235u * g + 3735u * b + (1u << 14)) >> 15;
}

// One pixel's luminance from its bytes in the file: B, G, R, or in a grey file the luminance
// itself.
inline uchar pixel_luminance(__global const uchar* pixel, int bytes_per_pixel)
{
    return bytes_per_pixel == 3 ? (uchar)luma(pixel[2], pixel[1], pixel[0]) : pixel[0];
}

// The same for a whole group of 16 pixels: a copy from a grey file; from BGR, 4 pixels (12 bytes)
// at a time. (Building 16-wide colour vectors with swizzles across three 16-byte loads crashes
// oclgrind: docs/portability.md#oclgrind.)
inline void group_luminance(__global const uchar* restrict pixels, int bytes_per_pixel,
                            __global uchar* restrict out)
{
    if (bytes_per_pixel == 1) {
        vstore16(vload16(0, pixels), 0, out);
        return;
    }
    for (int i = 0; i < PIXELS_PER_ITEM; i += 4) {
        const uchar4 p0 = vload4(0, pixels + 3 * i);      // B0 G0 R0 B1
        const uchar4 p1 = vload4(0, pixels + 3 * i + 4);  // G1 R1 B2 G2
        const uchar4 p2 = vload4(0, pixels + 3 * i + 8);  // R2 B3 G3 R3
        const uint4 blue = (uint4)(p0.x, p0.w, p1.z, p2.y);
        const uint4 green = (uint4)(p0.y, p1.x, p1.w, p2.z);
        const uint4 red = (uint4)(p0.z, p1.y, p2.x, p2.w);
        vstore4(convert_uchar4(luma4(red, green, blue)), 0, out + i);
    }
}

// bgr_to_luminance and grey_to_luminance, for a file of `bytes_per_pixel` 3 (BGR) or 1 (grey):
// work-item (i, y) writes pixels x0 = 16 i .. x0 + 15 of luminance row y from the file's row for
// y, a whole group at once, else pixel by pixel with zeros past the width. Each kernel passes a
// constant, so the compiler keeps only its own case and the pixels pay for no test of it.
inline void file_row_to_luminance(__global const uchar* restrict rows, int stride, int top_down,
                                  int width, int height, __global uchar* restrict luminance,
                                  int row_pitch, int bytes_per_pixel)
{
    const int x0 = get_global_id(0) * PIXELS_PER_ITEM;
    const int y = get_global_id(1);
    if (x0 >= row_pitch || y >= height) return;
    __global const uchar* pixels =
        rows + stored_row(y, height, top_down) * stride + bytes_per_pixel * x0;
    __global uchar* out = luminance + y * row_pitch + x0;
    if (x0 + PIXELS_PER_ITEM <= width) {
        group_luminance(pixels, bytes_per_pixel, out);
        return;
    }
    // Never past the row's pitch: with rows `width` bytes apart (fir_float, morphology_packed),
    // the bytes after a row are the next row's, which another work-item writes.
    const int end = min(PIXELS_PER_ITEM, row_pitch - x0);
    for (int i = 0; i < end; ++i)
        out[i] =
            x0 + i < width ? pixel_luminance(pixels + bytes_per_pixel * i, bytes_per_pixel) : 0;
}

/**
 * Pixels 16 * get_global_id(0) .. +15 of luminance row get_global_id(1), from a 24-bit file.
 * @param rows the file's pixel rows as stored, 3 bytes a pixel (B, G, R)
 * @param stride bytes from one stored row's start to the next (a BMP pads rows to 4 bytes)
 * @param top_down nonzero where the first stored row is the image's top row (else its bottom)
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param luminance the output, 8 bits a pixel, rows `row_pitch` bytes apart, the padding 0
 * @param row_pitch bytes from one luminance row's start to the next, at least the width
 */
__kernel void bgr_to_luminance(__global const uchar* restrict rows, const int stride,
                               const int top_down, const int width, const int height,
                               __global uchar* restrict luminance, const int row_pitch)
{
    file_row_to_luminance(rows, stride, top_down, width, height, luminance, row_pitch, 3);
}
// [BGR to luminance]

/**
 * The same from an 8-bit file whose palette is the grey ramp: it holds the luminance already,
 * so only the row order and the padding change.
 * @param rows the file's pixel rows as stored, 1 byte a pixel
 * @param stride bytes from one stored row's start to the next (a BMP pads rows to 4 bytes)
 * @param top_down nonzero where the first stored row is the image's top row (else its bottom)
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param luminance the output, 8 bits a pixel, rows `row_pitch` bytes apart, the padding 0
 * @param row_pitch bytes from one luminance row's start to the next, at least the width
 */
__kernel void grey_to_luminance(__global const uchar* restrict rows, const int stride,
                                const int top_down, const int width, const int height,
                                __global uchar* restrict luminance, const int row_pitch)
{
    file_row_to_luminance(rows, stride, top_down, width, height, luminance, row_pitch, 1);
}

// [Grey to BMP rows]
/**
 * The reverse, for an output: an 8-bit image to the rows of an 8-bit BMP, bottom row first,
 * each padded with zeros to `stride` bytes (a multiple of 4, not of 16), so the host writes the
 * file's header and then this buffer as it is. Work-item (i, y) writes bytes 16 i .. 16 i + 15
 * of the BMP row for image row y.
 * @param image the 8-bit image, rows `row_pitch` bytes apart
 * @param row_pitch bytes from one image row's start to the next
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param rows the BMP's pixel rows, bottom row first, `stride` bytes each
 * @param stride bytes of a BMP row, the width rounded up to a multiple of 4
 */
__kernel void grey_to_bmp_rows(__global const uchar* restrict image, const int row_pitch,
                               const int width, const int height, __global uchar* restrict rows,
                               const int stride)
{
    const int x0 = get_global_id(0) * PIXELS_PER_ITEM;
    const int y = get_global_id(1);
    if (x0 >= stride || y >= height) return;
    __global const uchar* pixels = image + y * row_pitch + x0;
    __global uchar* out = rows + (height - 1 - y) * stride + x0;
    if (x0 + PIXELS_PER_ITEM <= width) {
        vstore16(vload16(0, pixels), 0, out);
        return;
    }
    const int end = min(x0 + PIXELS_PER_ITEM, stride);
    for (int x = x0; x < end; ++x) out[x - x0] = x < width ? pixels[x - x0] : 0;
}
// [Grey to BMP rows]

// [Float conversions]
/**
 * For float filters (fir_float): an 8-bit image to floats, 0..255 exactly, the padding past the
 * width written as 0. One work-item per float, (get_global_id(0), get_global_id(1)).
 * @param image the 8-bit image, rows `row_pitch` bytes apart
 * @param row_pitch bytes from one image row's start to the next
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param values the float image, rows `float_pitch` floats apart
 * @param float_pitch floats from one float row's start to the next, at least the width
 */
__kernel void luminance_to_float(__global const uchar* restrict image, const int row_pitch,
                                 const int width, const int height, __global float* restrict values,
                                 const int float_pitch)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= float_pitch || y >= height) return;
    values[y * float_pitch + x] = x < width ? (float)image[y * row_pitch + x] : 0.0f;
}

/**
 * And back, as output.bmp shows a float result (to_8bit, kernels/fir/fir_reference.hpp): round
 * halves up, clamp to 0..255, NaN to 0. floor(v) + (v - floor(v) >= 0.5) is floor(v + 0.5) in
 * exact arithmetic, which the host computes in double; float's own v + 0.5f can round up
 * (0.49999997f + 0.5f is 1.0f). v - floor(v) is exact in float. One work-item per byte.
 * @param values the float image, rows `float_pitch` floats apart
 * @param float_pitch floats from one float row's start to the next
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param image the 8-bit image, rows `row_pitch` bytes apart, the padding 0
 * @param row_pitch bytes from one image row's start to the next, at least the width
 */
__kernel void float_to_8bit(__global const float* restrict values, const int float_pitch,
                            const int width, const int height, __global uchar* restrict image,
                            const int row_pitch)
{
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= row_pitch || y >= height) return;
    uchar result = 0;
    if (x < width) {
        const float value = values[y * float_pitch + x];
        if (!isnan(value)) {
            float rounded = floor(value);
            if (value - rounded >= 0.5f) rounded += 1.0f;
            result = (uchar)clamp(rounded, 0.0f, 255.0f);
        }
    }
    image[y * row_pitch + x] = result;
}
// [Float conversions]
