// SPDX-License-Identifier: Apache-2.0
// The Mali SDK's floating-point 3x3 FIR filter: each work-item computes 4 neighbouring outputs of
// a row with float4 vectors, the 128-bit width Mali's pipelines are built for. Unlike the
// tutorial's kernel, this one centres the output on the window (the tutorial's lands one pixel
// up and to the left), handles every image size and border, and takes the weights as arguments,
// so one build serves every filter. The contract is in kernels/fir/fir_reference.hpp.
// The 3x3 kernel needs only the border's option (-DBORDER_REPLICATE, ...); the KxK kernel below
// also the window's radius, -DRADIUS=r, which the host always passes.
#include "border.cl"

// [Row term]
// One input row's contribution to the four outputs x0 .. x0+3. Rows start on 64-byte boundaries
// (common/runtime/transfers.hpp) and x0 is a multiple of 4, so columns x0 .. x0+3 are one aligned
// float4: a single 16-byte load. The neighbours x0-1 and x0+4 are two scalar loads, and the
// shifted vectors are built from registers. Why not two overlapping vload4s:
// docs/performance.md#fir-choices.
inline float4 row_term(const __global float* row, float4 weights)
{
    const float4 centre = *(const __global float4*)row;
    // Lanes named one by one: oclgrind crashes on grouped swizzles (docs/portability.md#oclgrind).
    const float4 left = (float4)(row[-1], centre.s0, centre.s1, centre.s2);
    const float4 right = (float4)(centre.s1, centre.s2, centre.s3, row[4]);
    return left * weights.s0 + centre * weights.s1 + right * weights.s2;
}
// [Row term]

// [Edge pixel]
// The slow path, for work-items that touch the image's edge or run past its right end: one pixel
// at a time, each input read through the border. Only the edges take it.
inline float row_term_with_border(__global const float* luminance, int width, int height,
                                  int row_pitch, int x, int y, float4 weights)
{
    return weights.s0 * read_float_with_border(luminance, width, height, row_pitch, x - 1, y) +
           weights.s1 * read_float_with_border(luminance, width, height, row_pitch, x, y) +
           weights.s2 * read_float_with_border(luminance, width, height, row_pitch, x + 1, y);
}

inline float fir_pixel_with_border(__global const float* luminance, int width, int height,
                                   int row_pitch, int x, int y, float4 weights_above,
                                   float4 weights_here, float4 weights_below)
{
#if defined(BORDER_NONE)
    // The Mali SDK's behaviour: a pixel whose window leaves the image is not computed.
    if (x < 1 || y < 1 || x + 1 >= width || y + 1 >= height) return 0.0f;
#endif
    return row_term_with_border(luminance, width, height, row_pitch, x, y - 1, weights_above) +
           row_term_with_border(luminance, width, height, row_pitch, x, y, weights_here) +
           row_term_with_border(luminance, width, height, row_pitch, x, y + 1, weights_below);
}
// [Edge pixel]

// [Kernel]
/**
 * The 3x3 FIR of outputs x0 .. x0+3 of row y, x0 = 4 * get_global_id(0), y = get_global_id(1).
 * The weights arrive as arguments, which are the same for every work-item, so drivers keep them
 * where uniform values live (uniform registers, constant banks) rather than in global memory;
 * unlike the tutorial's compiled-in constants, a new filter needs new arguments, not a rebuild.
 * @param luminance the input image, one float a pixel, rows `row_pitch` floats apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch floats from one row's start to the next, a multiple of 16 (64 bytes), the
 *        same in both images
 * @param weights_above the window's top row: .s0 the pixel on the left, .s1 the centre, .s2 the
 *        right (.s3 unused; a float3 would take 16 bytes anyway)
 * @param weights_here the window's centre row, likewise
 * @param weights_below the window's bottom row, likewise
 * @param output the filtered image, one float a pixel, rows `row_pitch` floats apart
 */
__kernel void fir_float(__global const float* restrict luminance, const int width, const int height,
                        const int row_pitch, const float4 weights_above, const float4 weights_here,
                        const float4 weights_below, __global float* restrict output)
{
    // Each work-item computes 4 outputs of a row, so the work size is width / 4 (rounded up)
    // by height (kernels/fir/fir_filter.cpp).
    const int x0 = get_global_id(0) * 4;
    const int y = get_global_id(1);
    if (x0 >= width || y >= height) return;

    // Interior: columns x0-1 .. x0+4 and rows y-1 .. y+1 all exist, so no load needs the border.
    const bool interior = x0 >= 1 && x0 + 4 < width && y >= 1 && y + 1 < height;
    if (!interior) {
        for (int x = x0; x < min(x0 + 4, width); ++x)
            output[y * row_pitch + x] =
                fir_pixel_with_border(luminance, width, height, row_pitch, x, y, weights_above,
                                      weights_here, weights_below);
        return;
    }

    // Three rows of the 6x3 input window, each a row term, summed into the four outputs, which
    // one aligned vector store writes at the window's centre row.
    const int offset = y * row_pitch + x0;
    float4 accumulator = row_term(luminance + offset - row_pitch, weights_above);
    accumulator += row_term(luminance + offset, weights_here);
    accumulator += row_term(luminance + offset + row_pitch, weights_below);
    *(__global float4*)(output + offset) = accumulator;
}
// [Kernel]

// Without -DRADIUS the program holds the 3x3 kernel alone, which so builds on its own
// (tests/kernels/fir/test_fir_kernel.cpp): fir_window.cl and the KxK kernel need the radius.
#ifdef RADIUS
#include "fir_window.cl"

// [Kernel KxK]
// Any odd window K = 2 * RADIUS + 1 (RADIUS comes from the build options, -DRADIUS=r, so that
// the compiler can unroll both loops). The K*K weights are too many for arguments: they arrive
// in a __constant buffer, row-major, which every work-item reads in the same order, the access
// pattern constant caches serve in one broadcast. The 3x3 kernel above keeps its three float4
// arguments: its arithmetic, and so the default run's output, stays what it was.
inline float fir_pixel_kxk_with_border(__global const float* luminance, int width, int height,
                                       int row_pitch, int x, int y, __constant float* weights)
{
    if (!fir_computed(x, y, width, height)) return 0.0f;
    float sum = 0.0f;
    for (int j = 0; j < WINDOW; ++j)
        sum += window_row_with_border(luminance, width, height, row_pitch, x, y - RADIUS + j,
                                      weights + j * WINDOW);
    return sum;
}

/**
 * The KxK FIR of outputs x0 .. x0+3 of row y, x0 = 4 * get_global_id(0), y = get_global_id(1).
 * @param luminance the input image, one float a pixel, rows `row_pitch` floats apart
 * @param width the image's width in pixels
 * @param height the image's height in rows
 * @param row_pitch floats from one row's start to the next, a multiple of 16 (64 bytes), the
 *        same in both images
 * @param weights the K*K weights, row-major, the window's top row first
 * @param output the filtered image, one float a pixel, rows `row_pitch` floats apart
 */
__kernel void fir_float_kxk(__global const float* restrict luminance, const int width,
                            const int height, const int row_pitch, __constant float* weights,
                            __global float* restrict output)
{
    const int x0 = get_global_id(0) * 4;
    const int y = get_global_id(1);
    if (x0 >= width || y >= height) return;

    const bool interior =
        x0 >= RADIUS && x0 + 3 + RADIUS < width && y >= RADIUS && y + RADIUS < height;
    if (!interior) {
        for (int x = x0; x < min(x0 + 4, width); ++x)
            output[y * row_pitch + x] =
                fir_pixel_kxk_with_border(luminance, width, height, row_pitch, x, y, weights);
        return;
    }
    // [KxK sums]
    // Each window row is K + 3 floats, read as K overlapping float4s (unaligned but for one:
    // the 3x3 kernel's register shuffles do not generalise), each scaled by its weight.
    float4 sum = 0.0f;
    for (int j = 0; j < WINDOW; ++j) {
        const __global float* row = luminance + (y - RADIUS + j) * row_pitch + x0 - RADIUS;
        for (int i = 0; i < WINDOW; ++i) sum += vload4(0, row + i) * weights[j * WINDOW + i];
    }
    *(__global float4*)(output + y * row_pitch + x0) = sum;
    // [KxK sums]
}
// [Kernel KxK]
#endif  // RADIUS
