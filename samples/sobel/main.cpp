// Sobel edge detection, vectorised: each work-item computes 16 outputs along a row (16x1, the
// Arm Mali SDK tutorial's design) or a 16x4 block that loads each input row once and reuses it
// for three output rows (the Qualcomm Adreno post's data-reuse step).
// The kernels are in sobel.cl; the naive one-pixel-per-work-item version is ../sobel_no_vectors.
#include "common/cli.hpp"
#include "common/filters/sobel_filter.hpp"
#include "common/filters/sobel_outputs.hpp"
#include "common/sample_io.hpp"
#include "common/timing.hpp"

#include <cstdio>
#include <iostream>

int main(int argc, char** argv)
{
    CLI::App app{"Sobel edge detection with 16-wide vectors (Mali SDK tutorial, Adreno 16x4 reuse)",
                 "sobel"};
    sdk::CommonOptions options;
    sdk::add_common_options(app, options);
    sdk::SobelVariant variant = sdk::SobelVariant::vector_16x1;
    app.add_option("--variant", variant, "outputs per work-item: 16x1 (default), 16x4, or 16x4-packed (two pixels per 32-bit operation)")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, sdk::SobelVariant>{{"16x1", sdk::SobelVariant::vector_16x1},
                                                     {"16x4", sdk::SobelVariant::vector_16x4},
                                                     {"16x4-packed", sdk::SobelVariant::packed_16x4}}))
        ->default_str("16x1");
    std::string work_group = "32x8";
    app.add_option("--work-group", work_group, "work-group shape WxH to ask for (tuning)")
        ->check(CLI::Validator(
            [](std::string& text) {
                unsigned x = 0, y = 0;
                char separator = 0;
                return std::sscanf(text.c_str(), "%u%c%u", &x, &separator, &y) == 3 &&
                               separator == 'x' && x > 0 && y > 0
                           ? std::string()
                           : "expected WxH, e.g. 32x8";
            },
            "WxH"))
        ->capture_default_str();
    bool magnitude_on_device = false;
    app.add_flag("--magnitude-on-device", magnitude_on_device,
                 "compute output.bmp's magnitude in a kernel instead of on the host");

    return sdk::run_sample(app, argc, argv, options, [&] {
        std::ostream& log = options.quiet ? sdk::null_stream() : std::cout;

        // 1. Read the image and turn it into the 8-bit luminance the filter works on.
        const sdk::Image luminance =
            sdk::load_luminance(options.input, sdk::sobel_output_paths(options));

        // 2. Pick the device and build the kernel for the chosen border mode.
        const sdk::OpenClContext cl = sdk::make_context(options.device);
        sdk::SobelFilter sobel(cl, variant, options.border);
        unsigned group_x = 32, group_y = 8;
        std::sscanf(work_group.c_str(), "%ux%u", &group_x, &group_y);
        sobel.set_work_group(group_x, group_y);
        log << "Device: " << cl.device_name() << "\nImage: " << luminance.width << "x"
            << luminance.height << ", variant " << sdk::variant_name(variant) << ", border "
            << sdk::border_name(options.border) << "\n";

        // 3. Upload, run once and read dX and dY back.
        sobel.upload(luminance);
        cl::Event kernel = sobel.run();
        sdk::SobelGradients gradients = sobel.download();
        sdk::print_event_times(log, sdk::event_times(kernel));

        // 4. The magnitude image, on the device if asked, else from dX and dY on the host.
        std::vector<std::uint8_t> magnitude;
        if (magnitude_on_device) {
            sobel.run_magnitude();
            magnitude = sobel.download_magnitude();
        } else {
            magnitude = sdk::gradient_magnitude(gradients);
        }

        // 5. With -n, time repeated runs: one run includes first-launch costs a loop does not.
        if (options.iterations > 0) {
            const auto ms = sdk::time_kernel(options.iterations, [&] { return sobel.run(); });
            sdk::print_kernel_statistics(log, options.iterations, ms, sobel.bytes_moved());
        }

        // 6. Write the images (and raw arrays), then check them against the C++ reference.
        sdk::write_sobel_outputs(options, luminance, gradients, magnitude);
        log << "Wrote " << options.output.string() << " and its -dX, -dY images\n";
        if (options.verify) sdk::verify_sobel(log, luminance, options.border, gradients, magnitude);
    });
}
