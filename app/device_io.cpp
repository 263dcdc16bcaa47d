#include "app/device_io.hpp"

#include "imageio/file_io.hpp"
#include "imageio/jpeg.hpp"
#include "imageio/luminance.hpp"
#include "imageio/png.hpp"

#include <string>

namespace sdk {

OpenedImage open_image(const std::filesystem::path& input)
{
    OpenedImage image;
    try {
        image.file = std::make_unique<InputFile>(input);
    } catch (const FileError& error) {
        throw ImageError(error.what());  // one exception type for "this image cannot be loaded"
    }
    const ImageFormat format = detect_image_format(*image.file);
    if (format == ImageFormat::bmp) {
        image.layout = read_bmp_layout(*image.file);
        return image;
    }
    const ImageHeader header = format == ImageFormat::png ? read_png_header(*image.file)
                                                          : read_jpeg_header(*image.file);
    image.layout.width = header.width;
    image.layout.height = header.height;
    image.layout.storage = BmpStorage::other;
    return image;
}

namespace {
// Where a BMP's pixel rows lie in the file.
struct StoredRange {
    std::uint64_t offset;
    std::size_t bytes;
};
}  // namespace

void load_luminance_on_device(const OpenedImage& image, const OpenClContext& cl, MemoryMode mode,
                              RowConversions& conversions, const cl::Buffer& luminance,
                              std::size_t row_pitch, PipelineTimer& pipeline)
{
    const std::string name = image.file->path().filename().string();
    const std::string how = " (" + memory_mode_name(mode) + ")";
    if (!image.device_convertible()) {
        // The file is read in place as the decoder asks for it, so reading is part of decoding.
        const Image decoded =
            pipeline.time("read and decode " + name + " on the host", image.file->size(),
                          [&] { return to_luminance(read_image(*image.file)); });
        pipeline.time("upload luminance" + how, decoded.pixels.size(), [&] {
            upload_rows(cl, mode, luminance, decoded.pixels.data(), decoded.width, decoded.height,
                        row_pitch, "the luminance");
        });
        return;
    }
    // The pixel rows as stored, from the first to the last.
    const StoredRange range{image.layout.pixel_offset,
                            static_cast<std::size_t>(image.layout.stride * image.layout.height)};
    const cl::Buffer rows =
        create_image_buffer(cl, mode, CL_MEM_READ_ONLY, range.bytes, "the file's rows");
    // [File rows to the device]
    pipeline.time("read " + name + " and upload" + how, range.bytes, [&] {
        upload_produced(
            cl, mode, rows, range.bytes,
            [&](unsigned char* host, std::size_t offset, std::size_t size) {
                image.file->read_at(range.offset + offset, host, size);
            },
            "the file's rows");
    });
    pipeline.time("kernel rows to luminance", range.bytes + row_pitch * image.height(), [&] {
        conversions.to_luminance(rows, image.layout, luminance, row_pitch).wait();
    });
    // [File rows to the device]
}

void write_image_from_device(const std::filesystem::path& output, const cl::Buffer& image,
                           std::size_t width, std::size_t height, std::size_t row_pitch,
                           const OpenClContext& cl, MemoryMode mode, RowConversions& conversions,
                           PipelineTimer& pipeline)
{
    const std::string name = output.filename().string();
    if (is_png_path(output)) {
        // PNG's compression runs on the host: the simplest correct way is the image as it is.
        Image downloaded{width, height, 1, std::vector<std::uint8_t>(width * height)};
        pipeline.time("download " + name + " (" + memory_mode_name(mode) + ")",
                      downloaded.pixels.size(), [&] {
                          download_rows(cl, mode, image, downloaded.pixels.data(), width, height,
                                        row_pitch, "the rows of " + name);
                      });
        pipeline.time("compress and write " + name, downloaded.pixels.size(),
                      [&] { write_image(output, downloaded); });
        return;
    }
    const std::vector<std::uint8_t> header = bmp_grey_header(width, height);
    const std::size_t bytes = bmp_grey_stride(width) * height;
    const cl::Buffer rows =
        create_image_buffer(cl, mode, CL_MEM_READ_WRITE, bytes, "the rows of " + name);
    // [Device rows to the file]
    pipeline.time("kernel " + name + " rows", row_pitch * height + bytes, [&] {
        conversions.to_bmp_rows(image, width, height, row_pitch, rows).wait();
    });
    pipeline.time("download and write " + name + " (" + memory_mode_name(mode) + ")",
                  header.size() + bytes, [&] {
                      AtomicFile file(output);
                      file.write(header.data(), header.size());
                      download_bytes(
                          cl, mode, rows, bytes,
                          [&](const unsigned char* data, std::size_t, std::size_t size) {
                              file.write(data, size);
                          },
                          "the rows of " + name);
                      file.commit();
                  });
    // [Device rows to the file]
}

}  // namespace sdk
