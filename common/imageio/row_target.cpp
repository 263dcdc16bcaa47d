// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/row_target.hpp"

#include <algorithm>

namespace sdk {

RowBands::RowBands(const Bands& bands, std::size_t width, std::size_t height, int channels)
    : bands_(bands),
      band_rows_(bands.band_rows != 0 ? std::min(bands.band_rows, height) : height),
      height_(height),
      row_pitch_(bands.row_pitch != 0 ? bands.row_pitch
                                      : width * static_cast<std::size_t>(channels)),
      scratch_row_(width * static_cast<std::size_t>(channels))
{
    const std::size_t count = band_rows_ == 0 ? 0 : (height + band_rows_ - 1) / band_rows_;
    for (std::size_t band = 0; band < count; ++band) {
        const std::size_t first = band * band_rows_;
        storage_.push_back(bands.storage(first, std::min(band_rows_, height - first)));
    }
    handed_over_.assign(count, 0);
    start_again();
}

std::uint8_t* RowBands::row(std::size_t y)
{
    const std::size_t band = y / band_rows_;
    const std::lock_guard<std::mutex> lock(mutex_);
    // A band handed over already is the caller's now: a second attempt's rows for it, the same
    // pixels (restart intervals decode alike either way), go nowhere.
    if (handed_over_[band]) return scratch_row_.data();
    return storage_[band] + (y - band * band_rows_) * row_pitch_;
}

void RowBands::rows_written(std::size_t first, std::size_t count)
{
    const std::lock_guard<std::mutex> lock(mutex_);
    for (std::size_t y = first; y < first + count; ++y) {
        const std::size_t band = y / band_rows_;
        if (handed_over_[band] || rows_missing_[band] == 0) continue;
        if (--rows_missing_[band] == 0) complete_.push_back(band);
    }
}

void RowBands::hand_over()
{
    std::vector<std::size_t> ready;
    {
        const std::lock_guard<std::mutex> lock(mutex_);
        if (ready_failed_) return;
        ready.swap(complete_);
        for (const std::size_t band : ready) handed_over_[band] = 1;
    }
    // Outside the lock: the caller's work may take long, and decoding goes on meanwhile.
    for (const std::size_t band : ready) {
        const std::size_t first = band * band_rows_;
        try {
            bands_.ready(first, std::min(band_rows_, height_ - first));
        } catch (...) {
            const std::lock_guard<std::mutex> lock(mutex_);
            ready_failed_ = std::current_exception();
            return;
        }
    }
}

void RowBands::start_again()
{
    const std::lock_guard<std::mutex> lock(mutex_);
    rows_missing_.assign(handed_over_.size(), 0);
    for (std::size_t band = 0; band < handed_over_.size(); ++band)
        if (!handed_over_[band])
            rows_missing_[band] = std::min(band_rows_, height_ - band * band_rows_);
    complete_.clear();
}

void RowBands::finish()
{
    hand_over();
    const std::lock_guard<std::mutex> lock(mutex_);
    if (ready_failed_) std::rethrow_exception(ready_failed_);
}

}  // namespace sdk
