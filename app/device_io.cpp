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

void load_luminance_on_device(const OpenedImage& image, const OpenClContext& cl, MemoryMode mode,
                              RowConversions& conversions, const cl::Buffer& luminance,
                              std::size_t row_pitch, PipelineTimer& pipeline)
{
    const std::string name = image.file->path().filename().string();
    if (!image.device_convertible()) {
        const Image decoded = pipeline.time("read and decode " + name, image.file->size(), [&] {
            std::vector<std::uint8_t> bytes(static_cast<std::size_t>(image.file->size()));
            image.file->read_at(0, bytes.data(), bytes.size());
            return to_luminance(decode_bmp(bytes.data(), bytes.size(), image.file->path().string()));
        });
        pipeline.time("upload luminance (" + memory_mode_name(mode) + ")", decoded.pixels.size(),
                      [&] {
                          upload_rows(cl, mode, luminance, decoded.pixels.data(), decoded.width,
                                      decoded.height, row_pitch, "the luminance");
                      });
        return;
    }
    const std::size_t bytes = static_cast<std::size_t>(image.layout.stride * image.layout.height);
    const std::string how = " (" + memory_mode_name(mode) + ")";
    // Allocating is a step of its own: pinning host memory costs time on some drivers.
    const auto rows = pipeline.time("allocate file rows" + how, 0, [&] {
        return std::make_unique<StagedBuffer>(cl, mode, CL_MEM_READ_ONLY, bytes, "the file's rows");
    });
    pipeline.time("read " + name, bytes, [&] {
        image.file->read_at(image.layout.pixel_offset, rows->host(), bytes);
    });
    pipeline.time("upload file rows" + how, bytes, [&] { rows->to_device(); });
    pipeline.time("kernel rows to luminance", bytes + row_pitch * image.height(), [&] {
        conversions.to_luminance(rows->device(), image.layout, luminance, row_pitch).wait();
    });
}

void write_bmp_from_device(const std::filesystem::path& output, const cl::Buffer& image,
                           std::size_t width, std::size_t height, std::size_t row_pitch,
                           const OpenClContext& cl, MemoryMode mode, RowConversions& conversions,
                           PipelineTimer& pipeline)
{
    const std::string name = output.filename().string();
    const std::string how = " (" + memory_mode_name(mode) + ")";
    const std::vector<std::uint8_t> header = bmp_grey_header(width, height);
    const std::size_t bytes = bmp_grey_stride(width) * height;
    const auto rows = pipeline.time("allocate " + name + " rows" + how, 0, [&] {
        return std::make_unique<StagedBuffer>(cl, mode, CL_MEM_WRITE_ONLY, bytes,
                                              "the rows of " + name);
    });
    pipeline.time("kernel " + name + " rows", row_pitch * height + bytes, [&] {
        conversions.to_bmp_rows(image, width, height, row_pitch, rows->device()).wait();
    });
    pipeline.time("download " + name + how, bytes, [&] { rows->to_host(); });
    pipeline.time("write " + name, header.size() + bytes, [&] {
        write_file_atomically(output, {{header.data(), header.size()}, {rows->host(), bytes}});
    });
}

}  // namespace sdk
