// SPDX-License-Identifier: Apache-2.0
// The JPEG reader (common/imageio/jpeg): grey, 4:4:4 and 4:2:0 colour, baseline and progressive,
// decoded (1) exactly as libjpeg decodes them itself with its defaults, and (2) close to the pixels
// they were made from (lossy: within a tolerance per case); broken and CMYK files refused with one
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
    {"grey", 1, false, false, 2},  {"grey progressive", 1, false, true, 2},
    {"4:4:4", 3, false, false, 4}, {"4:4:4 progressive", 3, false, true, 4},
    {"4:2:0", 3, true, false, 6},  {"4:2:0 progressive", 3, true, true, 6},
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
        EXPECT_LE(largest_difference(image.pixels, sdk::to_luminance(original).pixels),
                  c.tolerance);
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
        for (const std::size_t size :
             {std::size_t{3}, std::size_t{100}, bytes.size() / 2, bytes.size() - 5}) {
            SCOPED_TRACE(std::to_string(size) + (progressive ? " progressive" : ""));
            kJpeg.expect_rejected(
                {bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(size)}, "truncated");
        }
    }
}

// A file whose image data is whole and only its end marker (EOI, the last two bytes) is missing,
// as cameras and downloads cut them (issue 38, item 16): decoded, the very pixels of the whole
// file; but a progressive file cut between two scans is still refused, its later scans missing.
TEST(JpegRead, AFileWithoutItsEndMarkerIsDecoded)
{
    for (const bool progressive : {false, true}) {
        SCOPED_TRACE(progressive ? "progressive" : "baseline");
        JpegSpec spec = smooth_spec(3, 61, 45);
        spec.progressive = progressive;
        const auto whole = codectest::build_jpeg(spec);
        ASSERT_EQ(whole[whole.size() - 2], 0xFF);
        ASSERT_EQ(whole[whole.size() - 1], 0xD9);
        const std::vector<std::uint8_t> cut(whole.begin(), whole.end() - 2);
        // The decode says why the file is short, once, naming it; the whole file says nothing.
        std::vector<std::string> notes;
        sdk::set_input_notes([&](const std::string& line) { notes.push_back(line); });
        EXPECT_EQ(kJpeg.decode(cut).pixels, kJpeg.decode(whole).pixels);
        sdk::set_input_notes(nullptr);
        ASSERT_EQ(notes.size(), 1u);
        EXPECT_EQ(notes[0].rfind("test.jpg: the file has no end marker (EOI", 0), 0u) << notes[0];
    }
    JpegSpec spec = smooth_spec(3, 61, 45);
    spec.progressive = true;
    const auto whole = codectest::build_jpeg(spec);
    std::size_t last_scan = 0;  // where the last SOS marker starts
    for (std::size_t i = 0; i + 1 < whole.size(); ++i)
        if (whole[i] == 0xFF && whole[i + 1] == 0xDA) last_scan = i;
    ASSERT_GT(last_scan, 0u);
    kJpeg.expect_rejected({whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(last_scan)},
                          "truncated: the file ends after scan");
}

TEST(JpegReject, JunkAfterSignature)
{
    std::vector<std::uint8_t> bytes = valid_jpeg();
    for (std::size_t i = 3; i < bytes.size(); ++i)
        bytes[i] = static_cast<std::uint8_t>(i * 37 + 11);
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
        if (bytes[i] == 0xFF &&
            bytes[i + 1] == 0xC0) {  // SOF0: length (2), precision (1), height, width
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

// Damage libjpeg decodes around with a warning, filling the rest flat grey (issue 38, item 4): the
// first half of the data followed by an end marker, and a frame header that claims more rows and
// columns than the data holds; baseline, progressive and with restart markers, read sequentially
// and (restart markers) on three threads. Each refused in one line, never a grey photo.
TEST(JpegReject, DataThatEndsBeforeTheImageIsNotDecodedAround)
{
    for (const int variant : {0, 1, 2}) {
        JpegSpec spec = smooth_spec(3, 400, 300);
        spec.progressive = variant == 1;
        spec.restart_rows = variant == 2 ? 1 : 0;
        const std::vector<std::uint8_t> whole = codectest::build_jpeg(spec);
        SCOPED_TRACE(variant == 0 ? "baseline" : variant == 1 ? "progressive" : "restart markers");
        std::vector<std::uint8_t> half(
            whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(whole.size() / 2));
        half.insert(half.end(), {0xFF, 0xD9});
        std::vector<std::uint8_t> larger = whole;  // 400x300 of data, its header saying 800x600
        for (std::size_t i = 2; i + 9 < larger.size(); ++i) {
            if (larger[i] == 0xFF && (larger[i + 1] == 0xC0 || larger[i + 1] == 0xC2)) {
                larger[i + 5] = 600 >> 8, larger[i + 6] = 600 & 0xFF;
                larger[i + 7] = 800 >> 8, larger[i + 8] = 800 & 0xFF;
                break;
            }
        }
        for (const auto* damaged : {&half, &larger}) {
            kJpeg.expect_rejected(*damaged, "test.jpg: Corrupt JPEG data");
            sdk::JpegDecoding parallel;
            parallel.threads = 3;
            parallel.parallel_from_pixels = 0;
            std::string said = "<accepted>";
            try {
                sdk::decode_jpeg(damaged->data(), damaged->size(), "test.jpg", parallel);
            } catch (const std::exception& error) {
                said = error.what();
            }
            EXPECT_NE(said.find("test.jpg: Corrupt JPEG data"), std::string::npos) << said;
        }
    }
}

// ----- Files that cost without bound ------------------------------------------------------------

std::size_t scans_in(const std::vector<std::uint8_t>& jpeg)
{
    std::size_t scans = 0;
    for (std::size_t i = 0; i + 1 < jpeg.size(); ++i)
        scans += jpeg[i] == 0xFF && jpeg[i + 1] == 0xDA;
    return scans;
}

// `jpeg` with its first scan (a DC scan, which sets coefficients rather than refining them, so
// that repeating it decodes without damage: libjpeg only warns that the progression is odd)
// repeated `copies` times before the end marker, each copy with the tables before it.
std::vector<std::uint8_t> with_first_scan_repeated(const std::vector<std::uint8_t>& jpeg,
                                                   std::size_t copies)
{
    // Segments from SOI: a marker, a length, then for SOS the entropy-coded data up to the next
    // marker that is neither a stuffed 0xFF00 nor a restart marker.
    std::size_t at = 2, tables = 0, first_end = 0;
    while (at + 4 <= jpeg.size() && first_end == 0) {
        const int marker = jpeg[at + 1];
        if (marker == 0xC4 && tables == 0) tables = at;  // the first scan's Huffman tables
        std::size_t next = at + 2 + (std::size_t{jpeg[at + 2]} << 8 | jpeg[at + 3]);
        if (marker == 0xDA) {
            while (next + 1 < jpeg.size() && !(jpeg[next] == 0xFF && jpeg[next + 1] != 0 &&
                                               (jpeg[next + 1] < 0xD0 || jpeg[next + 1] > 0xD7)))
                ++next;
            first_end = next;
        }
        if (marker != 0xC4 && marker != 0xDA) tables = 0;  // tables belong to the scan after them
        at = next;
    }
    if (tables == 0 || first_end == 0) std::abort();
    std::vector<std::uint8_t> out(jpeg.begin(), jpeg.end() - 2);
    for (std::size_t i = 0; i < copies; ++i)
        out.insert(out.end(), jpeg.begin() + static_cast<std::ptrdiff_t>(tables),
                   jpeg.begin() + static_cast<std::ptrdiff_t>(first_end));
    out.insert(out.end(), {0xFF, 0xD9});
    return out;
}

TEST(JpegReject, MoreScansThanTheLimit)
{
    JpegSpec spec = smooth_spec(1, 64, 64);
    spec.progressive = true;
    const std::vector<std::uint8_t> file = codectest::build_jpeg(spec);
    const std::size_t limit = sdk::kMaxJpegScans;
    const auto at_limit = with_first_scan_repeated(file, limit - scans_in(file));
    ASSERT_EQ(scans_in(at_limit), limit);
    // Repeating a scan is what makes a file of many scans here. libjpeg-turbo 2.1 (Debian 12)
    // warns of it; a libjpeg that refuses it as damage itself (3.x, "Inconsistent progression
    // sequence") leaves this limit nothing to count.
    try {
        EXPECT_EQ(kJpeg.decode(at_limit).width, 64u);
    } catch (const std::exception& error) {
        if (std::string(error.what()).find("Inconsistent progression") == std::string::npos) throw;
        GTEST_SKIP() << "this libjpeg refuses a repeated scan itself: " << error.what();
    }
    const auto past_limit = with_first_scan_repeated(file, limit + 1 - scans_in(file));
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
