// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/image_file.hpp"

#include "common/imageio/bmp.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/jpeg.hpp"
#include "common/imageio/luminance.hpp"
#include "common/imageio/png.hpp"

#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

namespace sdk {

namespace {
std::function<void(const std::string&)> input_notes;  // set once, before readers start
}  // namespace

void set_input_notes(std::function<void(const std::string& line)> notes)
{
    input_notes = std::move(notes);
}

void note_about_input(const std::string& line)
{
    if (input_notes) input_notes(line);
}

ImageFormat detect_image_format(const std::uint8_t* prefix, std::size_t size,
                                const std::string& name)
{
    if (prefix && size >= 2 && prefix[0] == 'B' && prefix[1] == 'M') return ImageFormat::bmp;
    if (has_png_signature(prefix, size)) return ImageFormat::png;
    if (has_jpeg_signature(prefix, size)) return ImageFormat::jpeg;
    throw ImageError(name + ": not a BMP, PNG or JPEG file");
}

ImageFormat detect_image_format(const InputFile& file)
{
    std::uint8_t prefix[8];  // the longest signature, PNG's
    std::size_t size = 0;
    try {
        size = file.read_prefix(prefix, sizeof prefix);
    } catch (const FileError& error) {
        throw ImageError(error.what());
    }
    return detect_image_format(prefix, size, file.path().string());
}

Image read_image(const InputFile& file)
{
    switch (detect_image_format(file)) {
        case ImageFormat::png:
            return read_png(file);
        case ImageFormat::jpeg:
            return read_jpeg(file);
        case ImageFormat::bmp:
            break;
    }
    return read_bmp(file);
}

Image read_image_for_luminance(const InputFile& file)
{
    if (detect_image_format(file) != ImageFormat::jpeg) return read_image(file);
    JpegDecoding decoding;
    decoding.luminance_only = true;
    return read_jpeg(file, decoding);
}

Image read_luminance(const InputFile& file)
{
    Image image = read_image_for_luminance(file);
    if (image.channels == 1) return image;
    return to_luminance(image);
}

namespace {

// Rows a decoder makes in the caller's memory, 1 channel: JPEG bands that complete in any order,
// handed on as the run from the first row grows.
// read_luminance's image, handed on whole: for the files whose rows cannot come a few at a time.
void read_whole_luminance_rows(const InputFile& file, const LuminanceRows& rows)
{
    const Image grey = read_luminance(file);
    std::copy(grey.pixels.begin(), grey.pixels.end(),
              rows.storage(ImageHeader{grey.width, grey.height, 1}));
    rows.decoded(grey.height);
}

void read_jpeg_luminance_rows(const InputFile& file, const LuminanceRows& rows)
{
    JpegDecoding decoding;
    decoding.luminance_only = true;
    const ImageHeader header = read_jpeg_header(file, decoding);
    // RGB-coded (no YCbCr): decoded whole, then converted.
    if (header.channels != 1) return read_whole_luminance_rows(file, rows);
    std::uint8_t* const storage = rows.storage(header);
    constexpr std::size_t kBandRows = 64;
    std::vector<char> complete((header.height + kBandRows - 1) / kBandRows, 0);
    std::size_t joined = 0;  // bands complete from the first
    Bands bands;
    bands.band_rows = kBandRows;
    bands.row_pitch = header.width;
    bands.storage = [&](std::size_t first_row, std::size_t) {
        return storage + first_row * header.width;
    };
    bands.ready = [&](std::size_t first_row, std::size_t) {
        complete[first_row / kBandRows] = 1;
        const std::size_t before = joined;
        while (joined < complete.size() && complete[joined]) ++joined;
        if (joined != before) rows.decoded(std::min(joined * kBandRows, header.height));
    };
    read_jpeg_bands(file, bands, decoding);
}

void read_png_luminance_rows(const InputFile& file, const LuminanceRows& rows)
{
    std::uint8_t* storage = nullptr;
    std::size_t width = 0;
    int channels = 1;
    PngRuns runs;
    runs.started = [&](const ImageHeader& header) {
        width = header.width;
        channels = header.channels;
        storage = rows.storage(ImageHeader{header.width, header.height, 1});
    };
    runs.rows = [&](std::size_t first, std::size_t count, const std::uint8_t* pixels) {
        std::uint8_t* grey = storage + first * width;
        if (channels == 1)
            std::copy(pixels, pixels + count * width, grey);
        else
            luminance_row(pixels, grey, count * width);
        rows.decoded(first + count);
    };
    read_png_runs(file, runs);
}

// `read` of the file at `path`, a file that cannot be opened being an ImageError like any other
// image that cannot be loaded.
template <typename Read>
Image read_path(const std::filesystem::path& path, Read read)
{
    try {
        // Only a regular file: /dev/zero or a FIFO is refused before anything is read.
        const InputFile file(path);
        return read(file);
    } catch (const FileError& error) {
        throw ImageError(error.what());
    }
}

}  // namespace

Image read_image(const std::filesystem::path& path)
{
    return read_path(path, [](const InputFile& file) { return read_image(file); });
}

Image read_image_for_luminance(const std::filesystem::path& path)
{
    return read_path(path, [](const InputFile& file) { return read_image_for_luminance(file); });
}

Image decode_image(const std::uint8_t* data, std::size_t size, const std::string& name)
{
    switch (detect_image_format(data, size, name)) {
        case ImageFormat::png:
            return decode_png(data, size, name);
        case ImageFormat::jpeg:
            return decode_jpeg(data, size, name);
        case ImageFormat::bmp:
            break;
    }
    return decode_bmp(data, size, name);
}

bool is_png_path(const std::filesystem::path& path)
{
    std::string extension = path.extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return extension == ".png";
}

void write_image(const std::filesystem::path& path, const Image& image)
{
    if (is_png_path(path))
        write_png(path, image);
    else
        write_bmp(path, image);
}

void read_luminance_rows(const InputFile& file, const LuminanceRows& rows)
{
    switch (detect_image_format(file)) {
        case ImageFormat::jpeg:
            return read_jpeg_luminance_rows(file, rows);
        case ImageFormat::png:
            return read_png_luminance_rows(file, rows);
        case ImageFormat::bmp:
            break;
    }
    read_whole_luminance_rows(file, rows);
}

}  // namespace sdk
