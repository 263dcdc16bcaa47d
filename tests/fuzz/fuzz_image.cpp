// libFuzzer target for the image readers: BMP (our own decoder), PNG (libpng) and JPEG (libjpeg,
// sequentially and across restart intervals) behind decode_image, which picks one by the first
// bytes. Whatever the bytes, it must either return a consistent image or throw sdk::ImageError;
// every image it returns must go through the rest of the samples' input path (luminance) and
// survive BMP and PNG encode/decode round trips unchanged. Anything else (a sanitizer report,
// another exception escaping, a broken invariant) is a bug. Built twice: with -fsanitize=fuzzer
// by tests/fuzz/CMakeLists.txt, and with replay_main.cpp as the plain fuzz_image_replay test that
// replays tests/fuzz/regressions/ in the main build.
#include "common/imageio/bmp.hpp"
#include "common/imageio/image_file.hpp"
#include "common/imageio/jpeg.hpp"
#include "common/imageio/luminance.hpp"
#include "common/imageio/png.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// abort() rather than an exception or a return code: libFuzzer saves the input as a crash
// artifact, and the replay test fails.
void require(bool holds, const char* invariant)
{
    if (!holds) {
        std::fprintf(stderr, "fuzz_image: invariant broken: %s\n", invariant);
        std::abort();
    }
}

void check_image(const sdk::Image& image)
{
    require(image.channels == 1 || image.channels == 3, "channels is 1 or 3");
    require(image.width > 0 && image.height > 0, "width and height are positive");
    require(image.pixels.size() ==
                image.width * image.height * static_cast<std::size_t>(image.channels),
            "pixels.size() == width * height * channels");
}

// A JPEG decoded on several threads across its restart intervals (jpeg_parallel.hpp), whatever
// its size, must come out exactly as decoded sequentially: the same pixels, or the same refusal.
std::string jpeg_outcome(const std::uint8_t* data, std::size_t size, unsigned threads)
{
    sdk::JpegDecoding decoding;
    decoding.threads = threads;
    decoding.parallel_from_pixels = 0;
    try {
        const sdk::Image image = sdk::decode_jpeg(data, size, "fuzz", decoding);
        return std::to_string(image.width) + "x" + std::to_string(image.height) + "x" +
               std::to_string(image.channels) + ":" + std::string(image.pixels.begin(), image.pixels.end());
    } catch (const sdk::ImageError& error) {
        return error.what();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (sdk::has_jpeg_signature(data, size))
        require(jpeg_outcome(data, size, 3) == jpeg_outcome(data, size, 1),
                "a JPEG decodes across its restart intervals as it does sequentially");

    sdk::Image image;
    try {
        image = sdk::decode_image(data, size, "fuzz");
    } catch (const sdk::ImageError&) {
        return 0;  // rejected with the documented exception: the expected outcome for most inputs
    }
    check_image(image);

    const sdk::Image grey = sdk::to_luminance(image);
    require(grey.channels == 1 && grey.width == image.width && grey.height == image.height &&
                grey.pixels.size() == image.width * image.height,
            "to_luminance gives a 1-channel image of the same size");
    require(image.channels != 1 || grey.pixels == image.pixels,
            "to_luminance leaves a grey image unchanged");

    // Whatever the reader accepts, the writer must write, and reading that back must give the
    // same pixels: a grey image as an 8-bit grey palette, RGB as 24 bit.
    const std::vector<std::uint8_t> encoded = sdk::encode_bmp(image);
    const sdk::Image again = sdk::decode_bmp(encoded.data(), encoded.size(), "fuzz round trip");
    check_image(again);
    require(again.width == image.width && again.height == image.height &&
                again.channels == image.channels && again.pixels == image.pixels,
            "encode_bmp then decode_bmp gives the decoded image back");

    // The same through the PNG writer, which -o edges.png uses.
    const std::vector<std::uint8_t> png = sdk::encode_png(image);
    const sdk::Image from_png = sdk::decode_png(png.data(), png.size(), "fuzz PNG round trip");
    require(from_png.width == image.width && from_png.height == image.height &&
                from_png.channels == image.channels && from_png.pixels == image.pixels,
            "encode_png then decode_png gives the decoded image back");
    return 0;
}
