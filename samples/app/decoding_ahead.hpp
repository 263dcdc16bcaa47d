// SPDX-License-Identifier: Apache-2.0
#pragma once
// A file whose pixels the host must decode (PNG, JPEG, and BMPs the device cannot convert as
// stored) starts decoding as soon as it is opened, on a thread of its own, so that the decoding
// runs while the OpenCL driver starts, the device is found, its context created and its kernels
// built (each sample opens its image first of all): on a discrete GPU those take longer than
// a camera photo's decoding (docs/whole_run.md has the numbers).
// The run then takes the rows as they are decoded (rows()), each piece on its way to the device
// while later rows are still being decoded, waiting only for the rows it moves next.
#include "common/imageio/image.hpp"
#include "common/imageio/input_file.hpp"

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <future>
#include <mutex>

namespace sdk {

class DecodingAhead {
public:
    // Starts decoding `file`, which must outlive this object, into 8-bit luminance. Where no
    // thread can be started (a process limit), the decoding waits for the first rows() instead.
    explicit DecodingAhead(const InputFile& file);
    ~DecodingAhead();  // waits for the decoding's thread (a damaged file's error is dropped)
    DecodingAhead(const DecodingAhead&) = delete;
    DecodingAhead& operator=(const DecodingAhead&) = delete;

    // Waits until the image's first `count` rows are decoded (all of them when `count` exceeds
    // the height) and returns the luminance, whose rows from `count` on may still be being
    // written. Rethrows the decoding's error (ImageError for a damaged file, as a decoding on the
    // spot would throw).
    const Image& rows(std::size_t count);
    // The whole luminance, moved out: once, after which rows() must not be called.
    Image take();

private:
    void decode();  // on the thread: fills image_, counting decoded_

    const InputFile& file_;
    Image image_;
    std::mutex lock_;                 // guards the three below
    std::condition_variable progress_;
    std::size_t decoded_ = 0;         // rows of image_ in place
    bool finished_ = false;           // the decoding ended, decoded or failed
    std::exception_ptr failure_;
    std::future<void> thread_;        // invalid: no thread could start
};

}  // namespace sdk
