#pragma once
// A file whose pixels the host must decode (PNG, JPEG, and BMPs the device cannot convert as
// stored) starts decoding as soon as it is opened, on a thread of its own, so that the decoding
// runs while the device is found, its context created and its kernels built: on the lent GPU
// machine the context alone took about 100 ms, about what a 12-megapixel JPEG takes to decode.
// The run takes the luminance when its first band needs it, waiting only for what is left.
#include "common/imageio/image.hpp"
#include "common/imageio/input_file.hpp"

#include <future>

namespace sdk {

class DecodingAhead {
public:
    // Starts decoding `file`, which must outlive this object, into 8-bit luminance. Where no
    // thread can be started (a process limit), the decoding waits for take() instead.
    explicit DecodingAhead(const InputFile& file);
    // The luminance, once: waits for the decoding to end, and rethrows its error (ImageError for
    // a damaged file, as a decoding on the spot would throw).
    Image take();

private:
    const InputFile& file_;
    std::future<Image> luminance_;  // waited for by its destructor when never taken
};

}  // namespace sdk
