// Sobel edge detection, naive: one work-item per output pixel and nine scalar byte loads.
// Compare its timings with ../sobel (16 outputs per work-item with vector loads): the gap is what
// vectorisation buys on your device. The kernel is in sobel_no_vectors.cl.
#include "common/cli.hpp"
#include "common/filters/sobel_filter.hpp"
#include "common/filters/sobel_outputs.hpp"
#include "common/sample_io.hpp"
#include "common/timing.hpp"

#include <iostream>

int main(int argc, char** argv)
{
    CLI::App app{"Sobel edge detection, one pixel per work-item (no vectors)", "sobel_no_vectors"};
    sdk::CommonOptions options;
    sdk::add_common_options(app, options);

    return sdk::run_sample(app, argc, argv, options, [&] {
        std::ostream& log = options.quiet ? sdk::null_stream() : std::cout;

        // 1. Read the image and turn it into the 8-bit luminance the filter works on.
        const sdk::Image luminance =
            sdk::load_luminance(options.input, sdk::sobel_output_paths(options));

        // 2. Pick the device and build the kernel for the chosen border mode.
        const sdk::OpenClContext cl = sdk::make_context(options.device);
        sdk::SobelFilter sobel(cl, sdk::SobelVariant::no_vectors, options.border);
        log << "Device: " << cl.device_name() << "\nImage: " << luminance.width << "x"
            << luminance.height << ", one pixel per work-item, border "
            << sdk::border_name(options.border) << "\n";

        // 3. Upload, run once and read dX and dY back.
        sobel.upload(luminance);
        cl::Event kernel = sobel.run();
        const sdk::SobelGradients gradients = sobel.download();
        sdk::print_event_times(log, sdk::event_times(kernel));

        // 4. With -n, time repeated runs.
        if (options.iterations > 0) {
            const auto ms = sdk::time_kernel(options.iterations, [&] { return sobel.run(); });
            sdk::print_kernel_statistics(log, options.iterations, ms, sobel.bytes_moved());
        }

        // 5. Write the images (and raw arrays), then check them against the C++ reference.
        const auto magnitude = sdk::gradient_magnitude(gradients);
        sdk::write_sobel_outputs(options, luminance, gradients, magnitude);
        log << "Wrote " << options.output.string() << " and its -dX, -dY images\n";
        if (options.verify) sdk::verify_sobel(log, luminance, options.border, gradients, magnitude);
    });
}
