// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/bands.hpp"

#include <algorithm>
#include <climits>
#include <stdexcept>

namespace sdk {

std::vector<Band> plan_bands(std::size_t height, std::size_t halo, std::size_t max_rows)
{
    if (max_rows == 0) throw std::invalid_argument("a band needs at least one row");
    std::vector<Band> bands;
    for (std::size_t first = 0; first < height; first = bands.back().end_row) {
        Band band;
        band.first_row = first;
        band.end_row = first + std::min(max_rows, height - first);
        band.input_first = first - std::min(first, halo);
        band.input_end = band.end_row + std::min(halo, height - band.end_row);
        bands.push_back(band);
    }
    return bands;
}

RowFootprint widest(const RowFootprint& a, const RowFootprint& b)
{
    return {std::max(a.bytes, b.bytes), std::max(a.elements, b.elements),
            std::max(a.rounding_rows, b.rounding_rows)};
}

std::uint64_t rows_that_fit(const RowFootprint& row, std::uint64_t max_allocation)
{
    const std::uint64_t by_bytes = row.bytes ? max_allocation / row.bytes : UINT64_MAX;
    const std::uint64_t by_elements =
        row.elements ? static_cast<std::uint64_t>(INT_MAX) / row.elements : UINT64_MAX;
    const std::uint64_t fit = std::min(by_bytes, by_elements);
    if (fit == UINT64_MAX) return fit;
    return fit > row.rounding_rows ? fit - row.rounding_rows : 0;
}

namespace {
std::string mebibytes(std::uint64_t bytes)
{
    constexpr std::uint64_t mib = 1 << 20;
    if (bytes < mib) return std::to_string(bytes) + " bytes";
    if (bytes % mib == 0) return std::to_string(bytes / mib) + " MiB";
    const std::uint64_t tenths = bytes * 10 / mib;
    return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " MiB";
}
}  // namespace

BandPlan choose_bands(std::size_t height, std::size_t halo, const RowFootprint& row,
                      std::uint64_t max_allocation, std::size_t band_rows)
{
    BandPlan plan;
    plan.halo = halo;
    const std::uint64_t fit = rows_that_fit(row, max_allocation);
    if (band_rows == 0 && fit >= height) {  // today's whole-image run
        plan.max_rows = height;
        plan.bands = plan_bands(height, 0, std::max<std::size_t>(height, 1));
        return plan;
    }
    // A band of R output rows reads at most R + 2 * halo input rows.
    const std::uint64_t fit_output = fit > 2 * std::uint64_t{halo} ? fit - 2 * halo : 0;
    if (fit_output == 0 && fit < height)
        throw std::runtime_error("the image is too wide for the device: one output row with its " +
                                 std::to_string(halo) + "-row halo needs buffers of " +
                                 std::to_string((1 + 2 * halo) * row.bytes) +
                                 " bytes, more than the device allocates (" +
                                 mebibytes(max_allocation) +
                                 ", CL_DEVICE_MAX_MEM_ALLOC_SIZE or SDK_MAX_ALLOC_BYTES)");
    const bool option_limits = band_rows != 0 && (fit >= height || band_rows <= fit_output);
    plan.max_rows = option_limits ? band_rows : static_cast<std::size_t>(fit_output);
    plan.bands =
        plan_bands(height, halo, std::max<std::size_t>(std::min(plan.max_rows, height), 1));
    plan.reason = option_limits ? "--band-rows " + std::to_string(band_rows)
                                : "the device allocates at most " + mebibytes(max_allocation);
    return plan;
}

std::string describe(const BandPlan& plan)
{
    return "Bands: " + std::to_string(plan.bands.size()) + " of up to " +
           std::to_string(plan.max_rows) + " rows (halo " + std::to_string(plan.halo) +
           "), because " + plan.reason;
}

}  // namespace sdk
