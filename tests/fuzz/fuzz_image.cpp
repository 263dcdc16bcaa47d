// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the image readers: BMP (our own decoder), PNG (libpng) and JPEG (libjpeg,
// sequentially and across restart intervals) behind decode_image, which picks one by the first
// bytes, and the streaming readers behind read_luminance_rows (rows handed on as decoded), which
// must give read_luminance's pixels or its refusal, and a JPEG's coefficients. Whatever the bytes,
// it must either return a consistent image or throw sdk::ImageError; every image it returns must go
// through the rest of the samples' input path (luminance) and survive BMP and PNG encode/decode
// round trips unchanged. Anything else (a sanitizer report, another exception escaping, a broken
// invariant) is a bug. Built twice: with -fsanitize=fuzzer by tests/fuzz/CMakeLists.txt, and with
// replay_main.cpp as the plain fuzz_image_replay test that replays tests/fuzz/regressions/ in the
// main build.
#include "common/imageio/bmp.hpp"
#include "common/imageio/image_file.hpp"
#include "common/imageio/input_file.hpp"
#include "common/imageio/jpeg.hpp"
#include "common/imageio/luminance.hpp"
#include "common/imageio/png.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

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

// A JPEG decoded on several threads across its restart intervals (jpeg_parallel.hpp), or after
// restart markers were added by speculative decoding in chunks of a few bytes (jpeg_resync.hpp),
// whatever its size, must come out exactly as decoded sequentially: the same pixels, or the same
// refusal.
std::string jpeg_outcome(const std::uint8_t* data, std::size_t size, unsigned threads)
{
    sdk::JpegDecoding decoding;
    decoding.threads = threads;
    decoding.parallel_from_pixels = 0;
    decoding.add_restarts_from_pixels = 0;
    decoding.least_chunk_bytes = 8;
    try {
        const sdk::Image image = sdk::decode_jpeg(data, size, "fuzz", decoding);
        return std::to_string(image.width) + "x" + std::to_string(image.height) + "x" +
               std::to_string(image.channels) + ":" +
               std::string(image.pixels.begin(), image.pixels.end());
    } catch (const sdk::ImageError& error) {
        return error.what();
    }
}

// The luminance as the samples read it, whole (read_luminance) and as it is decoded
// (read_luminance_rows): the same pixels, or the same refusal, with counts that grow to the
// height. The readers take files, so the bytes go into one in memory (memfd).
std::string luminance_outcome(const std::string& path, bool streamed)
{
    try {
        const sdk::InputFile file(path);
        if (!streamed) {
            const sdk::Image grey = sdk::read_luminance(file);
            return std::to_string(grey.width) + "x" + std::to_string(grey.height) + ":" +
                   std::string(grey.pixels.begin(), grey.pixels.end());
        }
        sdk::Image grey;
        std::size_t last = 0;
        sdk::LuminanceRows rows;
        rows.storage = [&](const sdk::ImageHeader& header) {
            require(grey.pixels.empty() && header.channels == 1, "storage is asked once, for grey");
            grey = sdk::Image{header.width, header.height, 1,
                              std::vector<std::uint8_t>(header.width * header.height)};
            return grey.pixels.data();
        };
        rows.decoded = [&](std::size_t count) {
            require(count > last && count <= grey.height, "decoded counts grow up to the height");
            last = count;
        };
        sdk::read_luminance_rows(file, rows);
        require(last == grey.height, "the last count is the height");
        return std::to_string(grey.width) + "x" + std::to_string(grey.height) + ":" +
               std::string(grey.pixels.begin(), grey.pixels.end());
    } catch (const sdk::ImageError& error) {
        return error.what();
    }
}

std::string in_memory_file(const std::uint8_t* data, std::size_t size)
{
    static const int fd = ::memfd_create("fuzz_image", 0);
    require(fd >= 0 && ::ftruncate(fd, 0) == 0 &&
                ::pwrite(fd, data, size, 0) == static_cast<ssize_t>(size),
            "the input fits a memfd");
    return "/proc/self/fd/" + std::to_string(fd);
}

}  // namespace

// The luminance's coefficients (--jpeg-idct device's input): a refusal, no plane, or a plane
// whose blocks cover the image exactly, as the device's IDCT indexes them.
void check_jpeg_coefficients(const std::uint8_t* data, std::size_t size)
{
    try {
        const auto plane = sdk::decode_jpeg_luminance_coefficients(data, size, "fuzz");
        if (!plane) return;
        require(plane->width > 0 && plane->height > 0 &&
                    plane->blocks_wide == (plane->width + 7) / 8 &&
                    plane->blocks_high == (plane->height + 7) / 8 &&
                    plane->coefficients.size() == plane->blocks_wide * plane->blocks_high * 64,
                "a JPEG's coefficient blocks cover its luminance exactly");
    } catch (const sdk::ImageError&) {
    }
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (sdk::has_jpeg_signature(data, size)) {
        require(jpeg_outcome(data, size, 3) == jpeg_outcome(data, size, 1),
                "a JPEG decodes across its restart intervals as it does sequentially");
        check_jpeg_coefficients(data, size);
    }

    const std::string path = in_memory_file(data, size);
    require(luminance_outcome(path, true) == luminance_outcome(path, false),
            "read_luminance_rows gives read_luminance's pixels or its refusal");

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
