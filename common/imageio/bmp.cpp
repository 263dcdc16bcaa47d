// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/bmp.hpp"

#include "common/imageio/file_io.hpp"
#include "common/imageio/input_file.hpp"
#include "common/imageio/while_loading.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace sdk {
namespace {

// Layout constants of the format (all offsets from the start of the file).
constexpr std::uint64_t kFileHeaderSize = 14;
constexpr std::uint64_t kInfoHeaderSize = 40;  // BITMAPINFOHEADER
constexpr std::uint64_t kV4HeaderSize = 108;   // BITMAPV4HEADER
constexpr std::uint64_t kV5HeaderSize = 124;   // BITMAPV5HEADER
constexpr std::uint64_t kCoreHeaderSize = 12;  // OS/2 BITMAPCOREHEADER
constexpr std::uint64_t kMaskBytes = 12;       // R, G, B masks after a plain info header

constexpr std::uint32_t kBiRgb = 0;
constexpr std::uint32_t kBiRle8 = 1;
constexpr std::uint32_t kBiRle4 = 2;
constexpr std::uint32_t kBiBitfields = 3;
constexpr std::uint32_t kBiJpeg = 4;
constexpr std::uint32_t kBiPng = 5;

// Every header, masks and palette included, ends within this many bytes of the file's start.
constexpr std::size_t kHeaderPrefixBytes = 2048;

// Bytes are assembled one at a time: the buffer has no alignment guarantee and the format is
// little-endian whatever the host is.
std::uint16_t le16(const std::uint8_t* p)
{
    return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}

std::uint32_t le32(const std::uint8_t* p)
{
    return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
           (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

// Two's-complement reinterpretation done arithmetically, so even 0x80000000 is well defined.
std::int64_t le32_signed(const std::uint8_t* p)
{
    const std::uint32_t value = le32(p);
    return value >= 0x80000000u ? static_cast<std::int64_t>(value) - (std::int64_t{1} << 32)
                                : static_cast<std::int64_t>(value);
}

std::uint64_t row_stride(std::uint64_t width, std::uint64_t bits_per_pixel)
{
    return (width * bits_per_pixel + 31) / 32 * 4;  // rows are padded to 4 bytes
}

// One colour channel of a 16 or 32 bit pixel: a contiguous run of bits.
struct ChannelMask {
    std::uint32_t mask = 0;
    unsigned shift = 0;
    std::uint32_t max = 0;  // largest value of the channel, mask >> shift

    // Scales the channel to 0..255 with rounding; max is 2^n - 1, so there are no ties.
    std::uint8_t extract(std::uint32_t pixel) const
    {
        const std::uint64_t value = (pixel & mask) >> shift;
        return static_cast<std::uint8_t>((value * 255 + max / 2) / max);
    }
};

struct PaletteEntry {
    std::uint8_t r, g, b;
};

class Decoder {
public:
    // `data` holds the first `size` bytes of a file of `file_size` bytes: all of it to decode, at
    // least the headers and palette to describe its layout.
    Decoder(const std::uint8_t* data, std::size_t size, std::uint64_t file_size,
            const std::string& name)
        : data_(data), size_(size), file_size_(file_size), name_(name)
    {
    }

    Image decode()
    {
        read_headers();
        read_masks();
        read_palette();
        locate_pixels();
        return decode_pixels();
    }

    BmpLayout layout()
    {
        read_headers();
        read_masks();
        read_palette();
        locate_pixels();
        BmpLayout result;
        result.width = width_;
        result.height = height_;
        result.top_down = top_down_;
        result.pixel_offset = pixel_offset_;
        result.stride = stride_;
        if (compression_ == kBiRgb && bits_per_pixel_ == 24) {
            result.storage = BmpStorage::bgr24;
        } else if (bits_per_pixel_ == 8 && palette_.size() == 256) {
            bool identity = true;
            for (std::size_t i = 0; i < palette_.size() && identity; ++i)
                identity = palette_[i].r == i && palette_[i].g == i && palette_[i].b == i;
            if (identity) result.storage = BmpStorage::grey8;
        }
        return result;
    }

private:
    [[noreturn]] void fail(const std::string& reason) const
    {
        throw ImageError(name_ + ": " + reason);
    }

    std::string needs(std::uint64_t bytes, std::uint64_t offset) const
    {
        return "needs " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
               ", file has " + std::to_string(file_size_);
    }

    void read_headers()
    {
        if (size_ < 2 || data_[0] != 'B' || data_[1] != 'M') {
            fail("not a BMP file (no 'BM' signature)");
        }
        if (size_ < kFileHeaderSize + 4) {
            fail("file header truncated: " + needs(kFileHeaderSize + 4, 0));
        }
        // bfSize (offset 2) is ignored: writers often get it wrong and nothing depends on it.
        pixel_offset_ = le32(data_ + 10);

        header_size_ = le32(data_ + kFileHeaderSize);
        if (header_size_ == kCoreHeaderSize) {
            fail("OS/2 BITMAPCOREHEADER (12-byte header) is not supported");
        }
        if (header_size_ != kInfoHeaderSize && header_size_ != kV4HeaderSize &&
            header_size_ != kV5HeaderSize) {
            fail("unsupported info header size " + std::to_string(header_size_) +
                 " (supported: 40, 108, 124)");
        }
        headers_end_ = kFileHeaderSize + header_size_;
        if (size_ < headers_end_) {
            fail("info header truncated: " + needs(header_size_, kFileHeaderSize));
        }

        const std::uint8_t* info = data_ + kFileHeaderSize;
        const std::int64_t width = le32_signed(info + 4);
        const std::int64_t height = le32_signed(info + 8);
        const std::uint16_t planes = le16(info + 12);
        bits_per_pixel_ = le16(info + 14);
        compression_ = le32(info + 16);
        // biSizeImage, resolutions and biClrImportant are ignored: the first is often 0 or
        // wrong and is recomputed from the dimensions, the others do not affect the pixels.
        colours_used_ = le32(info + 32);

        if (planes != 1) {
            fail("planes is " + std::to_string(planes) + ", must be 1");
        }
        check_compression();
        if (width <= 0) {
            fail("invalid width " + std::to_string(width) + " (must be positive)");
        }
        if (height == 0) {
            fail("invalid height 0");
        }
        // A negative height marks top-down rows; int64 keeps the magnitude of INT32_MIN exact.
        top_down_ = height < 0;
        width_ = static_cast<std::uint64_t>(width);
        height_ = static_cast<std::uint64_t>(height < 0 ? -height : height);
        check_image_limits(width_, height_, name_);
    }

    void check_compression() const
    {
        const std::string depth = std::to_string(bits_per_pixel_);
        switch (compression_) {
            case kBiRgb:
                if (bits_per_pixel_ != 1 && bits_per_pixel_ != 4 && bits_per_pixel_ != 8 &&
                    bits_per_pixel_ != 16 && bits_per_pixel_ != 24 && bits_per_pixel_ != 32) {
                    fail("unsupported bit depth " + depth + " (supported: 1, 4, 8, 16, 24, 32)");
                }
                return;
            case kBiBitfields:
                if (bits_per_pixel_ != 16 && bits_per_pixel_ != 32) {
                    fail("unsupported bit depth " + depth +
                         " for BI_BITFIELDS (supported: 16, 32)");
                }
                return;
            case kBiRle8:
            case kBiRle4:
                fail("RLE compression (BI_RLE" + std::string(compression_ == kBiRle8 ? "8" : "4") +
                     ") is not supported");
            case kBiJpeg:
            case kBiPng:
                fail("embedded " + std::string(compression_ == kBiJpeg ? "JPEG" : "PNG") +
                     " compression is not supported");
            default:
                fail("unsupported compression " + std::to_string(compression_));
        }
    }

    void read_masks()
    {
        if (bits_per_pixel_ != 16 && bits_per_pixel_ != 32) {
            return;
        }
        std::array<std::uint32_t, 3> masks{};
        if (compression_ == kBiRgb) {
            // The implicit layouts: 5-5-5 for 16 bit, B, G, R, unused byte for 32 bit.
            masks = bits_per_pixel_ == 16 ? std::array<std::uint32_t, 3>{0x7C00, 0x03E0, 0x001F}
                                          : std::array<std::uint32_t, 3>{0xFF0000, 0xFF00, 0xFF};
        } else {
            // V4 and V5 headers carry the masks inside; a plain info header is followed by them.
            std::uint64_t at = kFileHeaderSize + kInfoHeaderSize;
            if (header_size_ == kInfoHeaderSize) {
                headers_end_ += kMaskBytes;
                if (size_ < headers_end_) {
                    fail("bit field masks truncated: " + needs(kMaskBytes, at));
                }
            }
            for (std::size_t i = 0; i < masks.size(); ++i, at += 4) {
                masks[i] = le32(data_ + at);
            }
        }
        static const char* const names[] = {"red", "green", "blue"};
        std::uint32_t seen = 0;
        for (std::size_t i = 0; i < masks.size(); ++i) {
            channels_[i] = make_channel(masks[i], names[i]);
            if ((seen & masks[i]) != 0) {
                fail("bit field masks overlap");
            }
            seen |= masks[i];
        }
    }

    ChannelMask make_channel(std::uint32_t mask, const char* channel) const
    {
        const bool fits = bits_per_pixel_ == 32 || (mask >> bits_per_pixel_) == 0;
        ChannelMask result;
        result.mask = mask;
        if (mask != 0) {
            while (((mask >> result.shift) & 1u) == 0) {
                ++result.shift;
            }
        }
        result.max = mask >> result.shift;
        // A run of ones plus one is a power of two (unsigned wrap-around covers 0xFFFFFFFF).
        const bool contiguous = mask != 0 && (result.max & (result.max + 1u)) == 0;
        if (!contiguous || !fits) {
            fail(std::string("invalid ") + channel + " bit field mask 0x" + hex(mask) +
                 " (must be non-zero, contiguous and within " + std::to_string(bits_per_pixel_) +
                 " bits)");
        }
        return result;
    }

    static std::string hex(std::uint32_t value)
    {
        static const char digits[] = "0123456789ABCDEF";
        std::string text(8, '0');
        for (int i = 7; i >= 0; --i, value >>= 4) {
            text[static_cast<std::size_t>(i)] = digits[value & 0xF];
        }
        return text;
    }

    void read_palette()
    {
        if (bits_per_pixel_ > 8) {
            return;  // a colour table here is only an optional hint for palette displays
        }
        const std::uint64_t limit = std::uint64_t{1} << bits_per_pixel_;
        const std::uint64_t count = colours_used_ == 0 ? limit : colours_used_;
        if (count > limit) {
            fail("palette has " + std::to_string(count) + " colours, more than the " +
                 std::to_string(limit) + " a " + std::to_string(bits_per_pixel_) +
                 "-bit image can use");
        }
        const std::uint64_t bytes = count * 4;
        if (size_ - headers_end_ < bytes) {
            fail("palette truncated: " + needs(bytes, headers_end_));
        }
        grey_ = true;
        palette_.reserve(count);
        for (const std::uint8_t* entry = data_ + headers_end_; palette_.size() < count;
             entry += 4) {
            palette_.push_back({entry[2], entry[1], entry[0]});  // stored B, G, R, reserved
            grey_ = grey_ && entry[0] == entry[1] && entry[1] == entry[2];
        }
        headers_end_ += bytes;
    }

    void locate_pixels()
    {
        if (pixel_offset_ > file_size_) {
            fail("pixel data offset " + std::to_string(pixel_offset_) +
                 " is past the end of the file (" + std::to_string(file_size_) + " bytes)");
        }
        if (pixel_offset_ < headers_end_) {
            fail("pixel data offset " + std::to_string(pixel_offset_) +
                 " lies inside the headers (which end at " + std::to_string(headers_end_) + ")");
        }
        // Sizes are at most 2^16 * 32 bits per row and 2^16 rows, so uint64 cannot overflow.
        stride_ = row_stride(width_, bits_per_pixel_);
        const std::uint64_t bytes = stride_ * height_;
        if (file_size_ - pixel_offset_ < bytes) {
            fail("pixel data truncated: " + needs(bytes, pixel_offset_));
        }
    }

    Image decode_pixels() const
    {
        Image image;
        image.width = static_cast<std::size_t>(width_);
        image.height = static_cast<std::size_t>(height_);
        image.channels = bits_per_pixel_ <= 8 && grey_ ? 1 : 3;
        const std::size_t row_bytes = image.width * static_cast<std::size_t>(image.channels);
        image.pixels.resize(row_bytes * image.height);

        for (std::uint64_t file_row = 0; file_row < height_; ++file_row) {
            const std::uint64_t y = top_down_ ? file_row : height_ - 1 - file_row;
            const std::uint8_t* in = data_ + pixel_offset_ + file_row * stride_;
            std::uint8_t* out = image.pixels.data() + y * row_bytes;
            if (bits_per_pixel_ <= 8) {
                decode_indexed_row(in, out, y, image.channels);
            } else {
                decode_direct_row(in, out);
            }
        }
        return image;
    }

    void decode_indexed_row(const std::uint8_t* in, std::uint8_t* out, std::uint64_t y,
                            int channels) const
    {
        const unsigned bits = bits_per_pixel_;
        const unsigned index_mask = (1u << bits) - 1;
        for (std::uint64_t x = 0; x < width_; ++x) {
            // Pixels are packed from the most significant bit of each byte.
            const std::uint64_t bit = x * bits;
            const unsigned shift = 8 - bits - static_cast<unsigned>(bit % 8);
            const unsigned index = (in[bit / 8] >> shift) & index_mask;
            if (index >= palette_.size()) {
                fail("pixel (" + std::to_string(x) + ", " + std::to_string(y) +
                     ") uses colour index " + std::to_string(index) + " but the palette has " +
                     std::to_string(palette_.size()) + " entries");
            }
            const PaletteEntry& colour = palette_[index];
            if (channels == 1) {
                *out++ = colour.r;
            } else {
                *out++ = colour.r;
                *out++ = colour.g;
                *out++ = colour.b;
            }
        }
    }

    void decode_direct_row(const std::uint8_t* in, std::uint8_t* out) const
    {
        for (std::uint64_t x = 0; x < width_; ++x) {
            if (bits_per_pixel_ == 24) {
                out[0] = in[2];  // stored B, G, R
                out[1] = in[1];
                out[2] = in[0];
                in += 3;
            } else {
                const std::uint32_t pixel = bits_per_pixel_ == 16 ? le16(in) : le32(in);
                out[0] = channels_[0].extract(pixel);
                out[1] = channels_[1].extract(pixel);
                out[2] = channels_[2].extract(pixel);
                in += bits_per_pixel_ / 8;
            }
            out += 3;
        }
    }

    const std::uint8_t* data_;
    std::uint64_t size_;       // bytes held at data_
    std::uint64_t file_size_;  // bytes in the file
    const std::string& name_;

    std::uint64_t pixel_offset_ = 0;
    std::uint64_t header_size_ = 0;
    std::uint64_t headers_end_ = 0;  // first byte after headers, masks and palette read so far
    std::uint64_t width_ = 0;
    std::uint64_t height_ = 0;
    std::uint64_t stride_ = 0;
    bool top_down_ = false;
    unsigned bits_per_pixel_ = 0;
    std::uint32_t compression_ = 0;
    std::uint32_t colours_used_ = 0;
    std::array<ChannelMask, 3> channels_{};
    std::vector<PaletteEntry> palette_;
    bool grey_ = false;
};

void put16(std::vector<std::uint8_t>& out, std::uint32_t value)
{
    out.push_back(static_cast<std::uint8_t>(value));
    out.push_back(static_cast<std::uint8_t>(value >> 8));
}

void put32(std::vector<std::uint8_t>& out, std::uint32_t value)
{
    put16(out, value & 0xFFFF);
    put16(out, value >> 16);
}

void check_encodable(const Image& image)
{
    const auto shape = std::to_string(image.width) + "x" + std::to_string(image.height);
    if (image.channels != 1 && image.channels != 3) {
        throw std::invalid_argument("encode_bmp: " + std::to_string(image.channels) +
                                    " channels (supported: 1, 3)");
    }
    if (image.width == 0 || image.height == 0) {
        throw std::invalid_argument("encode_bmp: empty image (" + shape + ")");
    }
    // The decoder's limits, so that whatever is written can be read back.
    if (!within_image_limits(image.width, image.height)) {
        throw std::invalid_argument("encode_bmp: image too large (" + shape + ")");
    }
    const std::uint64_t expected =
        std::uint64_t{image.width} * image.height * static_cast<std::uint64_t>(image.channels);
    if (image.pixels.size() != expected) {
        throw std::invalid_argument("encode_bmp: " + shape + "x" + std::to_string(image.channels) +
                                    " image needs " + std::to_string(expected) + " bytes, has " +
                                    std::to_string(image.pixels.size()));
    }
}

}  // namespace

Image decode_bmp(const std::uint8_t* data, std::size_t size, const std::string& name)
{
    if (data == nullptr) {
        size = 0;  // treated as an empty file: fails the signature check
    }
    return Decoder(data, size, size, name).decode();
}

BmpLayout describe_bmp(const std::uint8_t* prefix, std::size_t prefix_size, std::uint64_t file_size,
                       const std::string& name)
{
    if (prefix == nullptr) prefix_size = 0;
    return Decoder(prefix, std::min<std::uint64_t>(prefix_size, file_size), file_size, name)
        .layout();
}

BmpLayout read_bmp_layout(const InputFile& file)
{
    std::vector<std::uint8_t> prefix(kHeaderPrefixBytes);
    prefix.resize(while_loading([&] { return file.read_prefix(prefix.data(), prefix.size()); }));
    return describe_bmp(prefix.data(), prefix.size(), file.size(), file.path().string());
}

Image read_bmp(const InputFile& file)
{
    // Only once its header has been checked against its real size: a header declaring gigabytes
    // costs nothing before it is refused.
    const BmpLayout layout = read_bmp_layout(file);
    // Up to the end of the pixel rows the header declares: whatever follows is never read.
    std::vector<std::uint8_t> bytes(
        static_cast<std::size_t>(layout.pixel_offset + layout.stride * layout.height));
    while_loading([&] { file.read_at(0, bytes.data(), bytes.size()); });
    return decode_bmp(bytes.data(), bytes.size(), file.path().string());
}

Image read_bmp(const std::filesystem::path& path)
{
    return while_loading([&] {
        // Only a regular file: /dev/zero or a FIFO is refused before anything is read.
        const InputFile file(path);
        return read_bmp(file);
    });
}

namespace {

// The headers (and for grey, the palette) that encode_bmp writes before the pixel rows.
// Its size must be within the decoder's limits (check_encodable).
std::vector<std::uint8_t> encode_bmp_headers(std::size_t image_width, std::size_t image_height,
                                             bool grey)
{
    const std::uint32_t bits = grey ? 8 : 24;
    const std::uint32_t palette_bytes = grey ? 256 * 4 : 0;
    const auto width = static_cast<std::uint32_t>(image_width);
    const auto height = static_cast<std::uint32_t>(image_height);
    const auto stride = static_cast<std::uint32_t>(row_stride(width, bits));
    const std::uint32_t offset = kFileHeaderSize + kInfoHeaderSize + palette_bytes;
    // At most 2^28 pixels * 3 bytes plus padding: fits the 32-bit size fields.
    const std::uint32_t pixel_bytes = stride * height;

    std::vector<std::uint8_t> out;
    out.push_back('B');
    out.push_back('M');
    put32(out, offset + pixel_bytes);
    put32(out, 0);  // reserved
    put32(out, offset);

    put32(out, kInfoHeaderSize);
    put32(out, width);
    put32(out, height);  // positive: rows stored bottom-up, the most widely supported order
    put16(out, 1);       // planes
    put16(out, bits);
    put32(out, kBiRgb);
    put32(out, pixel_bytes);
    put32(out, 2835);  // 72 DPI in pixels per metre, both axes
    put32(out, 2835);
    put32(out, grey ? 256 : 0);  // colours used
    put32(out, 0);               // colours important: all

    if (grey) {
        for (std::uint32_t level = 0; level < 256; ++level) {
            const auto v = static_cast<std::uint8_t>(level);
            out.insert(out.end(), {v, v, v, 0});
        }
    }
    return out;
}

}  // namespace

std::size_t bmp_grey_stride(std::size_t width)
{
    return static_cast<std::size_t>(row_stride(width, 8));
}

std::vector<std::uint8_t> bmp_grey_header(std::size_t width, std::size_t height)
{
    if (width == 0 || height == 0 || !within_image_limits(width, height))
        throw std::invalid_argument("bmp_grey_header: no BMP of " + std::to_string(width) + "x" +
                                    std::to_string(height) + " pixels");
    return encode_bmp_headers(width, height, true);
}

std::vector<std::uint8_t> encode_bmp(const Image& image)
{
    check_encodable(image);
    std::vector<std::uint8_t> out =
        encode_bmp_headers(image.width, image.height, image.channels == 1);
    const bool grey = image.channels == 1;
    const std::size_t stride = static_cast<std::size_t>(row_stride(image.width, grey ? 8 : 24));
    out.reserve(out.size() + stride * image.height);  // here, not for a header written alone
    const std::size_t row_bytes = image.width * static_cast<std::size_t>(image.channels);
    const std::size_t padding = stride - row_bytes;
    for (std::size_t file_row = 0; file_row < image.height; ++file_row) {
        const std::uint8_t* in = image.pixels.data() + (image.height - 1 - file_row) * row_bytes;
        if (grey) {
            out.insert(out.end(), in, in + row_bytes);
        } else {
            for (std::size_t x = 0; x < image.width; ++x, in += 3) {
                out.insert(out.end(), {in[2], in[1], in[0]});  // B, G, R on disk
            }
        }
        out.insert(out.end(), padding, 0);
    }
    return out;
}

void write_bmp(const std::filesystem::path& path, const Image& image)
{
    std::vector<std::uint8_t> bytes;
    try {
        bytes = encode_bmp(image);
    } catch (const std::invalid_argument& error) {
        throw std::invalid_argument(path.string() + ": " + error.what());
    }
    write_file_atomically(path, bytes.data(), bytes.size());
}

}  // namespace sdk
