// SPDX-License-Identifier: Apache-2.0
// The border modes as an image sampler serves them, for the kernels that read the luminance
// through an image2d_t (kernels/sobel/sobel_image.cl, kernels/fir/fir_image.cl); kernel files
// `#include "image_sampler.cl"`.
#ifndef SDK_IMAGE_SAMPLER_CL
#define SDK_IMAGE_SAMPLER_CL
#include "border.cl"

// [Image sampler]
// replicate is the sampler's CLK_ADDRESS_CLAMP_TO_EDGE and constant its CLK_ADDRESS_CLAMP (the
// border colour, 0 in a one-channel image). reflect101 has no sampler equivalent with integer
// coordinates (CLK_ADDRESS_MIRRORED_REPEAT needs normalised ones and repeats the edge pixel), so
// it folds its coordinates itself; none never uses what lies outside.
#if defined(BORDER_CONSTANT)
#define LUMINANCE_ADDRESSING CLK_ADDRESS_CLAMP
#else
#define LUMINANCE_ADDRESSING CLK_ADDRESS_CLAMP_TO_EDGE
#endif
__constant sampler_t luminance_sampler =
    CLK_NORMALIZED_COORDS_FALSE | LUMINANCE_ADDRESSING | CLK_FILTER_NEAREST;

// Where to ask the sampler for pixel (x, y) of `image`: folded for reflect101, as it is for
// every other mode (the sampler applies those).
inline int2 sampler_coordinates(read_only image2d_t image, int x, int y)
{
#if defined(BORDER_REFLECT101)
    x = border_coordinate(x, get_image_width(image));
    y = border_coordinate(y, get_image_height(image));
#endif
    return (int2)(x, y);
}
// [Image sampler]

#endif  // SDK_IMAGE_SAMPLER_CL
