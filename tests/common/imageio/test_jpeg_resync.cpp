// SPDX-License-Identifier: Apache-2.0
// JPEG files without restart markers, given them by speculative Huffman decoding on several
// threads (common/imageio/jpeg_resync) and then decoded across them: byte-for-byte the pixels of
// the sequential decoder for grey, 4:4:4, 4:2:2 and 4:2:0, sizes that are not whole MCUs, the
// standard and optimised Huffman tables, chunks of a few bytes (so that decoders start mid-code
// in many places) and of many; every damaged file decoded or refused as the sequential decoder
// does it.
#include "codec_builders.hpp"
#include "imageio_test_support.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/input_file.hpp"
#include "common/imageio/jpeg.hpp"
#include "common/imageio/jpeg_restarts.hpp"
#include "common/imageio/jpeg_resync.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

namespace {

using codectest::kSamplings;
using codectest::noisy_spec;
using sdk::Image;
using sdk::JpegDecoding;
using sdk::JpegPath;

JpegDecoding cut_small(unsigned threads, std::size_t least_chunk_bytes, JpegPath* path)
{
    JpegDecoding decoding;
    decoding.threads = threads;
    decoding.parallel_from_pixels = 0;
    decoding.add_restarts_from_pixels = 0;
    decoding.least_chunk_bytes = least_chunk_bytes;
    decoding.path_taken = path;
    return decoding;
}

// Decodes from an allocation of exactly the file's size (AddressSanitizer sees a read past it).
Image decode(const std::vector<std::uint8_t>& file, const JpegDecoding& decoding)
{
    std::vector<std::uint8_t> exact(file);
    exact.shrink_to_fit();
    return sdk::decode_jpeg(exact.data(), exact.size(), "test.jpg", decoding);
}

// The decoded image, or the one line it was refused with.
std::string outcome(const std::vector<std::uint8_t>& file, const JpegDecoding& decoding)
{
    try {
        const Image image = decode(file, decoding);
        return std::to_string(image.width) + "x" + std::to_string(image.height) + "x" +
               std::to_string(image.channels) + ":" +
               std::string(image.pixels.begin(), image.pixels.end());
    } catch (const sdk::ImageError& error) {
        return error.what();
    }
}

struct Size {
    int width, height;
};
const Size kSizes[] = {{17, 5}, {37, 41}, {3, 130}, {301, 9}, {100, 37}, {129, 272}, {64, 64}};

TEST(JpegRestartsAdded, SameBytesAsTheSequentialDecoder)
{
    int added = 0, cases = 0;
    for (const codectest::Sampling& sampling : kSamplings)
        for (const Size size : kSizes)
            for (const bool optimize : {false, true}) {
                auto spec = noisy_spec(sampling, size.width, size.height, 0);
                spec.optimize = optimize;
                spec.quality = size.width % 2 ? 90 : 50;
                const auto file = codectest::build_jpeg(spec);
                const std::vector<std::uint8_t> expected = codectest::decode_jpeg_directly(file);
                for (const unsigned threads : {3u, 4u, 7u})
                    for (const std::size_t chunk : {std::size_t{5}, std::size_t{120}}) {
                        SCOPED_TRACE(std::string(sampling.name) + " " + std::to_string(size.width) +
                                     "x" + std::to_string(size.height) +
                                     (optimize ? ", optimised tables, " : ", ") +
                                     std::to_string(threads) + " threads, chunks of " +
                                     std::to_string(chunk) + " bytes or more");
                        JpegPath path = JpegPath::sequential;
                        const Image image = decode(file, cut_small(threads, chunk, &path));
                        ASSERT_EQ(image.width, static_cast<std::size_t>(size.width));
                        ASSERT_EQ(image.height, static_cast<std::size_t>(size.height));
                        ASSERT_EQ(image.pixels, expected);
                        EXPECT_NE(path, JpegPath::restart_intervals);
                        added += path == JpegPath::restarts_added;
                        ++cases;
                    }
            }
    // Most files are cut. Those left: a single MCU row (no second interval to decode apart),
    // a scan shorter than two chunks, and optimised tables without a code for a DC value once
    // it is coded against 0.
    EXPECT_GT(added, cases * 3 / 4) << added << " of " << cases;
}

// Standard tables have a code for every DC value: a larger file of each sampling is always cut,
// with chunks from a few bytes to the default.
TEST(JpegRestartsAdded, StandardTablesAlwaysCut)
{
    for (const codectest::Sampling& sampling : kSamplings)
        for (const std::size_t chunk : {std::size_t{7}, std::size_t{1000}, std::size_t{64} << 10}) {
            SCOPED_TRACE(std::string(sampling.name) + ", chunks of " + std::to_string(chunk));
            const auto file = codectest::build_jpeg(noisy_spec(sampling, 611, 397, 0));
            JpegPath path = JpegPath::sequential;
            EXPECT_EQ(decode(file, cut_small(4, chunk, &path)).pixels,
                      codectest::decode_jpeg_directly(file));
            EXPECT_EQ(path, chunk <= 1000 || file.size() > 2 * chunk ? JpegPath::restarts_added
                                                                     : JpegPath::sequential);
        }
}

// The rewritten file holds the same headers, a DRI of one MCU row before SOS, and a restart
// marker between rows, in order; decoded whole by libjpeg it gives the original's pixels.
TEST(JpegRestartsAdded, TheRewrittenFileIsAJpegOfRowIntervals)
{
    const auto file = codectest::build_jpeg(noisy_spec(kSamplings[3], 200, 100, 0));
    const sdk::JpegBytes bytes(file.data(), file.size());
    const auto header = sdk::read_scan_header(bytes);
    ASSERT_TRUE(header);
    EXPECT_EQ(header->restart_interval, 0);
    const auto added = sdk::add_row_restart_markers(bytes, 3, 16);
    ASSERT_TRUE(added);
    const std::vector<std::uint8_t> rewritten(added->data(), added->data() + added->size());
    EXPECT_EQ(codectest::decode_jpeg_directly(rewritten), codectest::decode_jpeg_directly(file));
    const sdk::JpegBytes again(rewritten.data(), rewritten.size());
    const auto layout = sdk::find_restart_intervals(again, 2);
    ASSERT_TRUE(layout);
    EXPECT_EQ(layout->intervals(), 7u);  // 100 rows of 16-row MCUs
    EXPECT_EQ(layout->intervals_per_strip, 1u);
    const auto new_header = sdk::read_scan_header(again);
    ASSERT_TRUE(new_header);
    EXPECT_EQ(new_header->restart_interval, 13);  // 200 columns of 16-column MCUs
    EXPECT_TRUE(std::equal(file.begin(),
                           file.begin() + static_cast<std::ptrdiff_t>(header->scan_offset),
                           rewritten.begin()));
    // A file that has restart markers already, or one MCU row, is not rewritten.
    EXPECT_FALSE(sdk::add_row_restart_markers(again, 3, 16));
    const auto one_row = codectest::build_jpeg(noisy_spec(kSamplings[3], 2000, 16, 0));
    EXPECT_FALSE(
        sdk::add_row_restart_markers(sdk::JpegBytes(one_row.data(), one_row.size()), 3, 16));
}

TEST(JpegRestartsAdded, LuminanceOnlyAsTheSequentialDecoder)
{
    for (const codectest::Sampling& sampling : kSamplings) {
        SCOPED_TRACE(sampling.name);
        const auto file = codectest::build_jpeg(noisy_spec(sampling, 129, 272, 0));
        JpegPath path = JpegPath::sequential;
        JpegDecoding decoding = cut_small(3, 64, &path);
        decoding.luminance_only = true;
        EXPECT_EQ(decode(file, decoding).pixels, codectest::decode_jpeg_directly(file, true));
        EXPECT_EQ(path, JpegPath::restarts_added);
    }
}

// Progressive files are left to the sequential decoder (jpeg_resync.hpp says why), and files
// with restart markers go to the decoder of restart intervals as they are.
TEST(JpegRestartsAdded, OtherFilesTakeTheirOwnPaths)
{
    auto progressive = noisy_spec(kSamplings[3], 129, 272, 0);
    progressive.progressive = true;
    const auto restarts = noisy_spec(kSamplings[3], 129, 272, 1);
    for (const auto& [spec, expected] : {std::pair{progressive, JpegPath::sequential},
                                         std::pair{restarts, JpegPath::restart_intervals}}) {
        const auto file = codectest::build_jpeg(spec);
        JpegPath path = JpegPath::restarts_added;
        EXPECT_EQ(decode(file, cut_small(3, 16, &path)).pixels,
                  codectest::decode_jpeg_directly(file));
        EXPECT_EQ(path, expected);
    }
}

// Damage gives what the sequential decoder gives (an image libjpeg decoded around it, or the
// same one-line refusal), whichever decoder ends up making it: a truncated file, one without its
// end marker, and every few bytes of the scan set to values that make a stuffed FF, a marker,
// or other bits.
TEST(JpegRestartsAdded, DamagedFilesAsTheSequentialDecoder)
{
    const auto file = codectest::build_jpeg(noisy_spec(kSamplings[3], 61, 70, 0));
    const auto header = sdk::read_scan_header(sdk::JpegBytes(file.data(), file.size()));
    ASSERT_TRUE(header);
    int sequential = 0, cut = 0;
    const auto same_outcome = [&](const std::vector<std::uint8_t>& damaged) {
        JpegPath path = JpegPath::sequential;  // left so when the image is refused
        const std::string expected = outcome(damaged, cut_small(1, 16, nullptr));
        EXPECT_EQ(outcome(damaged, cut_small(3, 16, &path)), expected);
        (path == JpegPath::sequential ? sequential : cut) += 1;
        return path;
    };
    for (const std::size_t size : {std::size_t(header->entropy_begin + 10), file.size() / 2,
                                   file.size() - 3, file.size() - 2, file.size() - 1}) {
        SCOPED_TRACE("truncated to " + std::to_string(size));
        EXPECT_EQ(same_outcome({file.begin(), file.begin() + static_cast<std::ptrdiff_t>(size)}),
                  JpegPath::sequential);
    }
    for (std::uint64_t at = header->entropy_begin; at + 2 < file.size(); at += 3)
        for (const int value : {0x00, 0xFF, 0x5A}) {
            auto damaged = file;
            damaged[at] = static_cast<std::uint8_t>(value);
            SCOPED_TRACE("byte " + std::to_string(at) + " set to " + std::to_string(value));
            same_outcome(damaged);
        }
    // Both ways were taken: damage that gives up, and damage that still decodes as libjpeg does.
    EXPECT_GT(sequential, 0);
    EXPECT_GT(cut, 0);
}

using JpegRestartsAddedFiles = decodetest::FolderTest;

// A file read in place (its scan read on several threads) as one in memory.
TEST_F(JpegRestartsAddedFiles, ReadInPlace)
{
    const auto file = codectest::build_jpeg(noisy_spec(kSamplings[2], 203, 150, 0));
    sdk::write_file_atomically(folder_ / "photo.jpg", file.data(), file.size());
    const sdk::InputFile input(folder_ / "photo.jpg");
    JpegPath path = JpegPath::sequential;
    EXPECT_EQ(sdk::read_jpeg(input, cut_small(4, 100, &path)).pixels,
              codectest::decode_jpeg_directly(file));
    EXPECT_EQ(path, JpegPath::restarts_added);
}

}  // namespace
