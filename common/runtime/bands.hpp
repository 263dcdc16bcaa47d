// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sdk {

// [Bands]
// An image too large for one device allocation runs in horizontal bands of whole rows. A band
// computes output rows [first_row, end_row) from input rows [input_first, input_end): its own
// rows plus `halo` rows above and below, clipped to the image. The filter runs on the input rows
// as if they were a whole image, so its border handling is right at the image's real top and
// bottom (no halo is cut there), and the rows it gets wrong, next to a band's cut edges, are
// exactly the halo rows thrown away. Columns are never cut: bands are full width.
// The halo is the filter's radius times its passes: an output pixel depends on input rows at
// most that far away.
struct Band {
    std::size_t first_row = 0;  // the output rows this band writes
    std::size_t end_row = 0;
    std::size_t input_first = 0;  // the input rows it reads, halo included
    std::size_t input_end = 0;

    std::size_t rows() const { return end_row - first_row; }
    std::size_t input_rows() const { return input_end - input_first; }
    // Rows of the band's result above its first output row: the top halo, thrown away.
    std::size_t skipped_rows() const { return first_row - input_first; }
};

// The bands of an image `height` rows tall, top to bottom, each at most `max_rows` output rows
// (at least 1) with `halo` rows either side where the image has them.
std::vector<Band> plan_bands(std::size_t height, std::size_t halo, std::size_t max_rows);
// [Bands]

// A band's output rows of `band_values` (its input rows, `row_elements` apart) copied to their
// place in `whole` (the image's rows, already sized): how the host's copy of a whole image is
// assembled from the bands for --verify, --save-raw and --save-gradients.
template <typename T>
void place_band_rows(const Band& band, const std::vector<T>& band_values, std::size_t row_elements,
                     std::vector<T>& whole)
{
    const auto from =
        band_values.begin() + static_cast<std::ptrdiff_t>(band.skipped_rows() * row_elements);
    std::copy(from, from + static_cast<std::ptrdiff_t>(band.rows() * row_elements),
              whole.begin() + static_cast<std::ptrdiff_t>(band.first_row * row_elements));
}

// What one image row costs the largest buffer a run allocates: its bytes (against the device's
// largest allocation) and the elements its kernels index (against 2^31-1). Each is the largest
// over the run's buffers, so a band within both limits fits every buffer.
struct RowFootprint {
    std::uint64_t bytes = 0;
    std::uint64_t elements = 0;
    // Rows a buffer holds beyond the band's own: a JPEG's coefficients arrive in whole rows of
    // 8-row blocks, so a band's upload covers the blocks its first and last rows lie in.
    std::uint64_t rounding_rows = 0;
};
// The larger of each: a band within the result fits both.
RowFootprint widest(const RowFootprint& a, const RowFootprint& b);

// The most rows whose buffers, their rounding rows added, stay within `max_allocation` bytes
// and 2^31-1 elements.
std::uint64_t rows_that_fit(const RowFootprint& row, std::uint64_t max_allocation);

// How a run is cut: the bands, and why, for the one line a banded run prints.
struct BandPlan {
    std::vector<Band> bands;
    std::size_t max_rows = 0;  // output rows per band, the last band may have fewer
    std::size_t halo = 0;
    std::string reason;  // empty for a whole image in one band

    bool banded() const { return bands.size() > 1; }
};

// The bands for an image of `height` rows whose every row costs `row`: the whole image in one
// band when it fits `max_allocation` and `band_rows` is 0; otherwise bands of at most
// `band_rows` output rows (when not 0) and at most as many as fit, halo included. Throws
// std::runtime_error when not even one output row with its halo fits.
BandPlan choose_bands(std::size_t height, std::size_t halo, const RowFootprint& row,
                      std::uint64_t max_allocation, std::size_t band_rows);

// "Bands: 10 of up to 256 rows (halo 1), because --band-rows 256"
std::string describe(const BandPlan& plan);

}  // namespace sdk
