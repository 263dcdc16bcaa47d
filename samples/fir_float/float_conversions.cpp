// SPDX-License-Identifier: Apache-2.0
#include "samples/fir_float/float_conversions.hpp"

#include "common/runtime/transfers.hpp"

namespace sdk {

void load_float_luminance(DeviceRun& run, RowConversions& conversions, FirFilter& fir,
                          const DeviceRun::LoadLuminance& load)
{
    const std::size_t width = fir.width();
    const std::size_t rows = fir.height();
    const std::uint64_t pixels = std::uint64_t{width} * rows;
    const cl::Buffer luminance_bytes = create_image_buffer(
        run.cl, MemoryMode::copy, CL_MEM_READ_WRITE, pixels, "the 8-bit luminance");
    load(luminance_bytes, width);
    run.pipeline.time("kernel luminance to float", pixels + 4 * pixels, [&] {
        conversions
            .to_float(luminance_bytes, width, rows, width, fir.luminance_buffer(),
                      fir.float_pitch())
            .wait();
    });
}

BandResult round_to_8bit(DeviceRun& run, RowConversions& conversions, const FirFilter& fir)
{
    const std::size_t width = fir.width();
    const std::size_t rows = fir.height();
    const std::uint64_t pixels = std::uint64_t{width} * rows;
    const cl::Buffer result_bytes = create_image_buffer(run.cl, MemoryMode::copy, CL_MEM_READ_WRITE,
                                                        pixels, "the 8-bit result");
    run.pipeline.time("kernel float to 8 bits", 4 * pixels + pixels, [&] {
        conversions
            .to_8bit(fir.output_buffer(), fir.float_pitch(), width, rows, result_bytes, width)
            .wait();
    });
    return BandResult{result_bytes, width};
}

}  // namespace sdk
