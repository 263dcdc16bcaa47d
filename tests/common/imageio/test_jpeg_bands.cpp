// SPDX-License-Identifier: Apache-2.0
// Decoding a JPEG into the caller's memory band by band (common/imageio/row_target, jpeg):
// every band handed over once, as soon as its rows are written and before later rows are, with
// the pixels of a whole decode, sequentially and across restart intervals, also when the
// parallel attempt fails half way and the sequential decoder finishes the job.
#include "codec_builders.hpp"
#include "imageio_test_support.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/input_file.hpp"
#include "common/imageio/jpeg.hpp"
#include "common/imageio/jpeg_restarts.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using sdk::JpegPath;

constexpr std::uint8_t kPoison = 0xA5;

std::vector<std::uint8_t> noisy_jpeg(int width, int height, int restart_rows)
{
    codectest::JpegSpec spec;
    spec.width = width;
    spec.height = height;
    spec.subsampled = true;
    spec.restart_rows = restart_rows;
    std::uint32_t random = 88172645u;
    for (int i = 0; i < width * height * 3; ++i) {
        random ^= random << 13;
        random ^= random >> 17;
        random ^= random << 5;
        spec.pixels.push_back(static_cast<std::uint8_t>(i / 7 + random % 40));
    }
    return codectest::build_jpeg(spec);
}

// The caller's side: each band in its own block of memory, rows a pitch apart with padding
// after each, all poisoned; and what was handed over, in order.
struct BandStore {
    std::size_t width = 0, height = 0, band_rows = 0, pitch = 0;
    std::vector<std::vector<std::uint8_t>> blocks;  // per band
    std::vector<std::size_t> ready;                 // first rows, in the order handed over
    std::string broken;                             // the first broken expectation

    sdk::Bands bands()
    {
        sdk::Bands bands;
        bands.band_rows = band_rows;
        bands.row_pitch = pitch;
        bands.storage = [this](std::size_t first, std::size_t rows) {
            if (first != blocks.size() * band_rows) broken = "storage asked for out of order";
            blocks.emplace_back(rows * pitch, kPoison);
            return blocks.back().data();
        };
        bands.ready = [this](std::size_t first, std::size_t rows) {
            if (rows != std::min(band_rows, height - first)) broken = "wrong row count";
            ready.push_back(first);
        };
        return bands;
    }
    bool written(std::size_t band) const
    {
        return blocks[band][0] != kPoison || blocks[band][1] != kPoison ||
               blocks[band][2] != kPoison;
    }
    // The bands' rows side by side, without padding; checks the padding is still poison.
    std::vector<std::uint8_t> pixels()
    {
        std::vector<std::uint8_t> out;
        for (std::size_t y = 0; y < height; ++y) {
            const std::uint8_t* row = blocks[y / band_rows].data() + (y % band_rows) * pitch;
            out.insert(out.end(), row, row + width * 3);
            if (std::any_of(row + width * 3, row + pitch,
                            [](std::uint8_t b) { return b != kPoison; }))
                broken = "padding written in row " + std::to_string(y);
        }
        return out;
    }
};

void expect_each_band_once(const BandStore& store)
{
    std::vector<std::size_t> sorted = store.ready;
    std::sort(sorted.begin(), sorted.end());
    std::vector<std::size_t> expected;
    for (std::size_t first = 0; first < store.height; first += store.band_rows)
        expected.push_back(first);
    EXPECT_EQ(sorted, expected);
}

sdk::JpegDecoding parallel(unsigned threads, JpegPath* path)
{
    sdk::JpegDecoding decoding;
    decoding.threads = threads;
    decoding.parallel_from_pixels = 0;
    decoding.path_taken = path;
    return decoding;
}

TEST(JpegBands, EveryBandOnceWithTheWholeDecodesPixels)
{
    const auto file = noisy_jpeg(45, 203, 1);
    const std::vector<std::uint8_t> expected = codectest::decode_jpeg_directly(file);
    for (const unsigned threads : {1u, 2u, 5u})
        for (const std::size_t band_rows :
             {std::size_t{1}, std::size_t{7}, std::size_t{16}, std::size_t{500}}) {
            SCOPED_TRACE(std::to_string(threads) + " threads, bands of " +
                         std::to_string(band_rows));
            BandStore store{45, 203, band_rows, 45 * 3 + 5, {}, {}, {}};
            JpegPath path = JpegPath::sequential;
            sdk::decode_jpeg_bands(file.data(), file.size(), "test.jpg", store.bands(),
                                   parallel(threads, &path));
            EXPECT_EQ(path, threads == 1 ? JpegPath::sequential : JpegPath::restart_intervals);
            expect_each_band_once(store);
            EXPECT_EQ(store.pixels(), expected);
            EXPECT_EQ(store.broken, "");
        }
}

// A band is handed over before the rows after it are written: on one thread the bands come in
// order, each before the next is touched; across restart intervals the calling thread hands
// over its own piece's top band before that piece's later bands are written.
TEST(JpegBands, HandedOverBeforeLaterRowsAreDecoded)
{
    const auto file = noisy_jpeg(64, 320, 1);
    for (const unsigned threads : {1u, 2u}) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        BandStore store{64, 320, 16, 64 * 3, {}, {}, {}};
        sdk::Bands bands = store.bands();
        bool next_untouched_at_first_band = false;
        const auto record = bands.ready;
        bands.ready = [&](std::size_t first, std::size_t rows) {
            if (first == 0) next_untouched_at_first_band = !store.written(2);
            record(first, rows);
        };
        sdk::decode_jpeg_bands(file.data(), file.size(), "test.jpg", bands,
                               parallel(threads, nullptr));
        EXPECT_TRUE(next_untouched_at_first_band);
        if (threads == 1) {
            std::vector<std::size_t> in_order(store.ready);
            std::sort(in_order.begin(), in_order.end());
            EXPECT_EQ(store.ready, in_order);
        }
    }
}

TEST(JpegBands, WhatReadyThrowsLeavesTheDecoding)
{
    const auto file = noisy_jpeg(40, 120, 1);
    for (const unsigned threads : {1u, 3u}) {
        BandStore store{40, 120, 8, 40 * 3, {}, {}, {}};
        sdk::Bands bands = store.bands();
        int calls = 0;
        bands.ready = [&](std::size_t, std::size_t) {
            ++calls;
            throw std::runtime_error("device lost");
        };
        try {
            sdk::decode_jpeg_bands(file.data(), file.size(), "test.jpg", bands,
                                   parallel(threads, nullptr));
            ADD_FAILURE() << "no exception";
        } catch (const std::runtime_error& error) {
            EXPECT_EQ(std::string(error.what()), "device lost");
        }
        EXPECT_EQ(calls, 1);  // nothing handed over after it
    }
}

// Damage in the last piece that libjpeg warns about but decodes whole: the parallel attempt fails,
// and the sequential decoder that takes over finishes, each band handed over once.
TEST(JpegBands, AParallelAttemptThatFailsIsFinishedSequentially)
{
    const auto file = noisy_jpeg(48, 256, 1);
    const sdk::JpegBytes bytes(file.data(), file.size());
    const auto layout = sdk::find_restart_intervals(bytes, 2);
    ASSERT_TRUE(layout);
    int checked = 0;
    for (std::uint64_t at = layout->interval_begin[14];
         at < layout->interval_end[14] && checked < 3; ++at) {
        auto damaged = file;
        damaged[at] = 0xFF;  // a stray FF followed by data: libjpeg warns and skips
        JpegPath path = JpegPath::restart_intervals;
        BandStore store{48, 256, 16, 48 * 3, {}, {}, {}};
        try {
            sdk::decode_jpeg_bands(damaged.data(), damaged.size(), "test.jpg", store.bands(),
                                   parallel(2, &path));
        } catch (const sdk::ImageError&) {
            continue;
        }
        if (path != JpegPath::sequential) continue;
        SCOPED_TRACE("FF at byte " + std::to_string(at));
        ++checked;
        expect_each_band_once(store);
        EXPECT_EQ(store.pixels(), codectest::decode_jpeg_directly(damaged));
        EXPECT_EQ(store.broken, "");
        // Which band comes first is a race between the pieces' threads: damage that loses data
        // is refused now (a piece stops at it), and what the sequential decoder still takes
        // here is damage that leaves the pixels whole (bytes skipped before a marker).
    }
    EXPECT_EQ(checked, 3);
}

using JpegBandFiles = decodetest::FolderTest;

TEST_F(JpegBandFiles, FromAFileReadInPlace)
{
    const auto file = noisy_jpeg(70, 90, 2);
    sdk::write_file_atomically(folder_ / "photo.jpg", file.data(), file.size());
    const sdk::InputFile input(folder_ / "photo.jpg");
    for (const unsigned threads : {1u, 3u}) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        BandStore store{70, 90, 32, 70 * 3 + 1, {}, {}, {}};
        JpegPath path = JpegPath::sequential;
        sdk::read_jpeg_bands(input, store.bands(), parallel(threads, &path));
        EXPECT_EQ(path, threads == 1 ? JpegPath::sequential : JpegPath::restart_intervals);
        expect_each_band_once(store);
        EXPECT_EQ(store.pixels(), codectest::decode_jpeg_directly(file));
        EXPECT_EQ(store.broken, "");
    }
}

}  // namespace
