#include "common/app/decoding_ahead.hpp"

#include "common/imageio/image_file.hpp"
#include "common/imageio/luminance.hpp"

#include <system_error>

namespace sdk {

DecodingAhead::DecodingAhead(const InputFile& file) : file_(file)
{
    try {
        luminance_ = std::async(std::launch::async,
                                [&file = file_] { return read_luminance(file); });
    } catch (const std::system_error&) {
        // No thread to be had: take() decodes on the spot.
    }
}

Image DecodingAhead::take()
{
    if (!luminance_.valid()) return read_luminance(file_);
    return luminance_.get();
}

}  // namespace sdk
