#include "app/device_io.hpp"

#include "imageio/file_io.hpp"
#include "imageio/luminance.hpp"

#include <string>

namespace sdk {

namespace {
// Every BMP header, masks and palette included, ends within this many bytes.
constexpr std::size_t kHeaderBytes = 2048;
}  // namespace

OpenedImage open_image(const std::filesystem::path& input)
{
    OpenedImage image;
    try {
        image.file = std::make_unique<InputFile>(input);
        std::vector<std::uint8_t> prefix(kHeaderBytes);
        prefix.resize(image.file->read_prefix(prefix.data(), prefix.size()));
        image.layout = describe_bmp(prefix.data(), prefix.size(), image.file->size(), input.string());
    } catch (const FileError& error) {
        throw ImageError(error.what());  // one exception type for "this image cannot be loaded"
    }
    return image;
}

namespace {

// What is read of the file: the pixel rows as stored, or the whole file where it needs decoding.
struct StoredRange {
    std::uint64_t offset;
    std::size_t bytes;
};
StoredRange stored_range(const OpenedImage& image)
{
    if (!image.device_convertible())
        return {0, static_cast<std::size_t>(image.file->size())};
    return {image.layout.pixel_offset,
            static_cast<std::size_t>(image.layout.stride * image.layout.height)};
}

std::vector<std::uint8_t> read_stored(const InputFile& file, StoredRange range)
{
    std::vector<std::uint8_t> stored(range.bytes);
    try {
        file.read_at(range.offset, stored.data(), range.bytes);
    } catch (const FileError& error) {
        throw ImageError(error.what());
    }
    return stored;
}

}  // namespace

void load_luminance_on_device(const OpenedImage& image, const OpenClContext& cl, MemoryMode mode,
                              RowConversions& conversions, const cl::Buffer& luminance,
                              std::size_t row_pitch, PipelineTimer& pipeline)
{
    const std::string name = image.file->path().filename().string();
    const std::string how = " (" + memory_mode_name(mode) + ")";
    const StoredRange range = stored_range(image);
    if (!image.device_convertible()) {
        const std::vector<std::uint8_t> stored = pipeline.time(
            "read " + name, range.bytes, [&] { return read_stored(*image.file, range); });
        const Image decoded = pipeline.time("decode " + name + " on the host", stored.size(), [&] {
            return to_luminance(decode_bmp(stored.data(), stored.size(), image.file->path().string()));
        });
        pipeline.time("upload luminance" + how, decoded.pixels.size(), [&] {
            upload_rows(cl, mode, luminance, decoded.pixels.data(), decoded.width, decoded.height,
                        row_pitch, "the luminance");
        });
        return;
    }
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

void write_bmp_from_device(const std::filesystem::path& output, const cl::Buffer& image,
                           std::size_t width, std::size_t height, std::size_t row_pitch,
                           const OpenClContext& cl, MemoryMode mode, RowConversions& conversions,
                           PipelineTimer& pipeline)
{
    const std::string name = output.filename().string();
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
