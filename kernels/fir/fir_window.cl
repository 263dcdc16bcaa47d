// SPDX-License-Identifier: Apache-2.0
// What every KxK FIR kernel shares: the window's size from the build options, Border::none's
// rule, and the store of a work-item's four outputs. Kernel files `#include "fir_window.cl"`.
#ifndef SDK_FIR_WINDOW_CL
#define SDK_FIR_WINDOW_CL
#include "border.cl"

// RADIUS comes from the build options (-DRADIUS=r, kernels/fir/fir_filter.cpp), so that the
// compiler knows the loops' lengths and can unroll them.
#ifndef RADIUS
#error "build with -DRADIUS=r, the window's radius (kernels/fir/fir_filter.cpp)"
#endif
#define WINDOW (2 * RADIUS + 1)

// Whether output (x, y) is computed: always, except with none, which leaves 0 every pixel
// within RADIUS of an edge (its window would leave the image).
inline bool fir_computed(int x, int y, int width, int height)
{
#if defined(BORDER_NONE)
    return x >= RADIUS && y >= RADIUS && x + RADIUS < width && y + RADIUS < height;
#else
    return true;
#endif
}

// One window row's weighted sum for output x of image row y: pixels x - RADIUS .. x + RADIUS,
// each read through the border. The edge paths' plain sum, shared by the KxK kernel (one call
// per window row) and the separable row pass.
inline float window_row_with_border(__global const float* image, int width, int height,
                                    int row_pitch, int x, int y, __constant float* weights)
{
    float sum = 0.0f;
    for (int i = 0; i < WINDOW; ++i)
        sum +=
            weights[i] * read_float_with_border(image, width, height, row_pitch, x - RADIUS + i, y);
    return sum;
}

// [Store four]
// A work-item's outputs x0 .. x0+3 of row y: one aligned float4 store where all four exist and
// are computed, else lane by lane, past the row's end nothing, and 0 where none computes nothing.
inline void store_four(__global float* output, int width, int height, int row_pitch, int x0, int y,
                       float4 sum)
{
    __global float* out = output + y * row_pitch + x0;
    if (x0 + 3 < width && fir_computed(x0, y, width, height) &&
        fir_computed(x0 + 3, y, width, height)) {
        *(__global float4*)out = sum;
        return;
    }
    float lanes[4];
    vstore4(sum, 0, lanes);
    for (int i = 0; i < 4 && x0 + i < width; ++i)
        out[i] = fir_computed(x0 + i, y, width, height) ? lanes[i] : 0.0f;
}
// [Store four]

#endif  // SDK_FIR_WINDOW_CL
