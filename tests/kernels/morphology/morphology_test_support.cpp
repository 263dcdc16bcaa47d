// SPDX-License-Identifier: Apache-2.0
#include "morphology_test_support.hpp"

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <utility>

namespace sdk::test {

// Never destroyed: releasing OpenCL objects from static destructors at exit races the
// runtime's own teardown.
MorphologyFilter& filter_for(const StructuringElement& element, MemoryMode memory)
{
    static auto* filters =
        new std::map<std::pair<std::string, MemoryMode>, std::unique_ptr<MorphologyFilter>>;
    auto& filter = (*filters)[{element_name(element), memory}];
    if (!filter) filter = std::make_unique<MorphologyFilter>(test_context(), element, memory);
    return *filter;
}

DeviceResult run_on_device(MorphologyFilter& filter, const Image& luminance,
                           const Binarisation& binarisation, MorphologyOperation operation,
                           const Roi& roi, std::uint8_t poison)
{
    filter.upload(luminance);
    filter.fill_outputs(poison);
    filter.run(binarisation, operation, roi);
    DeviceResult result;
    result.output = filter.download();
    result.packed_result = filter.download_packed_result();
    return result;
}

std::vector<std::uint8_t> white_on_black(const Image& mask)
{
    std::vector<std::uint8_t> pixels(mask.pixels.size());
    for (std::size_t i = 0; i < pixels.size(); ++i) pixels[i] = mask.pixels[i] ? 255 : 0;
    return pixels;
}

void expect_matches_reference(const StructuringElement& element, MorphologyOperation operation,
                              const Image& luminance, const Binarisation& binarisation,
                              const Roi& roi, std::uint8_t poison, const std::string& what)
{
    MorphologyFilter& filter = filter_for(element);
    const Image expected =
        morphology_reference(binarise_reference(luminance, binarisation), operation, element, roi);
    const DeviceResult actual =
        run_on_device(filter, luminance, binarisation, operation, roi, poison);
    ASSERT_EQ(actual.output, white_on_black(expected)) << what;
    ASSERT_EQ(actual.packed_result.bits, pack_bitmap(expected, filter.row_pitch()).bits) << what;
}

std::vector<Roi> regions_of(std::size_t width, std::size_t height)
{
    const std::size_t half_width = width / 2;
    const std::size_t half_height = height / 2;
    return {
        whole_image(width, height),
        {0, 0, 1, 1},                             // 1x1 in the top-left corner
        {width - 1, height - 1, 1, 1},            // 1x1, bottom-right corner
        {half_width, half_height, 1, 1},          // 1x1 in the middle
        {0, 0, half_width + 1, half_height + 1},  // touches the top and left
        {half_width, half_height, width - half_width, height - half_height},  // bottom and right
        {width - 1, 0, 1, height},                                            // the last column
        {0, height - 1, width, 1},                                            // the last row
        {width / 4, height / 4, width - width / 2, height - height / 2},      // inside
    };
}

}  // namespace sdk::test
