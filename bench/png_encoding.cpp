// SPDX-License-Identifier: Apache-2.0
#include "png_encoding.hpp"

#include "samples/app/common_options.hpp"
#include "common/imageio/bmp.hpp"
#include "common/imageio/png.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

namespace sdk::bench {

// The bundled photograph scaled up (bilinear) with a little sensor-like noise (-3..3, peaked at
// 0): smooth regions and edges as a camera's picture has, and no exact repeats, which a tiled
// image would offer the compressor for free.
Image photo_like_image(Size size, int channels)
{
    const Image photo = read_bmp(default_input_image());  // RGB
    Image image{size.width, size.height, channels,
                std::vector<std::uint8_t>(size.pixels() * static_cast<std::size_t>(channels))};
    const auto scale = [](std::size_t from, std::size_t to) {
        return static_cast<float>(from - 1) / static_cast<float>(std::max<std::size_t>(1, to - 1));
    };
    const float scale_x = scale(photo.width, size.width);
    const float scale_y = scale(photo.height, size.height);
    std::uint32_t random = 2463534242u;  // xorshift32: fast enough for 2^28 pixels
    std::uint8_t* out = image.pixels.data();
    for (std::size_t y = 0; y < size.height; ++y) {
        const float source_y = static_cast<float>(y) * scale_y;
        const std::size_t y0 = static_cast<std::size_t>(source_y);
        const std::size_t y1 = std::min(y0 + 1, photo.height - 1);
        const float fy = source_y - static_cast<float>(y0);
        for (std::size_t x = 0; x < size.width; ++x) {
            const float source_x = static_cast<float>(x) * scale_x;
            const std::size_t x0 = static_cast<std::size_t>(source_x);
            const std::size_t x1 = std::min(x0 + 1, photo.width - 1);
            const float fx = source_x - static_cast<float>(x0);
            float rgb[3];
            for (int c = 0; c < 3; ++c) {
                const auto at = [&](std::size_t px, std::size_t py) {
                    return static_cast<float>(photo.pixels[(py * photo.width + px) * 3 + c]);
                };
                rgb[c] = (at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy) +
                         (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy;
            }
            const float grey = 0.299f * rgb[0] + 0.587f * rgb[1] + 0.114f * rgb[2];
            for (int c = 0; c < channels; ++c) {
                random ^= random << 13;
                random ^= random >> 17;
                random ^= random << 5;
                const int noise =
                    static_cast<int>(random & 3) + static_cast<int>((random >> 2) & 3) - 3;
                const float value = (channels == 1 ? grey : rgb[c]) + static_cast<float>(noise);
                *out++ = static_cast<std::uint8_t>(std::clamp(value + 0.5f, 0.0f, 255.0f));
            }
        }
    }
    return image;
}

namespace {

void time_png_encoding(benchmark::State& state, Size size, int channels)
{
    guarded(state, [&] {
        const std::string key = "photo-like " + size_name(size) + "x" + std::to_string(channels);
        const Image& image = reuse_setup<Image>(
            key, [&] { return std::make_shared<Image>(photo_like_image(size, channels)); });
        std::size_t png_bytes = 0;
        const Samples samples = time_real(state, [&] { png_bytes = encode_png(image).size(); });
        set_counters(state, samples, size.pixels(), image.pixels.size());
        state.counters["ratio"] =
            static_cast<double>(png_bytes) / static_cast<double>(image.pixels.size());
    });
}

}  // namespace

void register_png_encoding(Size size)
{
    for (const int channels : {1, 3}) {
        const std::string name =
            std::string("encode/png/") + (channels == 1 ? "grey/" : "rgb/") + size_name(size);
        benchmark::RegisterBenchmark(name.c_str(), time_png_encoding, size, channels)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
}

}  // namespace sdk::bench
