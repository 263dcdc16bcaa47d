// SPDX-License-Identifier: Apache-2.0
// The JPEG luminance's two halves on the host: the coefficients read_jpeg_luminance_coefficients
// gives, turned into samples by the C++ reference IDCT (common/codecs/jpeg_idct/), must equal
// libjpeg-turbo's own grey decoding bit for bit, over small files written with libjpeg here:
// qualities 50, 90, 100, grey and 4:2:0, 4:2:2, 4:4:4 colour, baseline, progressive and with
// restart markers, on sizes that leave partial blocks and MCUs.
#include "common/codecs/jpeg_idct/jpeg_idct_reference.hpp"
#include "common/imageio/image.hpp"
#include "common/imageio/jpeg.hpp"
#include "codec_builders.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace sdk {
namespace {

using codectest::build_jpeg;
using codectest::decode_jpeg_directly;
using codectest::JpegSpec;

// A photo-like mixture: a smooth ramp, noise, and sharp edges (large high frequencies).
std::vector<std::uint8_t> test_pixels(int width, int height, int components, std::uint32_t seed)
{
    std::mt19937 generator(seed);
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width) * height * components);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < components; ++c) {
                const int ramp = (x * 7 + y * 3 + c * 50) % 256;
                const int edge = ((x / 3 + y / 2) % 2) * 120;
                const int noise = static_cast<int>(generator() % 64) - 32;
                pixels[(static_cast<std::size_t>(y) * width + x) * components + c] =
                    static_cast<std::uint8_t>(std::clamp(ramp / 2 + edge + noise, 0, 255));
            }
    return pixels;
}

struct Kind {
    const char* name;
    int components;
    int luma_h;
    int luma_v;
};
const Kind kKinds[] = {{"grey", 1, 0, 0}, {"444", 3, 1, 1}, {"422", 3, 2, 1}, {"420", 3, 2, 2}};
struct Size {
    int width;
    int height;
};
const Size kSizes[] = {{1, 1}, {8, 8}, {17, 5}, {33, 47}, {200, 3}};

// The luminance libjpeg decodes from `file`, and the reference's from its coefficients.
void expect_equal_to_libjpeg(const std::vector<std::uint8_t>& file, const std::string& what)
{
    const auto plane = decode_jpeg_luminance_coefficients(file.data(), file.size(), what);
    ASSERT_TRUE(plane) << what;
    EXPECT_TRUE(idct_exact_for(*plane)) << what;
    const Image ours = luminance_from_coefficients(*plane);
    const std::vector<std::uint8_t> theirs = decode_jpeg_directly(file, true);
    ASSERT_EQ(ours.pixels.size(), theirs.size()) << what;
    EXPECT_EQ(ours.pixels, theirs) << what;
}

TEST(JpegIdctReference, EqualsLibjpegsGreyDecoding)
{
    std::uint32_t seed = 1;
    for (const Kind& kind : kKinds)
        for (const Size& size : kSizes)
            for (const int quality : {50, 90, 100})
                for (const int layout : {0, 1, 2}) {  // baseline, progressive, restart markers
                    JpegSpec spec;
                    spec.width = size.width;
                    spec.height = size.height;
                    spec.components = kind.components;
                    spec.luma_h = kind.luma_h;
                    spec.luma_v = kind.luma_v;
                    spec.quality = quality;
                    spec.progressive = layout == 1;
                    spec.restart_mcus = layout == 2 ? 1 : 0;
                    spec.pixels = test_pixels(spec.width, spec.height, kind.components, seed++);
                    expect_equal_to_libjpeg(
                        build_jpeg(spec),
                        std::string(kind.name) + " " + std::to_string(size.width) + "x" +
                            std::to_string(size.height) + " q" + std::to_string(quality) +
                            " layout " + std::to_string(layout));
                }
}

TEST(JpegIdctReference, CoefficientsCoverThePlane)
{
    JpegSpec spec;
    spec.width = 17;
    spec.height = 5;
    spec.components = 3;
    spec.luma_h = spec.luma_v = 2;
    spec.pixels = test_pixels(17, 5, 3, 7);
    const auto file = build_jpeg(spec);
    const auto plane = decode_jpeg_luminance_coefficients(file.data(), file.size(), "17x5.jpg");
    ASSERT_TRUE(plane);
    EXPECT_EQ(plane->width, 17u);
    EXPECT_EQ(plane->height, 5u);
    EXPECT_EQ(plane->blocks_wide, 3u);
    EXPECT_EQ(plane->blocks_high, 1u);
    EXPECT_EQ(plane->coefficients.size(), 3u * 64u);
}

TEST(JpegIdctReference, RefusesWhatReadJpegRefuses)
{
    JpegSpec spec;
    spec.width = 16;
    spec.height = 16;
    spec.components = 4;  // CMYK
    spec.pixels = test_pixels(16, 16, 4, 3);
    const auto file = build_jpeg(spec);
    EXPECT_THROW(decode_jpeg_luminance_coefficients(file.data(), file.size(), "cmyk.jpg"),
                 ImageError);
    const std::vector<std::uint8_t> not_jpeg(100, 0x42);
    EXPECT_THROW(decode_jpeg_luminance_coefficients(not_jpeg.data(), not_jpeg.size(), "x.jpg"),
                 ImageError);
}

TEST(JpegIdctReference, BlocksBeyondTheExactRangeAreTold)
{
    JpegLuminanceCoefficients plane;
    plane.width = plane.height = 8;
    plane.blocks_wide = plane.blocks_high = 1;
    plane.quantisation.fill(1);
    plane.coefficients.assign(64, 0);
    plane.coefficients[0] = 1024;
    EXPECT_TRUE(idct_exact_for(plane));
    // 64 x 256 is the bound itself; one more is beyond it.
    plane.coefficients.assign(64, 256);
    EXPECT_TRUE(idct_exact_for(plane));
    plane.coefficients[63] = -257;
    EXPECT_FALSE(idct_exact_for(plane));
}

}  // namespace
}  // namespace sdk
