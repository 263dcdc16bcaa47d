// SPDX-License-Identifier: Apache-2.0
#include "common/codecs/decoding_ahead.hpp"

#include "common/codecs/jpeg_idct/jpeg_idct_reference.hpp"
#include "common/imageio/image_file.hpp"
#include "common/imageio/temporary_files.hpp"

#include <system_error>
#include <utility>

namespace sdk {

DecodingAhead::DecodingAhead(const InputFile& file, Output output) : file_(file), output_(output)
{
    // The decoding may start before the output set takes the stopping signals: they are taken
    // first, so that the decoding's thread does not take a signal past their clean-up.
    take_stopping_signals();
    try {
        thread_ = std::async(std::launch::async, [this] { decode(); });
    } catch (const std::system_error&) {
        // No thread to be had: rows() decodes on the spot.
    }
}

DecodingAhead::~DecodingAhead()
{
    if (thread_.valid()) thread_.wait();
}

void DecodingAhead::decode()
{
    std::exception_ptr failure;
    // Whether a JPEG can stop at its coefficients is known only once its headers and scans are
    // read, so it is decided here; a file that cannot is read again, to luminance.
    if (output_ == Output::coefficients) {
        try {
            std::optional<JpegLuminanceCoefficients> plane =
                read_jpeg_luminance_coefficients(file_);
            if (plane && idct_exact_for(*plane)) {
                const std::lock_guard<std::mutex> hold(lock_);
                plane_ = std::move(plane);
                finished_ = true;
                progress_.notify_all();
                return;
            }
        } catch (...) {
            failure = std::current_exception();
        }
    }
    if (!failure) {
        {
            const std::lock_guard<std::mutex> hold(lock_);
            luminance_chosen_ = true;
            progress_.notify_all();
        }
        try {
            decode_luminance();
        } catch (...) {
            failure = std::current_exception();
        }
    }
    const std::lock_guard<std::mutex> hold(lock_);
    failure_ = failure;
    finished_ = true;
    progress_.notify_all();
}

void DecodingAhead::decode_luminance()
{
    LuminanceRows rows;
    rows.storage = [this](const ImageHeader& header) {
        // Allocated here, not by the caller: touching every page takes time too.
        image_ = Image{header.width, header.height, 1,
                       std::vector<std::uint8_t>(header.width * header.height)};
        return image_.pixels.data();
    };
    rows.decoded = [this](std::size_t count) {
        const std::lock_guard<std::mutex> hold(lock_);
        decoded_ = count;
        progress_.notify_all();
    };
    read_luminance_rows(file_, rows);
}

const Image& DecodingAhead::rows(std::size_t count)
{
    if (!thread_.valid() && !finished_) decode();
    std::unique_lock<std::mutex> hold(lock_);
    progress_.wait(hold, [&] { return finished_ || (decoded_ != 0 && decoded_ >= count); });
    if (failure_) std::rethrow_exception(failure_);
    return image_;
}

Image DecodingAhead::take()
{
    if (const JpegLuminanceCoefficients* plane = coefficients())
        return luminance_from_coefficients(*plane);
    rows(static_cast<std::size_t>(-1));
    return std::move(image_);
}

void DecodingAhead::wait_until_finished()
{
    std::unique_lock<std::mutex> hold(lock_);
    // Without a thread nothing decodes until asked: there is nothing to wait for.
    if (!thread_.valid()) return;
    progress_.wait(hold, [&] { return finished_; });
}

const JpegLuminanceCoefficients* DecodingAhead::coefficients()
{
    if (output_ != Output::coefficients) return nullptr;
    if (!thread_.valid() && !finished_) decode();
    std::unique_lock<std::mutex> hold(lock_);
    progress_.wait(hold, [&] { return finished_ || luminance_chosen_; });
    if (failure_) std::rethrow_exception(failure_);
    return plane_ ? &*plane_ : nullptr;
}

}  // namespace sdk
