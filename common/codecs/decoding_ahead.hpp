// SPDX-License-Identifier: Apache-2.0
#pragma once
// A file whose pixels the host must decode (PNG, JPEG, and BMPs the device cannot convert as
// stored) starts decoding as soon as it is opened, on a thread of its own, so that the decoding
// runs while the OpenCL driver starts, the device is found, its context created and its kernels
// built (each sample opens its image first of all): on a discrete GPU those take longer than
// a camera photo's decoding (docs/whole_run.md has the numbers).
// The run then takes the rows as they are decoded (rows()), each piece on its way to the device
// while later rows are still being decoded, waiting only for the rows it moves next.
// A JPEG can instead stop at its coefficients (Output::coefficients): the entropy decoding on the
// host, the inverse DCT then on the device (common/codecs/jpeg_idct/, --jpeg-idct).
#include "common/imageio/image.hpp"
#include "common/imageio/input_file.hpp"
#include "common/imageio/jpeg.hpp"

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <future>
#include <mutex>
#include <optional>

namespace sdk {

class DecodingAhead {
public:
    // Starts decoding `file`, which must outlive this object, into 8-bit luminance. Where no
    // thread can be started (a process limit), the decoding waits for the first rows() instead.
    // With Output::coefficients, a JPEG whose luminance is one plane's inverse DCT is only
    // entropy-decoded (coefficients()); any other file, and a JPEG whose coefficients the
    // device's IDCT does not reproduce exactly (idct_exact_for), is decoded to luminance.
    enum class Output { luminance, coefficients };
    explicit DecodingAhead(const InputFile& file, Output output = Output::luminance);
    ~DecodingAhead();  // waits for the decoding's thread (a damaged file's error is dropped)
    DecodingAhead(const DecodingAhead&) = delete;
    DecodingAhead& operator=(const DecodingAhead&) = delete;

    // Waits until the image's first `count` rows are decoded (all of them when `count` exceeds
    // the height) and returns the luminance, whose rows from `count` on may still be being
    // written. Rethrows the decoding's error (ImageError for a damaged file, as a decoding on the
    // spot would throw).
    const Image& rows(std::size_t count);
    // The whole luminance, moved out: once, after which rows() must not be called. From
    // coefficients, the C++ reference's IDCT makes it (the pixels libjpeg gives).
    Image take();

    // Waits until the decoding has ended, decoded or failed (its error kept for rows(), take()
    // and coefficients()): a measurement then has the cores to itself.
    void wait_until_finished();

    // Whether this decoding was asked for coefficients (Output::coefficients).
    bool wants_coefficients() const { return output_ == Output::coefficients; }
    // Waits until the file is entropy-decoded, or known to need decoding to luminance: the
    // luminance plane's coefficients, or null when the luminance comes from rows() instead.
    // Rethrows the decoding's error, as rows() does.
    const JpegLuminanceCoefficients* coefficients();

private:
    void decode();  // on the thread: fills plane_ or image_, counting decoded_
    void decode_luminance();

    const InputFile& file_;
    const Output output_;
    std::optional<JpegLuminanceCoefficients> plane_;
    Image image_;
    std::mutex lock_;  // guards the three below
    std::condition_variable progress_;
    std::size_t decoded_ = 0;        // rows of image_ in place
    bool finished_ = false;          // the decoding ended, decoded or failed
    bool luminance_chosen_ = false;  // the file is being decoded to luminance (not plane_)
    std::exception_ptr failure_;
    std::future<void> thread_;  // invalid: no thread could start
};

}  // namespace sdk
