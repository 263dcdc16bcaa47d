// SPDX-License-Identifier: Apache-2.0
#include "test_support.hpp"

#include <cstdlib>
#include <cstring>

namespace sdk::test {

const OpenClContext& test_context()
{
    // Never destroyed, like the filters the tests cache: OpenCL objects released from static
    // destructors at exit race the runtime's own teardown.
    static const OpenClContext* context = [] {
        DeviceSelection selection;
        if (const char* type = std::getenv("SDK_TEST_DEVICE_TYPE")) {
            if (std::strcmp(type, "gpu") == 0) selection.type = DeviceType::gpu;
            if (std::strcmp(type, "cpu") == 0) selection.type = DeviceType::cpu;
        }
        return new OpenClContext(make_context(selection));
    }();
    return *context;
}

bool small_sizes_only()
{
    const char* choice = std::getenv("SDK_TEST_SIZES");
    return choice && std::strcmp(choice, "small") == 0;
}

const std::vector<Size>& awkward_sizes()
{
    // Under oclgrind, which simulates every work-item, the larger sizes take minutes.
    static const std::vector<Size> small_sizes{{1, 1},   {2, 3},  {3, 2},  {17, 5},
                                               {31, 1},  {1, 33}, {16, 4}, {18, 3},
                                               {35, 18}, {64, 4}, {47, 13}};
    if (small_sizes_only()) return small_sizes;
    static const std::vector<Size> sizes{
        {1, 1},  {2, 3},  {3, 2},   {17, 5}, {31, 1},  {1, 33},    {16, 1},   {16, 4},  {15, 7},
        {18, 3}, {33, 9}, {35, 18}, {64, 4}, {47, 13}, {333, 257}, {1000, 3}, {3, 200}, {129, 65}};
    return sizes;
}

Image random_grey_image(std::size_t width, std::size_t height, std::uint32_t seed)
{
    std::mt19937 generator(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    Image image{width, height, 1, std::vector<std::uint8_t>(width * height)};
    for (auto& pixel : image.pixels) pixel = static_cast<std::uint8_t>(byte(generator));
    return image;
}

std::string size_name(const Size& size)
{
    return std::to_string(size.width) + "x" + std::to_string(size.height);
}

}  // namespace sdk::test
