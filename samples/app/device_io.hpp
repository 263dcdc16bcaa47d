// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/codecs/decoding_ahead.hpp"
#include "kernels/convert/row_conversions.hpp"
#include "common/codecs/jpeg_idct/jpeg_idct_filter.hpp"
#include "common/imageio/bmp.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/image.hpp"
#include "common/imageio/image_file.hpp"
#include "common/imageio/input_file.hpp"
#include "common/runtime/bands.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/pipeline_timer.hpp"
#include "common/runtime/transfers.hpp"

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <future>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sdk {

// An input image opened and its header checked, before any device work: its size is known and
// its pixel rows are not read yet.
struct OpenedImage {
    std::unique_ptr<InputFile> file;
    // For a PNG or JPEG, only its size: they are always decoded on the host (storage other).
    BmpLayout layout;
    // With Decoding::ahead, the host's decoding of pixels the device cannot convert, begun when
    // opened (after `file`, so that it ends before the file closes).
    std::shared_ptr<DecodingAhead> decoding;
    std::size_t width() const { return static_cast<std::size_t>(layout.width); }
    std::size_t height() const { return static_cast<std::size_t>(layout.height); }
    // Pixels the device can convert as stored; others are decoded on the host.
    bool device_convertible() const { return layout.storage != BmpStorage::other; }
};

// Opens `input` (refusing what is not a regular file), recognises its format by its first bytes
// and checks its headers against its real size: an unknown format, a truncated or malformed
// header fails here, naming the file, before any work is done. With Decoding::ahead, pixels
// that need the host's decoding start decoding now, beside the device's start (BandReader takes
// them); Decoding::when_read leaves the file to be read by whoever needs it. With
// `jpeg_idct_on_device` (--jpeg-idct's choice, codec_choice.hpp), a JPEG decoded ahead stops at
// its coefficients and BandReader runs the inverse DCT on the device.
enum class Decoding { when_read, ahead };
OpenedImage open_image(const std::filesystem::path& input, Decoding decoding = Decoding::when_read,
                       bool jpeg_idct_on_device = false);

// The whole luminance of `image` on the host, for a filter that takes it whole (as the Arm Mali
// SDK tutorials do): taken from the decoding ahead when there is one (waiting for it, timed in
// `pipeline` as "wait for decoding NAME"), else read now (load_luminance: "read NAME", and
// "RGB to luminance" for a colour BMP).
Image host_luminance(const OpenedImage& image, PipelineTimer& pipeline);

// The input's rows and the device's rows that cost every run: the file's stored rows (when
// they go to the device as they are) and the 8-bit BMP rows of the output. A filter adds its own
// buffers' (widest, common/runtime/bands.hpp).
RowFootprint file_row_footprint(const OpenedImage& image);

// How the run is cut (common/runtime/bands.hpp): the whole image in one band when every buffer fits
// the device's largest allocation and `band_rows` is 0 (--band-rows absent), else bands.
// `filter_row` is what one row costs the filter's buffers; `halo` its radius times its passes.
BandPlan plan_device_bands(const OpenedImage& image, const OpenClContext& cl, std::size_t halo,
                           const RowFootprint& filter_row, std::size_t band_rows);

// Options that need the whole image on the device at once (--verify, --save-raw, ...): a banded
// run refuses them with a usage error naming the first one given.
struct WholeImageOption {
    const char* name;
    bool given;
};
void refuse_with_bands(const BandPlan& plan, std::initializer_list<WholeImageOption> options);

// A device buffer reused from band to band, grown when a band needs more: buffers are not
// created and released again for every band.
class DeviceRows {
public:
    const cl::Buffer& at_least(const OpenClContext& cl, MemoryMode mode, cl_mem_flags access,
                               std::size_t bytes, const std::string& what);

private:
    cl::Buffer buffer_;
    std::size_t bytes_ = 0;
};

// The luminance of `image` onto the device, a band at a time, the fastest way the file allows:
// its pixel rows read straight into the memory the transfer moves (the mapped buffer in map
// mode: no copy at all; in pinned mode one pinned chunk while the other is on its way to the
// device) and converted on the device. Files whose pixels need decoding (PNG, JPEG, and BMPs
// with palettes, 16 or 32 bit, bit fields) are decoded to luminance on the host once: decoded
// ahead (open_image's Decoding::ahead), each piece of rows moves as soon as it is decoded, while
// later rows are still being decoded; else all at the first band. A JPEG decoded ahead to its
// coefficients has them uploaded and its luminance made by the device's IDCT instead. Each step
// is timed in `pipeline`.
class BandReader {
public:
    BandReader(const OpenedImage& image, const OpenClContext& cl, MemoryMode mode,
               RowConversions& conversions);
    // The band's input rows, halo included, into `luminance` (rows `row_pitch` bytes apart) as
    // if they were the whole image.
    void load_luminance(const Band& band, const cl::Buffer& luminance, std::size_t row_pitch,
                        PipelineTimer& pipeline);

private:
    const OpenedImage& image_;
    const OpenClContext& cl_;
    MemoryMode mode_;
    RowConversions& conversions_;
    std::optional<Image> decoded_;          // files decoded on the host, once
    std::unique_ptr<JpegIdctFilter> idct_;  // built at the first band of a JPEG's coefficients
    DeviceRows stored_rows_;                // the file's rows of a band, kept from band to band
};

// Writes the 8-bit result as the 8-bit BMP `output`, a band at a time: each band's rows laid
// out as the file's rows on the device, then downloaded and written piece by piece after the
// header (in pinned mode the download of one piece overlaps the writing of the one before),
// through the run's temporary file, put in place by the OutputSet. An `output` ending in .png is
// assembled on the host from the bands and compressed at commit() instead (write_image), in
// `png_pixels` when given: the whole image's bytes, allocated ahead (allocate_png_pixels).
class BandWriter {
public:
    BandWriter(const std::filesystem::path& output, std::size_t width, std::size_t height,
               const OpenClContext& cl, MemoryMode mode, RowConversions& conversions,
               std::future<std::vector<std::uint8_t>> png_pixels = {});
    ~BandWriter();
    // The bands in the order the file stores their rows (a BMP's bottom row first), the order
    // write() takes them in: each BMP write then follows the one before, no seeking.
    std::vector<Band> in_file_order(std::vector<Band> bands) const;
    // The band's output rows of `result`, the filter's output for its input rows (rows
    // `row_pitch` bytes apart): the halo rows either side are left out.
    void write(const Band& band, const cl::Buffer& result, std::size_t row_pitch,
               PipelineTimer& pipeline);
    // Every band written: the file complete (a PNG compressed and written now).
    void commit(PipelineTimer& pipeline);

private:
    std::filesystem::path output_;
    std::string name_;
    std::size_t width_;
    std::size_t height_;
    const OpenClContext& cl_;
    MemoryMode mode_;
    RowConversions& conversions_;
    DeviceRows band_rows_;              // a band's output rows without their halo
    DeviceRows file_rows_;              // a band's rows laid out as the BMP's
    std::unique_ptr<AtomicFile> file_;  // a BMP: open from the start, its header written
    std::size_t next_end_row_;          // a BMP's next band ends here (file order is bottom-up)
    Image assembled_;                   // a PNG: the whole image, compressed at the end
};

}  // namespace sdk
