// SPDX-License-Identifier: Apache-2.0
// JPEG files with restart markers decoded across their restart intervals on several threads
// (common/imageio/jpeg_restarts, jpeg_parallel): byte-for-byte the pixels of the sequential
// decoder, for grey, 4:4:4, 4:2:2 and 4:2:0 at sizes that are not whole MCUs and restart
// intervals of one and several MCU rows, or of MCUs that do not divide a row (the file then cut
// where an interval and a row start together); every other file, and every damaged one, decoded
// or refused exactly as the sequential decoder does it.
#include "codec_builders.hpp"
#include "imageio_test_support.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/input_file.hpp"
#include "common/imageio/jpeg.hpp"
#include "common/imageio/jpeg_restarts.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace {

using codectest::JpegSpec;
using sdk::Image;
using sdk::JpegDecoding;
using sdk::JpegPath;

using codectest::kSamplings;
using codectest::noisy_spec;
using codectest::Sampling;

// Decodes from an allocation of exactly the file's size (AddressSanitizer sees a read past it).
Image decode(const std::vector<std::uint8_t>& file, unsigned threads, JpegPath* path = nullptr,
             bool luminance_only = false)
{
    std::vector<std::uint8_t> exact(file);
    exact.shrink_to_fit();
    JpegDecoding decoding;
    decoding.threads = threads;
    decoding.parallel_from_pixels = 0;
    decoding.path_taken = path;
    decoding.luminance_only = luminance_only;
    return sdk::decode_jpeg(exact.data(), exact.size(), "test.jpg", decoding);
}

// The decoded image, or the one line it was refused with.
std::string outcome(const std::vector<std::uint8_t>& file, unsigned threads,
                    JpegPath* path = nullptr)
{
    try {
        const Image image = decode(file, threads, path);
        return std::to_string(image.width) + "x" + std::to_string(image.height) + "x" +
               std::to_string(image.channels) + ":" +
               std::string(image.pixels.begin(), image.pixels.end());
    } catch (const sdk::ImageError& error) {
        return error.what();
    }
}

int intervals_of(const Sampling& sampling, int height, int restart_rows)
{
    const int mcu_height = sampling.components == 1 ? 8 : 8 * sampling.luma_v;
    const int mcu_rows = (height + mcu_height - 1) / mcu_height;
    return (mcu_rows + restart_rows - 1) / restart_rows;
}

struct Size {
    int width, height;
};
// Partial MCUs everywhere, one MCU row, tall and thin, wide and short, widths not a multiple of 8
// or 16, and one 17 MCU rows high for pieces of different sizes.
const Size kSizes[] = {{1, 1},   {2, 3},   {17, 5},   {8, 16},    {16, 17}, {37, 41},
                       {3, 130}, {301, 9}, {100, 37}, {129, 272}, {64, 64}};

TEST(JpegRestartIntervals, SameBytesAsTheSequentialDecoder)
{
    int parallel_decodes = 0;
    for (const Sampling& sampling : kSamplings)
        for (const Size size : kSizes)
            for (const int restart_rows : {1, 2, 3}) {
                SCOPED_TRACE(std::string(sampling.name) + " " + std::to_string(size.width) + "x" +
                             std::to_string(size.height) + ", restart every " +
                             std::to_string(restart_rows) + " MCU rows");
                const auto file = codectest::build_jpeg(
                    noisy_spec(sampling, size.width, size.height, restart_rows));
                const std::vector<std::uint8_t> expected = codectest::decode_jpeg_directly(file);
                JpegPath path = JpegPath::sequential;
                ASSERT_EQ(decode(file, 1, &path).pixels, expected);
                ASSERT_EQ(path, JpegPath::sequential);
                const bool cut = intervals_of(sampling, size.height, restart_rows) >= 2;
                for (const unsigned threads : {2u, 3u, 7u}) {
                    SCOPED_TRACE(std::to_string(threads) + " threads");
                    const Image image = decode(file, threads, &path);
                    EXPECT_EQ(image.width, static_cast<std::size_t>(size.width));
                    EXPECT_EQ(image.height, static_cast<std::size_t>(size.height));
                    EXPECT_EQ(image.channels, sampling.components);
                    EXPECT_EQ(image.pixels, expected);
                    EXPECT_EQ(path, cut ? JpegPath::restart_intervals : JpegPath::sequential);
                    parallel_decodes += path == JpegPath::restart_intervals;
                }
            }
    EXPECT_GT(parallel_decodes, 200);  // 213 of the cases above have two intervals or more
}

// A colour file's luminance channel alone (JpegDecoding::luminance_only), across its restart
// intervals, is what the sequential decoder makes of it.
TEST(JpegRestartIntervals, LuminanceOnlyAsTheSequentialDecoder)
{
    int parallel_decodes = 0;
    for (const Sampling& sampling : kSamplings)
        for (const Size size : {Size{17, 5}, Size{37, 41}, Size{3, 130}, Size{129, 272}}) {
            SCOPED_TRACE(std::string(sampling.name) + " " + std::to_string(size.width) + "x" +
                         std::to_string(size.height));
            const auto file =
                codectest::build_jpeg(noisy_spec(sampling, size.width, size.height, 1));
            const std::vector<std::uint8_t> expected = codectest::decode_jpeg_directly(file, true);
            JpegPath path = JpegPath::restart_intervals;
            const Image sequential = decode(file, 1, &path, true);
            EXPECT_EQ(sequential.channels, 1);
            EXPECT_EQ(sequential.pixels, expected);
            EXPECT_EQ(path, JpegPath::sequential);
            const Image parallel = decode(file, 3, &path, true);
            EXPECT_EQ(parallel.channels, 1);
            EXPECT_EQ(parallel.pixels, expected);
            parallel_decodes += path == JpegPath::restart_intervals;
        }
    EXPECT_GE(parallel_decodes, 12);  // all but the 17x5s, one MCU row high
}

// MCUs of a row and rows of MCUs of `sampling` at `width` x `height`.
struct McuGrid {
    int per_row, rows;
};
McuGrid mcu_grid(const Sampling& sampling, int width, int height)
{
    const int mcu_width = sampling.components == 1 ? 8 : 8 * sampling.luma_h;
    const int mcu_height = sampling.components == 1 ? 8 : 8 * sampling.luma_v;
    return {(width + mcu_width - 1) / mcu_width, (height + mcu_height - 1) / mcu_height};
}

// A restart interval that does not divide the MCU row (what OpenCV's IMWRITE_JPEG_RST_INTERVAL
// writes): the file is cut every lcm(interval, MCUs per row) MCUs, where an interval and a row
// start together, with the intervals inside each piece as long as the file's. Cut when there are
// two such places or more, else decoded sequentially: the same pixels either way.
TEST(JpegRestartIntervals, IntervalsThatDoNotDivideARow)
{
    struct Case {
        int width, height, restart_mcus;
    };
    // Per sampling, in MCUs: 7 on rows of 21 (a cut every row); 4 on rows of 6 (every other row,
    // the last strip and the last interval short); 5 on rows of 3 (every fifth row: an interval
    // spans rows); 64 on rows of 48 (lcm 192, 4 rows); 64 on rows of 1024 (every row, only the
    // first interval of each starting it); 10 on rows of 7 (lcm 70 MCUs, more than the image:
    // sequential).
    const auto cases_for = [](const Sampling& sampling) {
        const int mcu_width = sampling.components == 1 ? 8 : 8 * sampling.luma_h;
        const int mcu_height = sampling.components == 1 ? 8 : 8 * sampling.luma_v;
        return std::vector<Case>{{21 * mcu_width - 3, 5 * mcu_height - 1, 7},
                                 {6 * mcu_width, 7 * mcu_height - 3, 4},
                                 {3 * mcu_width - 5, 23 * mcu_height - 2, 5},
                                 {48 * mcu_width - 1, 9 * mcu_height, 64},
                                 {1024 * mcu_width - 7, 3 * mcu_height - 5, 64},
                                 {7 * mcu_width - 1, 6 * mcu_height + 1, 10}};
    };
    int parallel_decodes = 0;
    for (const Sampling& sampling : kSamplings)
        for (const Case c : cases_for(sampling)) {
            SCOPED_TRACE(std::string(sampling.name) + " " + std::to_string(c.width) + "x" +
                         std::to_string(c.height) + ", restart every " +
                         std::to_string(c.restart_mcus) + " MCUs");
            JpegSpec spec = noisy_spec(sampling, c.width, c.height, 0);
            spec.restart_mcus = c.restart_mcus;
            const auto file = codectest::build_jpeg(spec);
            const McuGrid grid = mcu_grid(sampling, c.width, c.height);
            ASSERT_NE(c.restart_mcus % grid.per_row, 0);  // not an interval of whole rows
            const int strip_mcus = std::lcm(c.restart_mcus, grid.per_row);
            const bool cut = grid.per_row * grid.rows > strip_mcus;

            const sdk::JpegBytes bytes(file.data(), file.size());
            const auto layout = sdk::find_restart_intervals(bytes, 2);
            ASSERT_EQ(layout.has_value(), cut);
            if (layout) {
                EXPECT_EQ(layout->intervals(),
                          static_cast<std::size_t>((grid.per_row * grid.rows + c.restart_mcus - 1) /
                                                   c.restart_mcus));
                EXPECT_EQ(layout->intervals_per_strip,
                          static_cast<std::uint32_t>(strip_mcus / c.restart_mcus));
                EXPECT_GE(layout->strips(), 2u);
            }
            const std::vector<std::uint8_t> expected = codectest::decode_jpeg_directly(file);
            JpegPath path = JpegPath::sequential;
            for (const unsigned threads : {2u, 3u, 8u}) {
                SCOPED_TRACE(std::to_string(threads) + " threads");
                EXPECT_EQ(decode(file, threads, &path).pixels, expected);
                EXPECT_EQ(path, cut ? JpegPath::restart_intervals : JpegPath::sequential);
                parallel_decodes += path == JpegPath::restart_intervals;
            }
            const Image luminance = decode(file, 3, &path, true);
            EXPECT_EQ(luminance.pixels, codectest::decode_jpeg_directly(file, true));
            EXPECT_EQ(path, cut ? JpegPath::restart_intervals : JpegPath::sequential);
        }
    EXPECT_EQ(parallel_decodes, 4 * 5 * 3);  // all but the lcm larger than the image
}

// A restart after every MCU of a large grey image: more intervals than a file of row intervals
// could hold, each of 64 pixels, whose bookkeeping would outweigh the pixels: decoded
// sequentially. Every 4 MCUs, 256 pixels an interval, is cut.
TEST(JpegRestartIntervals, TinyIntervalsOfALargeImageDecodeSequentially)
{
    JpegSpec spec = noisy_spec(kSamplings[0], 257 * 8, 256 * 8, 0);
    for (const int restart_mcus : {1, 4}) {
        SCOPED_TRACE("restart every " + std::to_string(restart_mcus) + " MCUs");
        spec.restart_mcus = restart_mcus;
        const auto file = codectest::build_jpeg(spec);
        const sdk::JpegBytes bytes(file.data(), file.size());
        EXPECT_EQ(sdk::find_restart_intervals(bytes, 2).has_value(), restart_mcus == 4);
        JpegPath path = JpegPath::sequential;
        EXPECT_EQ(decode(file, 2, &path).pixels, codectest::decode_jpeg_directly(file));
        EXPECT_EQ(path, restart_mcus == 4 ? JpegPath::restart_intervals : JpegPath::sequential);
    }
}

using JpegRestartFiles = decodetest::FolderTest;

TEST_F(JpegRestartFiles, ReadInPlace)
{
    const auto file = codectest::build_jpeg(noisy_spec(kSamplings[3], 203, 150, 1));
    sdk::write_file_atomically(folder_ / "photo.jpg", file.data(), file.size());
    const sdk::InputFile input(folder_ / "photo.jpg");
    JpegPath path = JpegPath::sequential;
    JpegDecoding decoding;
    decoding.threads = 4;
    decoding.parallel_from_pixels = 0;
    decoding.path_taken = &path;
    EXPECT_EQ(sdk::read_jpeg(input, decoding).pixels, codectest::decode_jpeg_directly(file));
    EXPECT_EQ(path, JpegPath::restart_intervals);
    const sdk::JpegBytes bytes(input);
    const auto layout = sdk::find_restart_intervals(bytes, 3);
    ASSERT_TRUE(layout);
    EXPECT_EQ(layout->intervals(), 10u);  // 150 rows of 16-row MCUs
    EXPECT_EQ(layout->intervals_per_strip, 1u);
    EXPECT_EQ(layout->rows_per_strip, 16u);
    EXPECT_TRUE(layout->needs_neighbour_rows);
}

// Segments libjpeg skips (comments, an EXIF-sized APP1) of more than the 64 KiB a piece's source
// reads from a file at a time: every piece is given them and skips them, in memory and from a
// file.
std::vector<std::uint8_t> with_segments_after_soi(const std::vector<std::uint8_t>& jpeg)
{
    std::vector<std::uint8_t> out(jpeg.begin(), jpeg.begin() + 2);
    for (const std::uint8_t marker : {std::uint8_t{0xFE}, std::uint8_t{0xE1}, std::uint8_t{0xFE}}) {
        const std::size_t length = 60000;
        out.insert(out.end(), {0xFF, marker, static_cast<std::uint8_t>(length >> 8),
                               static_cast<std::uint8_t>(length)});
        for (std::size_t i = 2; i < length; ++i) out.push_back(static_cast<std::uint8_t>(i % 251));
    }
    out.insert(out.end(), jpeg.begin() + 2, jpeg.end());
    return out;
}

TEST_F(JpegRestartFiles, LargeHeaderSegmentsGoToEveryPiece)
{
    const auto file =
        with_segments_after_soi(codectest::build_jpeg(noisy_spec(kSamplings[2], 90, 75, 1)));
    const std::vector<std::uint8_t> expected = codectest::decode_jpeg_directly(file);
    JpegPath path = JpegPath::sequential;
    EXPECT_EQ(decode(file, 3, &path).pixels, expected);
    EXPECT_EQ(path, JpegPath::restart_intervals);

    sdk::write_file_atomically(folder_ / "photo.jpg", file.data(), file.size());
    const sdk::InputFile input(folder_ / "photo.jpg");
    JpegDecoding decoding;
    decoding.threads = 3;
    decoding.parallel_from_pixels = 0;
    decoding.path_taken = &path;
    path = JpegPath::sequential;
    EXPECT_EQ(sdk::read_jpeg(input, decoding).pixels, expected);
    EXPECT_EQ(path, JpegPath::restart_intervals);
}

// Files the parallel decoder leaves to the sequential one, decoded as that one decodes them.
TEST(JpegRestartIntervals, OtherFilesDecodeSequentially)
{
    struct Case {
        const char* name;
        JpegSpec spec;
    };
    std::vector<Case> cases;
    cases.push_back({"no restart markers", noisy_spec(kSamplings[1], 64, 64, 0)});
    cases.push_back(
        {"an interval of 3 MCUs on rows of 8: a row and an interval start together only at the top",
         noisy_spec(kSamplings[1], 64, 16, 0)});
    cases.back().spec.restart_mcus = 3;
    cases.push_back({"progressive", noisy_spec(kSamplings[3], 64, 64, 1)});
    cases.back().spec.progressive = true;
    cases.push_back({"one interval", noisy_spec(kSamplings[0], 64, 64, 8)});
    for (const Case& c : cases) {
        SCOPED_TRACE(c.name);
        const auto file = codectest::build_jpeg(c.spec);
        JpegPath path = JpegPath::restart_intervals;
        EXPECT_EQ(decode(file, 4, &path).pixels, codectest::decode_jpeg_directly(file));
        EXPECT_EQ(path, JpegPath::sequential);
        const sdk::JpegBytes bytes(file.data(), file.size());
        EXPECT_FALSE(sdk::find_restart_intervals(bytes, 4));
    }
}

// Only a whole, well-formed file is cut: a truncated one, one whose markers are out of order or
// whose data is damaged gives what the sequential decoder gives (an image libjpeg decoded
// around the damage, or the same one-line refusal), whichever decoder ends up making it.
TEST(JpegRestartIntervals, DamagedFilesAsTheSequentialDecoder)
{
    const auto file = codectest::build_jpeg(noisy_spec(kSamplings[3], 61, 70, 1));
    const sdk::JpegBytes bytes(file.data(), file.size());
    const auto layout = sdk::find_restart_intervals(bytes, 2);
    ASSERT_TRUE(layout);
    ASSERT_EQ(layout->intervals(), 5u);
    const auto same_outcome = [](const std::vector<std::uint8_t>& damaged, JpegPath& path) {
        const std::string expected = outcome(damaged, 1);
        path = JpegPath::sequential;  // left so when the image is refused
        EXPECT_EQ(outcome(damaged, 3, &path), expected);
        return expected;
    };
    JpegPath path = JpegPath::sequential;

    for (const std::size_t size : {layout->entropy_begin + 10, layout->interval_end[2] + 1}) {
        SCOPED_TRACE("truncated to " + std::to_string(size));
        const std::string said =
            same_outcome({file.begin(), file.begin() + static_cast<std::ptrdiff_t>(size)}, path);
        EXPECT_NE(said.find("test.jpg: truncated"), std::string::npos) << said;
        EXPECT_EQ(path, JpegPath::sequential);
    }
    {
        SCOPED_TRACE("only the end marker missing: decoded whole, sequentially");
        EXPECT_EQ(same_outcome({file.begin(), file.end() - 2}, path), outcome(file, 1));
        EXPECT_EQ(path, JpegPath::sequential);
    }
    {
        SCOPED_TRACE("RST1 written as RST5");
        auto damaged = file;
        damaged[layout->interval_end[1] + 1] = 0xD5;
        same_outcome(damaged, path);
        EXPECT_EQ(path, JpegPath::sequential);
    }
    // Every byte of the entropy-coded data in turn, set to values that make a stuffed FF, a
    // marker, or just other bits.
    int sequential = 0, cut = 0;
    for (std::uint64_t at = layout->entropy_begin; at + 2 < file.size(); at += 3)
        for (const int value : {0x00, 0xFF, 0x5A}) {
            auto damaged = file;
            damaged[at] = static_cast<std::uint8_t>(value);
            SCOPED_TRACE("byte " + std::to_string(at) + " set to " + std::to_string(value));
            same_outcome(damaged, path);
            (path == JpegPath::sequential ? sequential : cut) += 1;
        }
    // Both ways were taken: damage the parallel decoder hands back, and damage it decodes itself.
    EXPECT_GT(sequential, 0);
    EXPECT_GT(cut, 0);
}

// The same for a file cut between strips of several intervals (4 MCUs on rows of 6): a marker
// out of order, or any byte of the scan changed, gives what the sequential decoder gives.
TEST(JpegRestartIntervals, DamagedStripsAsTheSequentialDecoder)
{
    JpegSpec spec = noisy_spec(kSamplings[3], 6 * 16 - 3, 7 * 16 - 5, 0);
    spec.restart_mcus = 4;
    const auto file = codectest::build_jpeg(spec);
    const sdk::JpegBytes bytes(file.data(), file.size());
    const auto layout = sdk::find_restart_intervals(bytes, 2);
    ASSERT_TRUE(layout);
    ASSERT_EQ(layout->intervals_per_strip, 3u);
    int sequential = 0, cut = 0;
    const auto same_outcome = [&](const std::vector<std::uint8_t>& damaged) {
        JpegPath path = JpegPath::sequential;
        EXPECT_EQ(outcome(damaged, 3, &path), outcome(damaged, 1));
        (path == JpegPath::sequential ? sequential : cut) += 1;
    };
    for (std::size_t interval = 1; interval < layout->intervals(); ++interval) {
        SCOPED_TRACE("the RST before interval " + std::to_string(interval) +
                     " written as the next one");
        auto damaged = file;
        damaged[layout->interval_end[interval - 1] + 1] =
            static_cast<std::uint8_t>(0xD0 + interval % 8);
        same_outcome(damaged);
    }
    EXPECT_EQ(cut, 0);
    for (std::uint64_t at = layout->entropy_begin; at + 2 < file.size(); at += 13)
        for (const int value : {0x00, 0xFF}) {
            SCOPED_TRACE("byte " + std::to_string(at) + " set to " + std::to_string(value));
            auto damaged = file;
            damaged[at] = static_cast<std::uint8_t>(value);
            same_outcome(damaged);
        }
    EXPECT_GT(cut, 0);
    EXPECT_GT(sequential, 0);
}

}  // namespace
