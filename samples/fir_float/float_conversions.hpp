// SPDX-License-Identifier: Apache-2.0
#pragma once
// The 8-bit luminance made floats for the FIR filter, and its float output rounded back to 8 bits.
#include "samples/app/device_run.hpp"
#include "kernels/convert/row_conversions.hpp"
#include "kernels/fir/fir_filter.hpp"

namespace sdk {

// A band's way in and out of the float filter, on the device: the 8-bit luminance `load` puts
// there (the file's rows as they are stored, converted), made the floats `fir` reads; and
// `fir`'s output rounded to 8 bits, where the band's rows of the output file come from. The 8-bit
// images live on the device only; each conversion is a step of `run`'s table.
void load_float_luminance(DeviceRun& run, RowConversions& conversions, FirFilter& fir,
                          const DeviceRun::LoadLuminance& load);
BandResult round_to_8bit(DeviceRun& run, RowConversions& conversions, const FirFilter& fir);

}  // namespace sdk
