// SPDX-License-Identifier: Apache-2.0
#pragma once
// Helpers shared by the device tests: one OpenCL context for the whole test binary, random
// images, and the awkward sizes every kernel is tested on.
#include "common/runtime/device.hpp"
#include "common/imageio/image.hpp"

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace sdk::test {

// The device the tests run on: the default choice (a GPU when there is one, else PoCL), or
// SDK_TEST_DEVICE_TYPE=cpu|gpu to force one.
const OpenClContext& test_context();

struct Size {
    std::size_t width;
    std::size_t height;
};

// 1x1 up to a few hundred pixels: widths below, at and above multiples of 16 and 8, single rows
// and columns, tall thin and wide short images. SDK_TEST_SIZES=small keeps the ones up to 64 wide,
// for runs under oclgrind.
const std::vector<Size>& awkward_sizes();
// Whether SDK_TEST_SIZES=small asks for small cases only (the runs under oclgrind).
bool small_sizes_only();

// All of `values`, or under oclgrind (small_sizes_only()) the one at `turn`, taken in turn from
// case to case. For what changes only the values a kernel computes on (poison bytes, densities,
// weights) or the host side of a run (memory modes): oclgrind checks memory accesses, which
// follow the sizes, regions, borders, variants and work-groups that the tests still loop over in
// full, and it still sees each value on some case. The runs on the device take every combination.
template <typename T, std::size_t N>
std::vector<T> all_or_one_in_turn(const T (&values)[N], std::size_t turn)
{
    if (!small_sizes_only()) return std::vector<T>(values, values + N);
    return {values[turn % N]};
}

Image random_grey_image(std::size_t width, std::size_t height, std::uint32_t seed);

std::string size_name(const Size& size);

}  // namespace sdk::test
