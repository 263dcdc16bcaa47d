// The JPEG reader (common/imageio/jpeg): grey, 4:4:4 and 4:2:0 colour, baseline and progressive, decoded
// (1) exactly as libjpeg decodes them itself with its defaults, and (2) close to the pixels they
// were made from (lossy: within a tolerance per case); broken and CMYK files refused with one
// line naming the file.
#include "codec_builders.hpp"
#include "imageio_test_support.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/image_file.hpp"
#include "common/imageio/jpeg.hpp"
#include "common/imageio/luminance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace {

using codectest::JpegSpec;
using sdk::Image;

const decodetest::Decoder kJpeg{sdk::decode_jpeg, "test.jpg"};

// Smooth content, as in photographs: a JPEG of it at high quality stays close to it.
JpegSpec smooth_spec(int components, int width, int height)
{
    JpegSpec spec;
    spec.width = width;
    spec.height = height;
    spec.components = components;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < components; ++c)
                spec.pixels.push_back(static_cast<std::uint8_t>(30 + 2 * x + 3 * y + 40 * c));
    return spec;
}

int largest_difference(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b)
{
    int largest = 0;
    for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
        largest = std::max(largest, std::abs(int{a[i]} - int{b[i]}));
    return largest;
}

struct Case {
    const char* name;
    int components;
    bool subsampled;
    bool progressive;
    int tolerance;  // largest |decoded - original| allowed, at quality 95
};
const Case kCases[] = {
    {"grey", 1, false, false, 2},
    {"grey progressive", 1, false, true, 2},
    {"4:4:4", 3, false, false, 4},
    {"4:4:4 progressive", 3, false, true, 4},
    {"4:2:0", 3, true, false, 6},
    {"4:2:0 progressive", 3, true, true, 6},
};

TEST(JpegRead, EqualsLibjpegAndCloseToTheOriginal)
{
    for (const Case& c : kCases) {
        SCOPED_TRACE(c.name);
        JpegSpec spec = smooth_spec(c.components, 37, 21);  // partial blocks and MCUs
        spec.subsampled = c.subsampled;
        spec.progressive = c.progressive;
        const std::vector<std::uint8_t> file = codectest::build_jpeg(spec);
        const Image image = kJpeg.decode(file);
        EXPECT_EQ(image.width, 37u);
        EXPECT_EQ(image.height, 21u);
        EXPECT_EQ(image.channels, c.components);
        EXPECT_EQ(image.pixels, codectest::decode_jpeg_directly(file));
        EXPECT_LE(largest_difference(image.pixels, spec.pixels), c.tolerance);
        EXPECT_EQ(image.pixels.size(), spec.pixels.size());
    }
}

// A caller that wants grey gets a colour file's luminance channel as libjpeg decodes it alone
// (1 channel, no chroma decoded), close to the luminance the original pixels had; a grey file
// as without asking.
TEST(JpegRead, LuminanceOnlyIsTheStoredLuminance)
{
    for (const Case& c : kCases) {
        SCOPED_TRACE(c.name);
        JpegSpec spec = smooth_spec(c.components, 37, 21);
        spec.subsampled = c.subsampled;
        spec.progressive = c.progressive;
        const std::vector<std::uint8_t> file = codectest::build_jpeg(spec);
        sdk::JpegDecoding decoding;
        decoding.luminance_only = true;
        const Image image = sdk::decode_jpeg(file.data(), file.size(), "test.jpg", decoding);
        EXPECT_EQ(image.width, 37u);
        EXPECT_EQ(image.height, 21u);
        ASSERT_EQ(image.channels, 1);
        EXPECT_EQ(image.pixels, codectest::decode_jpeg_directly(file, true));
        const Image original{37, 21, c.components, spec.pixels};
        EXPECT_LE(largest_difference(image.pixels, sdk::to_luminance(original).pixels), c.tolerance);
        if (c.components == 1) {
            EXPECT_EQ(image.pixels, kJpeg.decode(file).pixels);
        }
    }
}

// ----- Broken files ----------------------------------------------------------------------------

std::vector<std::uint8_t> valid_jpeg(bool progressive = false)
{
    JpegSpec spec = smooth_spec(3, 40, 20);
    spec.progressive = progressive;
    return codectest::build_jpeg(spec);
}

TEST(JpegReject, NotAJpeg)
{
    kJpeg.expect_rejected({}, "not a JPEG file");
    kJpeg.expect_rejected({0xFF, 0xD8}, "not a JPEG file");
}

TEST(JpegReject, Truncated)
{
    for (const bool progressive : {false, true}) {
        const auto bytes = valid_jpeg(progressive);
        for (const std::size_t size : {std::size_t{3}, std::size_t{100}, bytes.size() / 2, bytes.size() - 2}) {
            SCOPED_TRACE(std::to_string(size) + (progressive ? " progressive" : ""));
            kJpeg.expect_rejected({bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size)}, "truncated");
        }
    }
}

TEST(JpegReject, JunkAfterSignature)
{
    std::vector<std::uint8_t> bytes = valid_jpeg();
    for (std::size_t i = 3; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i * 37 + 11);
    kJpeg.expect_rejected(bytes, "test.jpg: ");
    EXPECT_NE(kJpeg.rejection(bytes), "<accepted>");
}

TEST(JpegReject, Cmyk)
{
    JpegSpec spec = smooth_spec(4, 8, 8);
    kJpeg.expect_rejected(codectest::build_jpeg(spec), "CMYK JPEG is not supported");
}

// Rewrites the frame header's (SOF's) height and width.
std::vector<std::uint8_t> with_size(std::uint16_t width, std::uint16_t height)
{
    std::vector<std::uint8_t> bytes = valid_jpeg();
    for (std::size_t i = 2; i + 9 < bytes.size(); ++i) {
        if (bytes[i] == 0xFF && bytes[i + 1] == 0xC0) {  // SOF0: length (2), precision (1), height, width
            bytes[i + 5] = static_cast<std::uint8_t>(height >> 8);
            bytes[i + 6] = static_cast<std::uint8_t>(height);
            bytes[i + 7] = static_cast<std::uint8_t>(width >> 8);
            bytes[i + 8] = static_cast<std::uint8_t>(width);
            return bytes;
        }
    }
    ADD_FAILURE() << "no SOF0 marker";
    return bytes;
}

TEST(JpegReject, HugeDeclaredSize)
{
    kJpeg.expect_rejected(with_size(65500, 65500), "image too large: 65500x65500");
    // Within the limit, but far more 8x8 blocks than a file of a few hundred bytes has bits.
    kJpeg.expect_rejected(with_size(16384, 16384), "more than a file of");
}

// ----- Files that cost without bound ------------------------------------------------------------

std::size_t scans_in(const std::vector<std::uint8_t>& jpeg)
{
    std::size_t scans = 0;
    for (std::size_t i = 0; i + 1 < jpeg.size(); ++i) scans += jpeg[i] == 0xFF && jpeg[i + 1] == 0xDA;
    return scans;
}

TEST(JpegReject, MoreScansThanTheLimit)
{
    JpegSpec spec = smooth_spec(1, 64, 64);
    spec.progressive = true;
    const std::vector<std::uint8_t> file = codectest::build_jpeg(spec);
    const std::size_t limit = sdk::kMaxJpegScans;
    const auto at_limit = codectest::with_last_scan_repeated(file, limit - scans_in(file));
    ASSERT_EQ(scans_in(at_limit), limit);
    EXPECT_EQ(kJpeg.decode(at_limit).width, 64u);
    const auto past_limit = codectest::with_last_scan_repeated(file, limit + 1 - scans_in(file));
    kJpeg.expect_rejected(past_limit, "too many scans: scan " + std::to_string(limit + 1) +
                                          " found, the limit is " + std::to_string(limit));
}

using JpegFiles = decodetest::FolderTest;

TEST_F(JpegFiles, ReadByTheSignatureNotTheName)
{
    const std::filesystem::path& folder = folder_;
    const std::vector<std::uint8_t> bytes = valid_jpeg();
    sdk::write_file_atomically(folder / "photo.png", bytes.data(), bytes.size());
    const Image image = sdk::read_image(folder / "photo.png");
    EXPECT_EQ(image.pixels, codectest::decode_jpeg_directly(bytes));
    const sdk::InputFile file(folder / "photo.png");
    const sdk::ImageHeader header = sdk::read_jpeg_header(file);
    EXPECT_EQ(header.width, 40u);
    EXPECT_EQ(header.height, 20u);
    EXPECT_EQ(header.channels, 3);
}

}  // namespace
