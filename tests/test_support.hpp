#pragma once
// Helpers shared by the device tests: one OpenCL context for the whole test binary, random
// images, and the awkward sizes every kernel is tested on.
#include "common/runtime/device.hpp"
#include "common/imageio/image.hpp"

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

Image random_grey_image(std::size_t width, std::size_t height, std::uint32_t seed);

std::string size_name(const Size& size);

}  // namespace sdk::test
