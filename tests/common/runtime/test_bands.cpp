// SPDX-License-Identifier: Apache-2.0
// The band plan (common/runtime/bands.hpp): host-only arithmetic, checked against its definition on
// every small case rather than on a few hand-picked ones.
#include "common/runtime/bands.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <stdexcept>
#include <string>

namespace {

// Checks every property a plan must have: the bands cover the output rows once, in order, each
// with at most `max_rows` rows, and read exactly their rows plus `halo` either side, clipped.
void expect_valid_plan(const std::vector<sdk::Band>& bands, std::size_t height, std::size_t halo,
                       std::size_t max_rows)
{
    SCOPED_TRACE("height " + std::to_string(height) + ", halo " + std::to_string(halo) +
                 ", at most " + std::to_string(max_rows));
    ASSERT_FALSE(bands.empty());
    EXPECT_EQ(bands.size(), (height + max_rows - 1) / max_rows);
    std::size_t next = 0;
    for (const sdk::Band& band : bands) {
        EXPECT_EQ(band.first_row, next);
        EXPECT_GT(band.rows(), 0u);
        EXPECT_LE(band.rows(), max_rows);
        EXPECT_EQ(band.input_first, band.first_row >= halo ? band.first_row - halo : 0);
        EXPECT_EQ(band.input_end, std::min(height, band.end_row + halo));
        EXPECT_EQ(band.skipped_rows(), band.first_row - band.input_first);
        EXPECT_EQ(band.input_rows(), band.input_end - band.input_first);
        next = band.end_row;
    }
    EXPECT_EQ(next, height);
}

TEST(BandPlan, EveryHeightHaloAndBandSizeUpTo12)
{
    for (std::size_t height = 1; height <= 12; ++height)
        for (std::size_t halo = 0; halo <= 4; ++halo)
            for (std::size_t max_rows = 1; max_rows <= 14; ++max_rows)
                expect_valid_plan(sdk::plan_bands(height, halo, max_rows), height, halo, max_rows);
}

TEST(BandPlan, OneRowBandsOfAThreeRowImage)
{
    const auto bands = sdk::plan_bands(3, 1, 1);
    ASSERT_EQ(bands.size(), 3u);
    // The halo is clipped at the image's top and bottom: no rows there to read.
    EXPECT_EQ(bands[0].input_first, 0u);
    EXPECT_EQ(bands[0].input_end, 2u);
    EXPECT_EQ(bands[1].input_first, 0u);
    EXPECT_EQ(bands[1].input_end, 3u);
    EXPECT_EQ(bands[2].input_first, 1u);
    EXPECT_EQ(bands[2].input_end, 3u);
}

TEST(BandPlan, BandNotDividingTheHeightLeavesAShortLastBand)
{
    const auto bands = sdk::plan_bands(17, 2, 7);
    ASSERT_EQ(bands.size(), 3u);
    EXPECT_EQ(bands[2].first_row, 14u);
    EXPECT_EQ(bands[2].rows(), 3u);
    EXPECT_EQ(bands[1].input_first, 5u);
    EXPECT_EQ(bands[1].input_end, 16u);
}

TEST(BandPlan, BandTallerThanTheImageIsTheWholeImage)
{
    for (const std::size_t height : {1u, 2u, 3u}) {
        const auto bands = sdk::plan_bands(height, 4, 1000);
        ASSERT_EQ(bands.size(), 1u);
        EXPECT_EQ(bands[0].first_row, 0u);
        EXPECT_EQ(bands[0].end_row, height);
        EXPECT_EQ(bands[0].input_first, 0u);
        EXPECT_EQ(bands[0].input_end, height);
    }
}

TEST(BandPlan, HugeBandRowsDoNotOverflow)
{
    const auto bands = sdk::plan_bands(5, 1, SIZE_MAX);
    ASSERT_EQ(bands.size(), 1u);
    EXPECT_EQ(bands[0].end_row, 5u);
}

TEST(BandPlan, ZeroRowsABandIsRefused)
{
    EXPECT_THROW(sdk::plan_bands(5, 1, 0), std::invalid_argument);
}

// Assembling a whole image from every band's rows, halo left out, gives back the image.
TEST(PlaceBandRows, BandsAssembleTheWholeImage)
{
    for (std::size_t height = 1; height <= 9; ++height)
        for (std::size_t max_rows = 1; max_rows <= 4; ++max_rows) {
            constexpr std::size_t width = 3, halo = 2;
            std::vector<int> image(width * height);
            for (std::size_t i = 0; i < image.size(); ++i) image[i] = static_cast<int>(i);
            std::vector<int> whole(image.size(), -1);
            for (const sdk::Band& band : sdk::plan_bands(height, halo, max_rows)) {
                const std::vector<int> band_values(image.begin() + band.input_first * width,
                                                   image.begin() + band.input_end * width);
                sdk::place_band_rows(band, band_values, width, whole);
            }
            EXPECT_EQ(whole, image) << "height " << height << ", bands of " << max_rows;
        }
}

TEST(RowsThatFit, BytesAndElementsBothLimit)
{
    EXPECT_EQ(sdk::rows_that_fit({100, 100}, 1000), 10u);
    EXPECT_EQ(sdk::rows_that_fit({100, 100}, 999), 9u);
    // Floats: 4 bytes an element; with room for 2^32 bytes the element limit is the one.
    EXPECT_EQ(sdk::rows_that_fit({4096, 1024}, std::uint64_t{1} << 40),
              static_cast<std::uint64_t>(INT_MAX) / 1024);
    const sdk::RowFootprint wide = sdk::widest({10, 2}, {4, 8});
    EXPECT_EQ(wide.bytes, 10u);
    EXPECT_EQ(wide.elements, 8u);
}

// A buffer that rounds a band out (a JPEG's whole blocks) takes its rounding rows from the rows
// that fit; the wider footprint keeps the larger rounding (issue 47, item 3).
TEST(RowsThatFit, RoundingRowsAreCounted)
{
    EXPECT_EQ(sdk::rows_that_fit({100, 100, 14}, 10000), 86u);
    EXPECT_EQ(sdk::rows_that_fit({100, 100, 14}, 1000), 0u);
    EXPECT_EQ(sdk::widest({10, 2, 0}, {4, 8, 14}).rounding_rows, 14u);
}

TEST(ChooseBands, AnImageThatFitsIsOneBandWithNoReason)
{
    const sdk::BandPlan plan = sdk::choose_bands(100, 1, {64, 64}, 6400, 0);
    EXPECT_FALSE(plan.banded());
    ASSERT_EQ(plan.bands.size(), 1u);
    EXPECT_EQ(plan.bands[0].input_rows(), 100u);
    EXPECT_EQ(plan.reason, "");
}

TEST(ChooseBands, TheDeviceLimitCutsBandsThatFitWithTheirHalo)
{
    // 10 rows fit; with a halo of 2 either side, 6 output rows a band.
    const sdk::BandPlan plan = sdk::choose_bands(100, 2, {64, 64}, 640, 0);
    EXPECT_TRUE(plan.banded());
    EXPECT_EQ(plan.max_rows, 6u);
    for (const sdk::Band& band : plan.bands) EXPECT_LE(band.input_rows(), 10u);
    EXPECT_EQ(sdk::describe(plan),
              "Bands: 17 of up to 6 rows (halo 2), because the device allocates at most 640 bytes");
}

TEST(ChooseBands, BandRowsAskForBandsWhenTheImageFits)
{
    const sdk::BandPlan plan = sdk::choose_bands(100, 1, {64, 64}, std::uint64_t{1} << 30, 7);
    EXPECT_EQ(plan.bands.size(), 15u);
    EXPECT_EQ(sdk::describe(plan), "Bands: 15 of up to 7 rows (halo 1), because --band-rows 7");
}

TEST(ChooseBands, TheSmallerOfBandRowsAndTheDeviceLimitWins)
{
    const sdk::BandPlan limited = sdk::choose_bands(100, 1, {1 << 20, 1 << 20}, 12u << 20, 50);
    EXPECT_EQ(limited.max_rows, 10u);
    EXPECT_EQ(limited.reason, "the device allocates at most 12 MiB");
    const sdk::BandPlan asked = sdk::choose_bands(100, 1, {1 << 20, 1 << 20}, 12u << 20, 4);
    EXPECT_EQ(asked.max_rows, 4u);
    EXPECT_EQ(asked.reason, "--band-rows 4");
}

TEST(ChooseBands, BandRowsTallerThanTheImageIsOneBand)
{
    const sdk::BandPlan plan = sdk::choose_bands(5, 1, {64, 64}, 1 << 20, 1000);
    EXPECT_FALSE(plan.banded());
    EXPECT_EQ(plan.bands.size(), 1u);
}

TEST(ChooseBands, NotOneRowWithItsHaloFitsIsRefused)
{
    // 2 rows fit, a band with a halo of 1 needs 3.
    try {
        sdk::choose_bands(100, 1, {64, 64}, 128, 0);
        FAIL() << "expected the image to be refused";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("too wide for the device"), std::string::npos)
            << error.what();
    }
}

}  // namespace
