#include "common/imageio/image_file.hpp"

#include "common/imageio/bmp.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/jpeg.hpp"
#include "common/imageio/luminance.hpp"
#include "common/imageio/png.hpp"

#include <algorithm>
#include <cctype>

namespace sdk {

ImageFormat detect_image_format(const std::uint8_t* prefix, std::size_t size, const std::string& name)
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

}  // namespace sdk
