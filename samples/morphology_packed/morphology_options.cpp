// SPDX-License-Identifier: Apache-2.0
#include "samples/morphology_packed/morphology_options.hpp"

#include "samples/app/option_values.hpp"

namespace sdk {

Binarisation MorphologyOptions::binarisation() const
{
    return Binarisation{static_cast<std::uint8_t>(threshold), invert};
}

void add_morphology_options(CLI::App& app, MorphologyOptions& options)
{
    app.add_option("--threshold", options.threshold, "foreground where luminance >= T (0 to 255)")
        ->type_name("T")
        ->check(CLI::Range(0u, 255u).description(""))
        ->capture_default_str();
    app.add_flag("--invert", options.invert,
                 "dark pixels (luminance < T) are the foreground: text on paper");
    accept_names(app.add_option("--shape", options.shape,
                                "structuring element: square (3x3), diamond (city-block "
                                "distance 2), or OpenCV's rectangle, cross or ellipse of "
                                "--size"),
                 morphology_shape_names())
        ->default_str("diamond");
    add_value_option(app, "--size", options.size,
                     "the rectangle's, cross's or ellipse's WxH, odd, 1 to 63 (default 3x3)",
                     "WxH");
    accept_names(app.add_option("--op", options.operation,
                                "dilate, erode, close = erode(dilate), open = dilate(erode)"),
                 morphology_operation_names())
        ->default_str("close");
    add_value_option(app, "--roi", options.region,
                     "process only the region X,Y,W,H in pixels (left, top, width, height); the "
                     "rest is copied",
                     "X,Y,W,H");
    add_tuning_options(app, options.tuning,
                       "the dilate and erode passes' work-group shape WxH, e.g. 16x8 "
                       "(default: the fastest on this device for this image's size class, "
                       "measured once and cached)",
                       "measure the passes' work-group shapes again for this image's size "
                       "class and replace the cached choice");
}

}  // namespace sdk
