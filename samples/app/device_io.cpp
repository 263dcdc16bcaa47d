// SPDX-License-Identifier: Apache-2.0
#include "samples/app/device_io.hpp"

#include "common/imageio/file_io.hpp"
#include "common/runtime/errors.hpp"
#include "common/imageio/jpeg.hpp"
#include "common/imageio/luminance.hpp"
#include "common/imageio/png.hpp"
#include "samples/app/sample_io.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace sdk {

OpenedImage open_image(const std::filesystem::path& input, Decoding decoding,
                       bool jpeg_idct_on_device)
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
    } else {
        const ImageHeader header = format == ImageFormat::png ? read_png_header(*image.file)
                                                              : read_jpeg_header(*image.file);
        image.layout.width = header.width;
        image.layout.height = header.height;
        image.layout.storage = BmpStorage::other;
    }
    if (decoding == Decoding::ahead && !image.device_convertible())
        image.decoding = std::make_shared<DecodingAhead>(
            *image.file, format == ImageFormat::jpeg && jpeg_idct_on_device
                             ? DecodingAhead::Output::coefficients
                             : DecodingAhead::Output::luminance);
    return image;
}

Image host_luminance(const OpenedImage& image, PipelineTimer& pipeline)
{
    const std::string name = image.file->path().filename().string();
    if (image.decoding)
        return pipeline.time("wait for decoding " + name, 0,
                             [&] { return image.decoding->take(); });
    return load_luminance(image.file->path(), &pipeline);
}

RowFootprint file_row_footprint(const OpenedImage& image)
{
    const std::uint64_t output_row = bmp_grey_stride(image.width());
    const std::uint64_t stored_row = image.device_convertible() ? image.layout.stride : 0;
    const RowFootprint file_rows = widest({output_row, output_row}, {stored_row, stored_row});
    if (image.decoding && image.decoding->wants_coefficients())
        return widest(file_rows, JpegIdctFilter::row_footprint(image.width()));
    return file_rows;
}

BandPlan plan_device_bands(const OpenedImage& image, const OpenClContext& cl, std::size_t halo,
                           const RowFootprint& filter_row, std::size_t band_rows)
{
    return choose_bands(image.height(), halo, widest(filter_row, file_row_footprint(image)),
                        cl.max_allocation_bytes(), band_rows);
}

void refuse_with_bands(const BandPlan& plan, std::initializer_list<WholeImageOption> options)
{
    if (!plan.banded()) return;
    for (const WholeImageOption& option : options)
        if (option.given)
            throw UsageError(std::string(option.name) +
                             " needs the whole image on the device at once, and this run is "
                             "cut into bands (" +
                             describe(plan) + ")");
}

namespace {
// Rows decoded ahead move to the device this many at a time: few enough that the copy follows
// close behind the decoder, enough that waiting for them costs nothing next to decoding them.
constexpr std::size_t kRowsAtATime = 64;

// Where a BMP's pixel rows lie in the file.
struct StoredRange {
    std::uint64_t offset;
    std::size_t bytes;
};
}  // namespace

const cl::Buffer& DeviceRows::at_least(const OpenClContext& cl, MemoryMode mode,
                                       cl_mem_flags access, std::size_t bytes,
                                       const std::string& what)
{
    if (bytes > bytes_) {
        buffer_ = create_image_buffer(cl, mode, access, bytes, what);
        bytes_ = bytes;
    }
    return buffer_;
}

BandReader::BandReader(const OpenedImage& image, const OpenClContext& cl, MemoryMode mode,
                       RowConversions& conversions)
    : image_(image), cl_(cl), mode_(mode), conversions_(conversions)
{
}

void BandReader::load_luminance(const Band& band, const cl::Buffer& luminance,
                                std::size_t row_pitch, PipelineTimer& pipeline)
{
    const OpenedImage& image = image_;
    const std::string name = image.file->path().filename().string();
    const std::string how = " (" + memory_mode_name(mode_) + ")";
    const std::size_t width = image.width();
    if (image.decoding && image.decoding->wants_coefficients()) {
        // [Luminance from coefficients]
        // The entropy decoding ran on the host since the file was opened; the device dequantises
        // and runs the inverse DCT of the band's blocks, writing the luminance itself.
        const JpegLuminanceCoefficients* plane = pipeline.time(
            "wait for coefficients " + name, 0, [&] { return image.decoding->coefficients(); });
        if (plane) {
            if (!idct_)
                idct_ = pipeline.time("build kernel jpeg_idct", 0,
                                      [&] { return std::make_unique<JpegIdctFilter>(cl_, mode_); });
            const std::size_t blocks_bytes =
                JpegIdctFilter::coefficient_bytes(*plane, band.input_first, band.input_rows());
            pipeline.time("upload coefficients" + how, blocks_bytes,
                          [&] { idct_->upload(*plane, band.input_first, band.input_rows()); });
            pipeline.time("kernel jpeg_idct_luminance",
                          blocks_bytes + row_pitch * band.input_rows(),
                          [&] { idct_->run(row_pitch, luminance).wait(); });
            return;
        }
        // [Luminance from coefficients]
        // Else the file is being decoded to luminance: its rows as below.
    }
    if (!image.device_convertible() && image.decoding) {
        // [Rows as they are decoded]
        // Decoding ahead, since the file was opened: each piece of the band's rows goes into
        // the memory the transfer moves as soon as the decoder has written it, while later
        // rows are still being decoded.
        // The transfer's staging memory is shared by the photos of a batch in flight: it is
        // taken once the rows a chunk holds are decoded, not held while they are decoded.
        const auto start = std::chrono::steady_clock::now();
        image.decoding->rows(band.input_first +
                             std::min(band.input_rows(), rows_in_a_pinned_chunk(row_pitch)));
        std::chrono::steady_clock::duration waited = std::chrono::steady_clock::now() - start;
        upload_rows_produced(
            cl_, mode_, luminance, band.input_rows(), row_pitch,
            [&](std::size_t first, std::size_t rows, unsigned char* host) {
                for (std::size_t done = 0; done < rows;) {
                    const std::size_t piece = std::min(kRowsAtATime, rows - done);
                    const std::size_t end = band.input_first + first + done + piece;
                    const auto asked = std::chrono::steady_clock::now();
                    const Image& decoded = image.decoding->rows(end);
                    waited += std::chrono::steady_clock::now() - asked;
                    lay_out_rows(host + done * row_pitch,
                                 decoded.pixels.data() + (end - piece) * width, width, piece,
                                 row_pitch);
                    done += piece;
                }
            },
            "the luminance");
        // The two alternated; the table and the trace show all the waiting first, then the rest.
        const auto end = std::chrono::steady_clock::now();
        pipeline.add("wait for decoding " + name, 0, start, start + waited);
        pipeline.add("upload luminance" + how, width * band.input_rows(), start + waited, end);
        // [Rows as they are decoded]
        return;
    }
    if (!image.device_convertible()) {
        // The file is read in place as the decoder asks for it, so reading is part of decoding.
        if (!decoded_)
            decoded_ = pipeline.time("read and decode " + name + " on the host", image.file->size(),
                                     [&] { return read_luminance(*image.file); });
        pipeline.time("upload luminance" + how, width * band.input_rows(), [&] {
            upload_rows(cl_, mode_, luminance, decoded_->pixels.data() + width * band.input_first,
                        width, band.input_rows(), row_pitch, "the luminance");
        });
        return;
    }
    // The band's rows as stored, from the first to the last: a bottom-up file stores the
    // image's last rows first, so the band's rows start that far from the end.
    BmpLayout layout = image.layout;
    layout.height = band.input_rows();
    const std::size_t first_stored =
        layout.top_down ? band.input_first : image.height() - band.input_end;
    layout.pixel_offset += layout.stride * first_stored;
    const StoredRange range{layout.pixel_offset,
                            static_cast<std::size_t>(layout.stride * layout.height)};
    const cl::Buffer& rows =
        stored_rows_.at_least(cl_, mode_, CL_MEM_READ_ONLY, range.bytes, "the file's rows");
    // [File rows to the device]
    pipeline.time("read " + name + " and upload" + how, range.bytes, [&] {
        upload_produced(
            cl_, mode_, rows, range.bytes,
            [&](unsigned char* host, std::size_t offset, std::size_t size) {
                image.file->read_at(range.offset + offset, host, size);
            },
            "the file's rows");
    });
    pipeline.time("kernel rows to luminance", range.bytes + row_pitch * layout.height,
                  [&] { conversions_.to_luminance(rows, layout, luminance, row_pitch).wait(); });
    // [File rows to the device]
}

BandWriter::BandWriter(const std::filesystem::path& output, std::size_t width, std::size_t height,
                       const OpenClContext& cl, MemoryMode mode, RowConversions& conversions,
                       std::future<std::vector<std::uint8_t>> png_pixels)
    : output_(output),
      name_(output.filename().string()),
      width_(width),
      height_(height),
      cl_(cl),
      mode_(mode),
      conversions_(conversions),
      next_end_row_(height)
{
    if (is_png_path(output)) {
        // PNG's compression runs on the host: the simplest correct way is the whole image.
        assembled_ = Image{
            width, height, 1,
            png_pixels.valid() ? png_pixels.get() : std::vector<std::uint8_t>(width * height)};
        if (assembled_.pixels.size() != width * height)
            throw std::logic_error("BandWriter: the PNG's pixels are not the image's size");
        return;
    }
    const std::vector<std::uint8_t> header = bmp_grey_header(width, height);
    file_ = std::make_unique<AtomicFile>(output);
    file_->write(header.data(), header.size());
}

BandWriter::~BandWriter() = default;

std::vector<Band> BandWriter::in_file_order(std::vector<Band> bands) const
{
    if (file_) std::reverse(bands.begin(), bands.end());  // bmp_grey_header: bottom-up
    return bands;
}

void BandWriter::write(const Band& band, const cl::Buffer& result, std::size_t row_pitch,
                       PipelineTimer& pipeline)
{
    const std::string how = " (" + memory_mode_name(mode_) + ")";
    // A band's output rows alone, from offset 0: a copy on the device when its halo is cut off
    // (one band of the whole image is the result itself).
    cl::Buffer image = result;
    if (band.rows() != band.input_rows()) {
        const std::size_t bytes = row_pitch * band.rows();
        image = band_rows_.at_least(cl_, mode_, CL_MEM_READ_WRITE, bytes, "a band's rows");
        pipeline.time("copy the band's rows", 2 * bytes, [&] {
            while_doing("copying a band's rows", [&] {
                cl::Event copied;
                cl_.queue.enqueueCopyBuffer(result, image, row_pitch * band.skipped_rows(), 0,
                                            bytes, nullptr, &copied);
                copied.wait();
            });
        });
    }
    const std::size_t width = width_;
    const std::size_t height = band.rows();
    if (!file_) {
        pipeline.time("download " + name_ + how, width * height, [&] {
            download_rows(cl_, mode_, image, assembled_.pixels.data() + width * band.first_row,
                          width, height, row_pitch, "the rows of " + name_);
        });
        return;
    }
    if (band.end_row != next_end_row_)
        throw std::logic_error("BandWriter: bands out of the file's order");
    next_end_row_ = band.first_row;
    const std::size_t bytes = bmp_grey_stride(width) * height;
    const cl::Buffer& rows =
        file_rows_.at_least(cl_, mode_, CL_MEM_READ_WRITE, bytes, "the rows of " + name_);
    // [Device rows to the file]
    pipeline.time("kernel " + name_ + " rows", row_pitch * height + bytes,
                  [&] { conversions_.to_bmp_rows(image, width, height, row_pitch, rows).wait(); });
    pipeline.time("download and write " + name_ + how, bytes, [&] {
        download_bytes(
            cl_, mode_, rows, bytes,
            [&](const unsigned char* data, std::size_t, std::size_t size) {
                file_->write(data, size);
            },
            "the rows of " + name_);
    });
    // [Device rows to the file]
}

void BandWriter::commit(PipelineTimer& pipeline)
{
    if (file_) {
        if (next_end_row_ != 0) throw std::logic_error("BandWriter: a band was not written");
        // The file's data on the disk before its rename (AtomicFile::commit): the part of the
        // commit that waits for the disk, a step of its own.
        pipeline.time("flush " + name_ + " to the disk", file_->bytes_written(),
                      [&] { file_->commit(); });
        return;
    }
    pipeline.time("compress and write " + name_, assembled_.pixels.size(),
                  [&] { write_image(output_, assembled_); });
}

}  // namespace sdk
