// SPDX-License-Identifier: Apache-2.0
#pragma once
// Where a decoder puts the rows it decodes: one Image, or the caller's own memory band by band
// (RowBands), each band handed over as soon as all its rows are written, so that the caller can
// move it on (to the device, say) while later rows are still being decoded.
#include "common/imageio/image.hpp"

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <vector>

namespace sdk {

class RowTarget {
public:
    virtual ~RowTarget() = default;
    // Where image row `y` goes (row_bytes bytes). Any thread; each row is asked for once per
    // decoding attempt, and a row is written before rows_written names it.
    virtual std::uint8_t* row(std::size_t y) = 0;
    // Rows [first, first + count) hold their pixels. Any thread.
    virtual void rows_written(std::size_t first, std::size_t count) = 0;
    // Called by the thread that started the decoding, between rows: hands over what is ready.
    virtual void hand_over() {}
    // A decoding attempt failed and the rows will all be written again, by another decoder:
    // rows written so far no longer count.
    virtual void start_again() {}
};

// Every row into one Image, allocated by the caller.
class ImageRows : public RowTarget {
public:
    explicit ImageRows(Image& image) : image_(image) {}
    std::uint8_t* row(std::size_t y) override
    {
        return image_.pixels.data() + y * image_.width * static_cast<std::size_t>(image_.channels);
    }
    void rows_written(std::size_t, std::size_t) override {}

private:
    Image& image_;
};

// The caller's memory, band by band: rows [k * band_rows, (k + 1) * band_rows) form band k (the
// last may be shorter).
struct Bands {
    std::size_t band_rows = 0;  // 0: the whole image is one band
    std::size_t row_pitch = 0;  // bytes from one row to the next; 0: width * channels
    // Where band k's first row goes; asked for every band before decoding starts, on the calling
    // thread.
    std::function<std::uint8_t*(std::size_t first_row, std::size_t rows)> storage;
    // The band's rows are all written: called once per band, on the calling thread, which looks
    // for complete bands between the rows it decodes itself and once more at the end (a parallel
    // decoder completes them out of order, and its other threads' bands wait for a look). An
    // exception it throws leaves through the decoding call; no band is handed over after it.
    std::function<void(std::size_t first_row, std::size_t rows)> ready;
};

class RowBands : public RowTarget {
public:
    RowBands(const Bands& bands, std::size_t width, std::size_t height, int channels);

    std::uint8_t* row(std::size_t y) override;
    void rows_written(std::size_t first, std::size_t count) override;
    void hand_over() override;
    void start_again() override;
    // Hands over what is left, then throws what `ready` threw, if anything.
    void finish();

private:
    const Bands& bands_;
    std::size_t band_rows_ = 0;
    std::size_t height_ = 0;
    std::size_t row_pitch_ = 0;
    std::vector<std::uint8_t*> storage_;
    std::vector<std::uint8_t> scratch_row_;  // for the rows of a band handed over already
    std::mutex mutex_;                       // guards the three below
    std::vector<std::size_t> rows_missing_;  // per band
    std::vector<std::size_t> complete_;      // bands complete, not handed over yet
    std::vector<char> handed_over_;
    std::exception_ptr ready_failed_;
};

}  // namespace sdk
