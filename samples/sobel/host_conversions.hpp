// SPDX-License-Identifier: Apache-2.0
#pragma once
// sobel --host-conversions: the Arm Mali SDK tutorials' host-side conversions around the kernel.
#include "samples/app/device_run.hpp"
#include "kernels/sobel/sobel_filter.hpp"
#include "kernels/sobel/sobel_outputs.hpp"

#include <functional>

namespace sdk {

// --host-conversions, the Arm Mali SDK tutorials' way, for comparison: the file decoded and
// converted to the luminance on the host, uploaded, `run_sobel` run, dX and dY downloaded and their
// magnitude found on the host, the output written from it. Each step timed in `run.pipeline`;
// `copies`, when given, gets the whole image's rows.
void run_with_host_conversions(DeviceRun& run, SobelFilter& sobel,
                               const std::function<void()>& run_sobel, SobelHostCopies* copies);

}  // namespace sdk
