// SPDX-License-Identifier: Apache-2.0
// Writes the fuzzer's seed corpus: small valid BMP files in every layout decode_bmp supports, PNG
// files of every colour type, bit depth and interlacing, and JPEG files (grey, 4:4:4, 4:2:0,
// baseline and progressive), built with the tests' independent writers (tests/common/imageio/
// bmp_builder.hpp, codec_builders.hpp: libpng and libjpeg directly) so the seeds do not share
// the SDK encoder's assumptions. Each seed is decoded before it is written: a seed the reader
// rejects would only waste the fuzzer's time on the error paths it reaches anyway.
// Usage: make_seed_corpus FOLDER (created if missing; existing files of the same name replaced).
#include "common/imageio/bmp.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/image_file.hpp"
#include "tests/common/imageio/bmp_builder.hpp"
#include "tests/common/imageio/codec_builders.hpp"

#include <array>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

constexpr std::uint32_t kBiRgb = 0;
constexpr std::uint32_t kBiBitfields = 3;

enum class Palette { none, grey, colour };

struct Format {
    const char* name;
    std::uint16_t bpp;
    std::uint32_t compression;
    Palette palette;
    std::uint32_t colours_used;  // 0: the full 2^bpp table
    std::array<std::uint32_t, 3> masks;
};

// Every pixel layout the reader accepts, with the channel masks at the limits of what is valid
// (1-bit channels, masks in the top byte, 10-bit channels).
const Format kFormats[] = {
    {"1bit-grey", 1, kBiRgb, Palette::grey, 0, {}},
    {"1bit-colour", 1, kBiRgb, Palette::colour, 0, {}},
    {"4bit-grey", 4, kBiRgb, Palette::grey, 0, {}},
    {"4bit-colour", 4, kBiRgb, Palette::colour, 0, {}},
    {"4bit-colour-6used", 4, kBiRgb, Palette::colour, 6, {}},
    {"8bit-grey", 8, kBiRgb, Palette::grey, 0, {}},
    {"8bit-colour", 8, kBiRgb, Palette::colour, 0, {}},
    {"8bit-grey-20used", 8, kBiRgb, Palette::grey, 20, {}},
    {"16bit-555", 16, kBiRgb, Palette::none, 0, {}},
    {"16bit-bitfields-565", 16, kBiBitfields, Palette::none, 0, {0xF800, 0x07E0, 0x001F}},
    {"16bit-bitfields-444", 16, kBiBitfields, Palette::none, 0, {0x0F00, 0x00F0, 0x000F}},
    {"24bit", 24, kBiRgb, Palette::none, 0, {}},
    {"32bit", 32, kBiRgb, Palette::none, 0, {}},
    {"32bit-bitfields-888", 32, kBiBitfields, Palette::none, 0, {0xFF0000, 0xFF00, 0xFF}},
    {"32bit-bitfields-top", 32, kBiBitfields, Palette::none, 0, {0xFF000000, 0xFF0000, 0xFF00}},
    {"32bit-bitfields-101010",
     32,
     kBiBitfields,
     Palette::none,
     0,
     {0x3FF00000, 0x000FFC00, 0x000003FF}},
    {"32bit-bitfields-1bit", 32, kBiBitfields, Palette::none, 0, {0x4, 0x2, 0x1}},
};

struct Layout {
    std::uint32_t header_size;
    int width;
    int height;
    bool top_down;
    std::size_t gap;  // bytes between the palette and the pixel data
};

std::vector<Layout> layouts()
{
    std::vector<Layout> result;
    // Odd widths leave row padding; 1x1 is the smallest image.
    const std::array<std::array<int, 2>, 3> sizes = {{{1, 1}, {3, 2}, {7, 3}}};
    for (bool top_down : {false, true}) {
        for (const auto& size : sizes) {
            result.push_back({40, size[0], size[1], top_down, 0});
        }
        result.push_back({108, 3, 2, top_down, 0});
        result.push_back({124, 3, 2, top_down, 0});
    }
    result.push_back({40, 5, 2, false, 6});
    return result;
}

std::vector<std::uint32_t> palette_of(const Format& format)
{
    const std::uint32_t count =
        format.colours_used != 0 ? format.colours_used : std::uint32_t{1} << format.bpp;
    std::vector<std::uint32_t> palette;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint32_t level = count == 1 ? 0 : i * 255 / (count - 1);
        palette.push_back(format.palette == Palette::grey
                              ? level * 0x010101u
                              : (level << 16) | ((255 - level) << 8) | ((i * 97) & 0xFF));
    }
    return palette;
}

bmptest::BmpSpec spec_for(const Format& format, const Layout& layout, std::uint32_t seed)
{
    bmptest::BmpSpec spec;
    spec.width = layout.width;
    spec.height = layout.top_down ? -layout.height : layout.height;
    spec.bpp = format.bpp;
    spec.compression = format.compression;
    spec.header_size = layout.header_size;
    spec.masks = format.masks;
    spec.gap = layout.gap;
    if (format.palette != Palette::none) {
        spec.palette = palette_of(format);
        spec.colours_used = format.colours_used;
    }
    std::mt19937 engine(seed);  // fixed seeds: the same corpus on every run
    const auto count =
        static_cast<std::size_t>(layout.width) * static_cast<std::size_t>(layout.height);
    for (std::size_t i = 0; i < count; ++i) {
        const auto value = static_cast<std::uint32_t>(engine());
        if (format.palette != Palette::none) {
            spec.values.push_back(value % static_cast<std::uint32_t>(spec.palette.size()));
        } else if (format.bpp == 16) {
            spec.values.push_back(value & 0xFFFF);
        } else if (format.bpp == 24) {
            spec.values.push_back(value & 0xFFFFFF);
        } else {
            spec.values.push_back(value);
        }
    }
    return spec;
}

std::string file_name(const Format& format, const Layout& layout)
{
    return std::string(format.name) + "-h" + std::to_string(layout.header_size) + "-" +
           (layout.top_down ? "topdown" : "bottomup") + "-" + std::to_string(layout.width) + "x" +
           std::to_string(layout.height) +
           (layout.gap != 0 ? "-gap" + std::to_string(layout.gap) : "") + ".bmp";
}

// A seed of any format, kept only when the reader takes it with the shape it was made with.
bool add_seed(const std::filesystem::path& folder, const std::string& name,
              const std::vector<std::uint8_t>& bytes, std::size_t width, std::size_t height,
              int channels)
{
    const sdk::Image image = sdk::decode_image(bytes.data(), bytes.size(), name);
    if (image.width != width || image.height != height || image.channels != channels) {
        std::cerr << "make_seed_corpus: " << name << " decodes to the wrong shape\n";
        return false;
    }
    sdk::write_file_atomically(folder / name, bytes.data(), bytes.size());
    return true;
}

// PNG seeds: every colour type at every depth it allows, plain and interlaced, 7x5 pixels.
bool add_png_seeds(const std::filesystem::path& folder, std::size_t& written)
{
    const std::pair<int, std::vector<int>> kinds[] = {{PNG_COLOR_TYPE_GRAY, {1, 2, 4, 8, 16}},
                                                      {PNG_COLOR_TYPE_GRAY_ALPHA, {8, 16}},
                                                      {PNG_COLOR_TYPE_RGB, {8, 16}},
                                                      {PNG_COLOR_TYPE_RGB_ALPHA, {8, 16}},
                                                      {PNG_COLOR_TYPE_PALETTE, {1, 2, 4, 8}}};
    std::mt19937 engine(7);
    for (const auto& [colour_type, depths] : kinds) {
        for (const int depth : depths) {
            for (const bool interlaced : {false, true}) {
                codectest::PngSpec spec;
                spec.width = 7;
                spec.height = 5;
                spec.colour_type = colour_type;
                spec.bit_depth = depth;
                spec.interlaced = interlaced;
                const std::size_t count = 7 * 5 * codectest::stored_channels(colour_type);
                for (std::size_t i = 0; i < count; ++i)
                    spec.samples.push_back(static_cast<std::uint16_t>(engine() % (1u << depth)));
                if (colour_type == PNG_COLOR_TYPE_PALETTE)
                    for (int i = 0; i < (1 << depth); ++i)
                        spec.palette.push_back({static_cast<png_byte>(engine()),
                                                static_cast<png_byte>(engine()),
                                                static_cast<png_byte>(engine())});
                const bool grey = (colour_type & PNG_COLOR_MASK_COLOR) == 0;
                const std::string name = "png-type" + std::to_string(colour_type) + "-" +
                                         std::to_string(depth) + "bit" +
                                         (interlaced ? "-interlaced" : "") + ".png";
                if (!add_seed(folder, name, codectest::build_png(spec), 7, 5, grey ? 1 : 3))
                    return false;
                ++written;
            }
        }
    }
    return true;
}

// JPEG seeds: grey, 4:4:4 and 4:2:0 colour, baseline and progressive, 19x11 pixels (partial
// blocks and MCUs); and baseline 19x40 with a restart marker after every MCU row, which the
// parallel decoder cuts into pieces (jpeg_restarts.hpp).
bool add_jpeg_seeds(const std::filesystem::path& folder, std::size_t& written)
{
    struct Kind {
        const char* name;
        int components;
        bool subsampled;
    };
    enum class Coding { baseline, progressive, restarts };
    const Kind kinds[] = {{"grey", 1, false}, {"444", 3, false}, {"420", 3, true}};
    for (const Kind& kind : kinds) {
        for (const Coding coding : {Coding::baseline, Coding::progressive, Coding::restarts}) {
            codectest::JpegSpec spec;
            spec.width = 19;
            spec.height = coding == Coding::restarts ? 40 : 11;
            spec.components = kind.components;
            spec.subsampled = kind.subsampled;
            spec.progressive = coding == Coding::progressive;
            spec.restart_rows = coding == Coding::restarts ? 1 : 0;
            for (int i = 0; i < spec.width * spec.height * kind.components; ++i)
                spec.pixels.push_back(static_cast<std::uint8_t>(i * 7));
            const char* suffix = coding == Coding::progressive ? "-progressive"
                                 : coding == Coding::restarts  ? "-restarts"
                                                               : "";
            const std::string name = std::string("jpeg-") + kind.name + suffix + ".jpg";
            if (!add_seed(folder, name, codectest::build_jpeg(spec), spec.width, spec.height,
                          kind.components))
                return false;
            ++written;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::cerr << "usage: make_seed_corpus FOLDER\n";
        return 2;
    }
    try {
        const std::filesystem::path folder = argv[1];
        std::filesystem::create_directories(folder);
        std::uint32_t seed = 1;
        std::size_t written = 0;
        for (const Format& format : kFormats) {
            for (const Layout& layout : layouts()) {
                const auto bytes = bmptest::build_bmp(spec_for(format, layout, seed++));
                const auto name = file_name(format, layout);
                const sdk::Image image = sdk::decode_bmp(bytes.data(), bytes.size(), name);
                const int channels = format.palette == Palette::grey ? 1 : 3;
                if (image.width != static_cast<std::size_t>(layout.width) ||
                    image.height != static_cast<std::size_t>(layout.height) ||
                    image.channels != channels) {
                    std::cerr << "make_seed_corpus: " << name << " decodes to the wrong shape\n";
                    return 1;
                }
                sdk::write_file_atomically(folder / name, bytes.data(), bytes.size());
                ++written;
            }
        }
        if (!add_png_seeds(folder, written) || !add_jpeg_seeds(folder, written)) return 1;
        std::cout << "make_seed_corpus: wrote " << written << " seeds to " << folder.string()
                  << "\n";
    } catch (const std::exception& error) {
        std::cerr << "make_seed_corpus: " << error.what() << "\n";
        return 1;
    }
    return 0;
}
