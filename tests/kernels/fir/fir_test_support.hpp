// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the FIR device tests share (test_fir_kernel.cpp, test_fir_separable.cpp,
// test_fir_reference.cpp, test_fir_tuning.cpp): poisons, random and separable weights, one cached
// filter per border, memory mode, window size and variant, and a run on the device with poisoned
// outputs.
#include "kernels/fir/fir_coefficients.hpp"
#include "kernels/fir/fir_filter.hpp"
#include "kernels/fir/fir_tuning.hpp"
#include "common/imageio/image.hpp"

#include <cstdint>
#include <limits>
#include <vector>

namespace sdk::test {

// NaN fails every comparison, and 1e30 is far from any output of 8-bit pixels: a pixel the kernel
// leaves unwritten shows up either way, and neither can pass by matching a plausible result.
inline const float poisons[] = {std::numeric_limits<float>::quiet_NaN(), 1e30f};

// Numerators anywhere in [-128, 128] over 256, decimals and negatives included, so that every
// weight position matters and sums run from negative to above 1.
FirCoefficients random_coefficients(std::uint32_t seed, int size = 3);

// A column times a row, each of random numbers (zeros among them where `with_zeros`), as the
// K*K numerators over 256.
FirCoefficients outer_product(std::uint32_t seed, int size, bool with_zeros = false);

// Sets `choice`'s shape; false, having checked the reason, where the device cannot hold its
// tiles in local memory (32 KiB under oclgrind, as on many embedded GPUs) or the kernel cannot
// run that many work-items a group (a GPU's registers).
bool runs_here(FirFilter& filter, const FirChoice& choice);

// Building a program costs ~0.3 s on PoCL: keep one filter per border and window size; weights
// are arguments. Never destroyed: releasing OpenCL objects from static destructors at exit races
// the runtime's own teardown.
FirFilter& filter_for(Border border, MemoryMode memory = MemoryMode::copy, int size = 3,
                      FirVariant variant = FirVariant::buffer);

std::vector<float> run_on_device(FirFilter& filter, const FirCoefficients& coefficients,
                                 const Image& image, float poison);

}  // namespace sdk::test
