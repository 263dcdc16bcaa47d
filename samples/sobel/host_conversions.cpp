// SPDX-License-Identifier: Apache-2.0
#include "samples/sobel/host_conversions.hpp"

#include "samples/app/sample_io.hpp"
#include "common/imageio/image_file.hpp"
#include "kernels/sobel/sobel_reference.hpp"

namespace sdk {

void run_with_host_conversions(DeviceRun& run, SobelFilter& sobel,
                               const std::function<void()>& run_sobel, SobelHostCopies* copies)
{
    const std::uint64_t pixels = std::uint64_t{run.width()} * run.height();
    const Image luminance = load_luminance(run.options.input, &run.pipeline);
    run.pipeline.time("upload luminance", luminance.pixels.size(),
                      [&] { sobel.upload(luminance); });
    run_sobel();
    if (copies) add_band(*copies, sobel, run.plan.bands.front());
    const auto gradients =
        run.pipeline.time("download dX, dY", 2 * pixels, [&] { return sobel.download(); });
    const auto magnitude = run.pipeline.time("magnitude on the host", 3 * pixels,
                                             [&] { return gradient_magnitude(gradients); });
    run.pipeline.time("write " + run.options.output.filename().string(), pixels, [&] {
        write_image(run.options.output, Image{run.width(), run.height(), 1, magnitude});
    });
}

}  // namespace sdk
