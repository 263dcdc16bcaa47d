#pragma once
#include "filters/convert/row_conversions.hpp"
#include "imageio/bmp.hpp"
#include "imageio/image.hpp"
#include "imageio/image_file.hpp"
#include "imageio/input_file.hpp"
#include "runtime/device.hpp"
#include "runtime/pipeline_timer.hpp"
#include "runtime/transfers.hpp"

#include <cstddef>
#include <filesystem>
#include <memory>
#include <vector>

namespace sdk {

// An input image opened and its header checked, before any device work: its size is known and
// its pixel rows are not read yet.
struct OpenedImage {
    std::unique_ptr<InputFile> file;
    // For a PNG or JPEG, only its size: they are always decoded on the host (storage other).
    BmpLayout layout;
    std::size_t width() const { return static_cast<std::size_t>(layout.width); }
    std::size_t height() const { return static_cast<std::size_t>(layout.height); }
    // Pixels the device can convert as stored; others are decoded on the host.
    bool device_convertible() const { return layout.storage != BmpStorage::other; }
};

// Opens `input` (refusing what is not a regular file), recognises its format by its first bytes
// and checks its headers against its real size: an unknown format, a truncated or malformed
// header fails here, naming the file, before any work is done.
OpenedImage open_image(const std::filesystem::path& input);

// The luminance of `image` into `luminance` (rows `row_pitch` bytes apart on the device), the
// fastest way the file allows: its pixel rows read straight into the memory the transfer moves
// (the mapped buffer in map mode: no copy at all; in pinned mode one pinned chunk while the
// other is on its way to the device) and converted on the device. Files whose pixels need
// decoding (PNG, JPEG, and BMPs with palettes, 16 or 32 bit, bit fields) are decoded and
// converted on the host and uploaded. Each step is timed in `pipeline`.
void load_luminance_on_device(const OpenedImage& image, const OpenClContext& cl, MemoryMode mode,
                              RowConversions& conversions, const cl::Buffer& luminance,
                              std::size_t row_pitch, PipelineTimer& pipeline);

// Writes the 8-bit `image` (rows `row_pitch` bytes apart on the device) as the 8-bit BMP
// `output`: laid out as the file's rows on the device, then downloaded and written piece by
// piece after the header (in pinned mode the download of one piece overlaps the writing of the
// one before), through a temporary file renamed into place. An `output` ending in .png is
// downloaded as it is and compressed on the host instead (write_image).
void write_image_from_device(const std::filesystem::path& output, const cl::Buffer& image,
                           std::size_t width, std::size_t height, std::size_t row_pitch,
                           const OpenClContext& cl, MemoryMode mode, RowConversions& conversions,
                           PipelineTimer& pipeline);

}  // namespace sdk
