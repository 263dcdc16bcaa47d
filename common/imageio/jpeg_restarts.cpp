// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/jpeg_restarts.hpp"

#include "common/imageio/each_on_a_thread.hpp"

#include <algorithm>
#include <cstring>
#include <exception>
#include <numeric>

namespace sdk {

void JpegBytes::read(std::uint64_t offset, std::uint8_t* destination, std::size_t count) const
{
    if (memory_)
        std::memcpy(destination, memory_ + offset, count);
    else
        file_->read_at(offset, destination, count);
}

namespace {

constexpr int kMarkerSOI = 0xD8, kMarkerEOI = 0xD9, kMarkerRST0 = 0xD0, kMarkerRST7 = 0xD7;
constexpr int kMarkerSOF0 = 0xC0, kMarkerSOF1 = 0xC1, kMarkerDHT = 0xC4, kMarkerDQT = 0xDB;
constexpr int kMarkerDRI = 0xDD, kMarkerSOS = 0xDA, kMarkerCOM = 0xFE;
constexpr int kMarkerAPP0 = 0xE0, kMarkerAPP15 = 0xEF;

// The header is walked a byte here and two there; a file is read through a window this large,
// so that a header of many small segments costs few reads.
constexpr std::size_t kWindowBytes = 64 * 1024;

class ByteWindow {
public:
    explicit ByteWindow(const JpegBytes& bytes) : bytes_(bytes) {}

    // The byte at `offset`, or -1 past the end of the file.
    int byte(std::uint64_t offset)
    {
        if (offset >= bytes_.size()) return -1;
        if (bytes_.memory()) return bytes_.memory()[offset];
        if (offset < start_ || offset >= start_ + window_.size()) {
            const std::uint64_t left = bytes_.size() - offset;
            window_.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kWindowBytes, left)));
            bytes_.read(offset, window_.data(), window_.size());
            start_ = offset;
        }
        return window_[offset - start_];
    }
    // A big-endian 16-bit value, or -1 past the end.
    int pair(std::uint64_t offset)
    {
        const int high = byte(offset), low = byte(offset + 1);
        return high < 0 || low < 0 ? -1 : high << 8 | low;
    }

private:
    const JpegBytes& bytes_;
    std::vector<std::uint8_t> window_;
    std::uint64_t start_ = 0;
};

using Frame = JpegScanHeader;

// A component as the frame header declares it, for the scan header to refer to by its id.
struct FrameComponent {
    int id = -1;
    int h = 1, v = 1;
    bool used = false;  // named by the scan
};

// SOF0/SOF1's body at `body`: precision, height, width, components with their sampling factors.
bool read_frame_header(ByteWindow& in, std::uint64_t body, int length, Frame& frame,
                       std::vector<FrameComponent>& components)
{
    frame.components = in.byte(body + 5);
    if (in.byte(body) != 8 || (frame.components != 1 && frame.components != 3) ||
        length != 8 + 3 * frame.components)
        return false;
    frame.height_offset = body + 1;
    frame.height = in.pair(body + 1);
    frame.width = in.pair(body + 3);
    if (frame.height <= 0 || frame.width <= 0) return false;  // 0: height set by a DNL marker
    int least_v = 4, blocks = 0;
    for (int i = 0; i < frame.components; ++i) {
        const std::uint64_t at = body + 6 + 3 * static_cast<std::uint64_t>(i);
        const int factors = in.byte(at + 1);
        const int h = factors >> 4, v = factors & 15;
        if (h < 1 || h > 4 || v < 1 || v > 4) return false;
        components.push_back({in.byte(at), h, v});
        frame.most_h = std::max(frame.most_h, h);
        frame.most_v = std::max(frame.most_v, v);
        least_v = std::min(least_v, v);
        blocks += h * v;
    }
    // An MCU holds at most 10 blocks (ITU T.81, B.2.3).
    if (frame.components > 1 && blocks > 10) return false;
    frame.vertically_subsampled = least_v < frame.most_v;
    return true;
}

// DHT's body: one or more tables, each its class and number, 16 counts and the symbols.
bool read_huffman_tables(ByteWindow& in, std::uint64_t body, int length, Frame& frame)
{
    const std::uint64_t end = body + static_cast<std::uint64_t>(length) - 2;
    while (body < end) {
        const int kind = in.byte(body);
        if (kind < 0 || (kind >> 4) > 1 || (kind & 15) > 3 || body + 17 > end) return false;
        JpegScanHeader::HuffmanTable& table =
            (kind >> 4) == 0 ? frame.dc[kind & 15] : frame.ac[kind & 15];
        int symbols = 0;
        for (int l = 0; l < 16; ++l) {
            table.counts[l] = static_cast<std::uint8_t>(in.byte(body + 1 + l));
            symbols += table.counts[l];
        }
        body += 17;
        if (symbols > 256 || body + static_cast<std::uint64_t>(symbols) > end) return false;
        table.values.resize(static_cast<std::size_t>(symbols));
        for (int k = 0; k < symbols; ++k)
            table.values[static_cast<std::size_t>(k)] =
                static_cast<std::uint8_t>(in.byte(body + k));
        body += static_cast<std::uint64_t>(symbols);
        table.defined = true;
    }
    return body == end;
}

// SOS's body: the scan's components (each with its tables), then a baseline scan's spectral
// selection 0-63 and no successive approximation.
bool read_scan_components(ByteWindow& in, std::uint64_t body,
                          std::vector<FrameComponent>& components, Frame& frame)
{
    for (int i = 0; i < frame.components; ++i) {
        const std::uint64_t at = body + 1 + 2 * static_cast<std::uint64_t>(i);
        const int id = in.byte(at), tables = in.byte(at + 1);
        const auto found = std::find_if(components.begin(), components.end(),
                                        [&](const FrameComponent& c) { return c.id == id; });
        if (found == components.end() || (tables >> 4) > 3 || (tables & 15) > 3) return false;
        if (found->used) return false;  // a component twice in the scan
        found->used = true;
        frame.scan.push_back({found->h, found->v, tables >> 4, tables & 15});
    }
    const std::uint64_t after = body + 1 + 2 * static_cast<std::uint64_t>(frame.components);
    return in.byte(after) == 0 && in.byte(after + 1) == 63 && in.byte(after + 2) == 0;
}

// Walks the markers from SOI to the first SOS. Only the markers a baseline file of one scan
// needs are taken; anything else (a progressive or arithmetic-coded frame, DNL, stray bytes
// between segments) leaves the file to the sequential decoder.
std::optional<Frame> read_headers(ByteWindow& in)
{
    if (in.byte(0) != 0xFF || in.byte(1) != kMarkerSOI) return std::nullopt;
    Frame frame;
    std::vector<FrameComponent> components;
    bool seen_frame = false;
    std::uint64_t at = 2;
    for (;;) {
        if (in.byte(at) != 0xFF) return std::nullopt;
        while (in.byte(at + 1) == 0xFF) ++at;  // fill bytes before a marker
        const int marker = in.byte(at + 1);
        const int length = in.pair(at + 2);
        if (marker < 0 || length < 2) return std::nullopt;
        const std::uint64_t body = at + 4;
        if (marker == kMarkerSOF0 || marker == kMarkerSOF1) {
            if (seen_frame || !read_frame_header(in, body, length, frame, components))
                return std::nullopt;
            seen_frame = true;
        } else if (marker == kMarkerDRI) {
            if (length != 4) return std::nullopt;
            frame.restart_interval = in.pair(body);
        } else if (marker == kMarkerDHT) {
            if (!read_huffman_tables(in, body, length, frame)) return std::nullopt;
        } else if (marker == kMarkerSOS) {
            if (!seen_frame || in.byte(body) != frame.components ||
                length != 6 + 2 * frame.components ||
                !read_scan_components(in, body, components, frame))
                return std::nullopt;
            frame.scan_offset = at;
            frame.entropy_begin = at + 2 + static_cast<std::uint64_t>(length);
            return frame;
        } else if (marker != kMarkerDQT && marker != kMarkerCOM &&
                   (marker < kMarkerAPP0 || marker > kMarkerAPP15)) {
            return std::nullopt;
        }
        at += 2 + static_cast<std::uint64_t>(length);
    }
}

// ----- The markers inside the scan ---------------------------------------------------------------

struct Marker {
    std::uint64_t at;  // offset of its FF
    int code;          // the byte after it
};

// The markers found in one stretch of the scan: the restart markers, and the first other marker
// (the end of the scan), after which the stretch stops.
struct StretchMarkers {
    std::vector<Marker> restarts;
    std::optional<Marker> end;
    bool too_many = false;  // more restarts than the whole scan may hold: not the simple case
};

constexpr std::size_t kScanBlockBytes = std::size_t{1} << 20;

// Inside entropy-coded data an FF byte is followed by 00 (a stuffed FF of data) or by more FF
// (fill); any other byte after it makes a marker. A marker belongs to the stretch holding its FF,
// so stretches can be cut anywhere: the byte after a stretch is read with it.
void find_markers(const JpegBytes& bytes, std::uint64_t begin, std::uint64_t end,
                  std::size_t most_restarts, StretchMarkers& found)
{
    std::vector<std::uint8_t> block;
    for (std::uint64_t block_begin = begin; block_begin < end; block_begin += kScanBlockBytes) {
        const std::uint64_t block_end = std::min<std::uint64_t>(end, block_begin + kScanBlockBytes);
        const auto readable = static_cast<std::size_t>(
            std::min<std::uint64_t>(bytes.size(), block_end + 1) - block_begin);
        const std::uint8_t* data = bytes.memory() ? bytes.memory() + block_begin : nullptr;
        if (!data) {
            block.resize(readable);
            bytes.read(block_begin, block.data(), readable);
            data = block.data();
        }
        const auto scanned = static_cast<std::size_t>(block_end - block_begin);
        for (std::size_t i = 0; i < scanned; ++i) {
            const void* next = std::memchr(data + i, 0xFF, scanned - i);
            if (!next) break;
            i = static_cast<std::size_t>(static_cast<const std::uint8_t*>(next) - data);
            if (i + 1 >= readable) break;  // the file's last byte
            const int code = data[i + 1];
            if (code == 0x00 || code == 0xFF) continue;
            const Marker marker{block_begin + i, code};
            if (code < kMarkerRST0 || code > kMarkerRST7) {
                found.end = marker;
                return;
            }
            if (found.restarts.size() == most_restarts) {
                found.too_many = true;
                return;
            }
            found.restarts.push_back(marker);
        }
    }
}

// Every marker of the scan, in order, the stretches looked through on up to `threads` threads.
// Returns false when the scan holds more restarts than `most_restarts` or has no end.
bool find_scan_markers(const JpegBytes& bytes, std::uint64_t begin, std::size_t most_restarts,
                       unsigned threads, std::vector<Marker>& restarts, Marker& end)
{
    const std::uint64_t length = bytes.size() - std::min(bytes.size(), begin);
    const std::size_t stretches = static_cast<std::size_t>(std::clamp<std::uint64_t>(
        (length + kScanBlockBytes - 1) / kScanBlockBytes, 1, std::max(1u, threads)));
    const std::uint64_t stretch_bytes = (length + stretches - 1) / stretches;
    std::vector<StretchMarkers> found(stretches);
    std::vector<std::exception_ptr> errors(stretches);
    const auto look = [&](std::size_t s) {
        try {
            const std::uint64_t from = begin + s * stretch_bytes;
            const std::uint64_t to = std::min(begin + length, from + stretch_bytes);
            find_markers(bytes, from, to, most_restarts, found[s]);
        } catch (...) {
            errors[s] = std::current_exception();
        }
    };
    run_each_on_a_thread(stretches, look);
    for (const auto& error : errors)
        if (error) std::rethrow_exception(error);

    for (StretchMarkers& stretch : found) {
        if (stretch.too_many || restarts.size() + stretch.restarts.size() > most_restarts)
            return false;
        restarts.insert(restarts.end(), stretch.restarts.begin(), stretch.restarts.end());
        if (stretch.end) {
            end = *stretch.end;
            return true;
        }
    }
    return false;  // truncated: the scan never ends
}

}  // namespace

std::optional<JpegScanHeader> read_scan_header(const JpegBytes& bytes)
{
    ByteWindow window(bytes);
    return read_headers(window);
}

std::optional<RestartLayout> find_restart_intervals(const JpegBytes& bytes, unsigned threads)
{
    ByteWindow window(bytes);
    const std::optional<Frame> frame = read_headers(window);
    if (!frame || frame->restart_interval == 0) return std::nullopt;

    // An MCU is one block of a single-component scan, else max_h x max_v blocks of 8x8 pixels.
    const bool interleaved = frame->components > 1;
    const int mcu_width = interleaved ? 8 * frame->most_h : 8;
    const int mcu_height = interleaved ? 8 * frame->most_v : 8;
    const std::uint64_t mcus_per_row =
        (static_cast<std::uint64_t>(frame->width) + mcu_width - 1) / mcu_width;
    const std::uint64_t mcu_rows =
        (static_cast<std::uint64_t>(frame->height) + mcu_height - 1) / mcu_height;
    const std::uint64_t mcus = mcus_per_row * mcu_rows;
    const auto restart_interval = static_cast<std::uint64_t>(frame->restart_interval);
    // Where an interval and a row of MCUs start together (the header's comment): every
    // lcm(interval, MCUs per row) MCUs. Fewer than two such strips leave nothing to share.
    const std::uint64_t strip_mcus = std::lcm(restart_interval, mcus_per_row);
    if (mcus <= strip_mcus) return std::nullopt;
    const std::uint64_t intervals = (mcus + restart_interval - 1) / restart_interval;
    // Each interval costs about 100 bytes of bookkeeping (its marker and offsets here, two spans
    // in its piece): with a restart after every MCU or two, more than a grey image's own pixels.
    // Past as many intervals as a file of row intervals could hold, each must average 256 pixels.
    constexpr std::uint64_t kIntervalsAlwaysTaken = 65536, kLeastPixelsPerInterval = 256;
    const std::uint64_t pixels =
        static_cast<std::uint64_t>(frame->width) * static_cast<std::uint64_t>(frame->height);
    if (intervals > kIntervalsAlwaysTaken && intervals * kLeastPixelsPerInterval > pixels)
        return std::nullopt;

    std::vector<Marker> restarts;
    Marker end{};
    const auto most_restarts = static_cast<std::size_t>(intervals - 1);
    if (!find_scan_markers(bytes, frame->entropy_begin, most_restarts, threads, restarts, end) ||
        restarts.size() != most_restarts || end.code != kMarkerEOI)
        return std::nullopt;
    for (std::size_t i = 0; i < restarts.size(); ++i)
        if (restarts[i].code != kMarkerRST0 + static_cast<int>(i % 8)) return std::nullopt;

    RestartLayout layout;
    layout.width = static_cast<std::uint32_t>(frame->width);
    layout.height = static_cast<std::uint32_t>(frame->height);
    layout.intervals_per_strip = static_cast<std::uint32_t>(strip_mcus / restart_interval);
    layout.rows_per_strip = static_cast<std::uint32_t>(strip_mcus / mcus_per_row * mcu_height);
    layout.needs_neighbour_rows = frame->vertically_subsampled;
    layout.height_offset = frame->height_offset;
    layout.entropy_begin = frame->entropy_begin;
    layout.interval_begin.push_back(frame->entropy_begin);
    for (const Marker& restart : restarts) {
        layout.interval_end.push_back(restart.at);
        layout.interval_begin.push_back(restart.at + 2);
    }
    layout.interval_end.push_back(end.at);
    return layout;
}

}  // namespace sdk
