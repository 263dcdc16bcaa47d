// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the morphology device tests share (test_morphology.cpp, test_morphology_elements.cpp):
// one cached filter per structuring element, a run on the device with poisoned outputs, and the
// bit-for-bit comparison with the C++ reference.
#include "kernels/morphology/morphology_filter.hpp"
#include "kernels/morphology/morphology_reference.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace sdk::test {

// Runs alternate between two poisons, so a byte a kernel fails to write cannot match both times.
constexpr std::uint8_t poisons[] = {0x5A, 0xA5};

// Building a program costs ~0.3 s on PoCL: one filter per element and memory mode, kept.
MorphologyFilter& filter_for(const StructuringElement& element,
                             MemoryMode memory = MemoryMode::copy);

struct DeviceResult {
    std::vector<std::uint8_t> output;
    PackedBitmap packed_result;
};

DeviceResult run_on_device(MorphologyFilter& filter, const Image& luminance,
                           const Binarisation& binarisation, MorphologyOperation operation,
                           const Roi& roi, std::uint8_t poison);

// The unpacked form of a mask: 255 for foreground, 0 for background.
std::vector<std::uint8_t> white_on_black(const Image& mask);

// Checks one run against the reference: the unpacked output, and the packed result word for
// word, which also proves that every padding bit and byte past the width is 0. A fatal failure
// names `what`.
void expect_matches_reference(const StructuringElement& element, MorphologyOperation operation,
                              const Image& luminance, const Binarisation& binarisation,
                              const Roi& roi, std::uint8_t poison, const std::string& what);

// Regions along every edge of a width x height image, 1x1 ones, the whole image and an inner one.
std::vector<Roi> regions_of(std::size_t width, std::size_t height);

}  // namespace sdk::test
