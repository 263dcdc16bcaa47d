// SPDX-License-Identifier: Apache-2.0
// The PNG writer's own container and its compression on all cores (common/imageio/png_writer,
// deflate_parallel): what it writes decodes through libpng to exactly the pixels written, on
// every awkward size and however the rows are cut into chunks; the joined zlib stream is one
// stream whose Adler-32 zlib's own inflate checks; failures of the writer or of a chunk leave
// through the call.
#include "imageio_test_support.hpp"
#include "common/imageio/cores.hpp"
#include "common/imageio/deflate_parallel.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/png.hpp"
#include "common/imageio/png_writer.hpp"

#include <gtest/gtest.h>

#include <zlib.h>

#include <sys/resource.h>

#include <csignal>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

using decodetest::expect_same_image;
using sdk::Image;

const decodetest::Decoder kPng{sdk::decode_png, "test.png"};

// Smooth gradients with a little noise, as a photograph's rows are: runs, small differences and
// some randomness, so every kind of deflate block shows up.
Image photo_like_image(std::size_t width, std::size_t height, int channels, unsigned seed)
{
    Image image{width, height, channels, std::vector<std::uint8_t>(width * height * channels)};
    std::mt19937 generator(seed);
    std::uniform_int_distribution<int> noise(-2, 2);
    std::size_t at = 0;
    for (std::size_t y = 0; y < height; ++y)
        for (std::size_t x = 0; x < width; ++x)
            for (int channel = 0; channel < channels; ++channel)
                image.pixels[at++] =
                    static_cast<std::uint8_t>((x + 2 * y + 40 * channel) / 3 + noise(generator));
    return image;
}

std::vector<std::uint8_t> encode(const Image& image, const sdk::DeflateChunking& chunking)
{
    std::vector<std::uint8_t> bytes;
    sdk::write_png_stream(
        image,
        [&](const std::uint8_t* data, std::size_t size) {
            bytes.insert(bytes.end(), data, data + size);
        },
        chunking);
    return bytes;
}

std::uint32_t get32(const std::uint8_t* at)
{
    return std::uint32_t{at[0]} << 24 | std::uint32_t{at[1]} << 16 | std::uint32_t{at[2]} << 8 |
           at[3];
}

// The zlib stream: every IDAT's data, in order.
std::vector<std::uint8_t> zlib_stream_of(const std::vector<std::uint8_t>& png,
                                         int* idat_count = nullptr)
{
    std::vector<std::uint8_t> stream;
    for (std::size_t at = 8; at + 12 <= png.size();) {
        const std::size_t length = get32(&png[at]);
        if (std::memcmp(&png[at + 4], "IDAT", 4) == 0) {
            stream.insert(stream.end(), png.begin() + at + 8, png.begin() + at + 8 + length);
            if (idat_count) ++*idat_count;
        }
        at += 12 + length;
    }
    return stream;
}

// Inflates with zlib directly, which checks the trailer's Adler-32 against the bytes it gave.
std::vector<std::uint8_t> inflate_all(const std::vector<std::uint8_t>& stream,
                                      std::size_t expected_size)
{
    std::vector<std::uint8_t> out(expected_size + 1);  // one spare byte: too much data shows
    z_stream inflater{};
    EXPECT_EQ(inflateInit(&inflater), Z_OK);
    inflater.next_in = const_cast<Bytef*>(stream.data());
    inflater.avail_in = static_cast<uInt>(stream.size());
    inflater.next_out = out.data();
    inflater.avail_out = static_cast<uInt>(out.size());
    const int status = inflate(&inflater, Z_FINISH);
    EXPECT_EQ(status, Z_STREAM_END) << (inflater.msg ? inflater.msg : "");
    EXPECT_EQ(inflater.avail_in, 0u) << "bytes after the zlib stream";
    out.resize(inflater.total_out);
    inflateEnd(&inflater);
    return out;
}

struct Shape {
    std::size_t width;
    std::size_t height;
};
const Shape kAwkwardShapes[] = {{1, 1}, {2, 3}, {17, 5}, {1, 1000}, {1000, 1}, {301, 7}, {64, 64}};

TEST(PngWriter, EveryAwkwardSizeDecodesToThePixelsWritten)
{
    // Default chunking (one chunk, these are small), one row a chunk, chunks that end inside
    // the second and third rows, and chunks of 1000 bytes, larger than some whole images.
    const sdk::DeflateChunking chunkings[] = {{}, {1, 3}, {20, 2}, {50, 4}, {1000, 2}};
    unsigned seed = 1;
    for (const Shape shape : kAwkwardShapes) {
        for (const int channels : {1, 3}) {
            const Image image = photo_like_image(shape.width, shape.height, channels, seed++);
            for (const sdk::DeflateChunking& chunking : chunkings) {
                SCOPED_TRACE(std::to_string(shape.width) + "x" + std::to_string(shape.height) +
                             "x" + std::to_string(channels) + ", chunks of " +
                             std::to_string(chunking.chunk_bytes) + " bytes");
                expect_same_image(kPng.decode(encode(image, chunking)), image);
            }
        }
    }
}

TEST(PngWriter, RandomPixelsToo)
{
    // Incompressible rows: deflate stores them, and the stored blocks must join as well.
    Image image{257, 33, 3, std::vector<std::uint8_t>(257 * 33 * 3)};
    std::mt19937 generator(5);
    for (auto& value : image.pixels) value = static_cast<std::uint8_t>(generator());
    expect_same_image(kPng.decode(encode(image, {800, 2})), image);
}

TEST(PngWriter, DefaultChunkingOfALargeImageUsesSeveralChunksAndThreads)
{
    // 4.5 MB of pixels: above the one-chunk limit, so the workers share it.
    const Image image = photo_like_image(1500, 1000, 3, 9);
    int idat_count = 0;
    const std::vector<std::uint8_t> png = encode(image, {});
    const std::vector<std::uint8_t> stream = zlib_stream_of(png, &idat_count);
    EXPECT_GT(idat_count, 1);
    EXPECT_EQ(inflate_all(stream, 1000 * (1 + 1500 * 3)).size(), 1000u * (1 + 1500 * 3));
    expect_same_image(kPng.decode(png), image);
}

TEST(PngWriter, FiltersEveryRowWithUp)
{
    const Image image = photo_like_image(5, 3, 1, 2);
    const std::vector<std::uint8_t> rows = inflate_all(zlib_stream_of(encode(image, {6, 2})), 18);
    ASSERT_EQ(rows.size(), 18u);
    for (std::size_t y = 0; y < 3; ++y) {
        EXPECT_EQ(rows[y * 6], 2) << "row " << y;  // filter type 2, Up
        for (std::size_t x = 0; x < 5; ++x) {
            const int above = y == 0 ? 0 : image.pixels[(y - 1) * 5 + x];
            EXPECT_EQ(rows[y * 6 + 1 + x],
                      static_cast<std::uint8_t>(image.pixels[y * 5 + x] - above));
        }
    }
}

// ----- deflate_rows on its own -------------------------------------------------------------------

sdk::DeflateRows counting_rows(std::size_t row_count, std::size_t row_bytes)
{
    sdk::DeflateRows rows;
    rows.row_count = row_count;
    rows.row_bytes = row_bytes;
    rows.make_rows = [row_bytes](std::size_t first_row, std::size_t count, std::uint8_t* out) {
        for (std::size_t i = 0; i < count * row_bytes; ++i)
            out[i] = static_cast<std::uint8_t>((first_row * row_bytes + i) * 7 / 5);
    };
    return rows;
}

TEST(DeflateRows, ChunksJoinIntoOneStreamWhoseAdlerZlibAccepts)
{
    const sdk::DeflateRows rows = counting_rows(100, 33);
    std::vector<std::uint8_t> expected(100 * 33);
    rows.make_rows(0, 100, expected.data());
    for (const unsigned threads : {1u, 2u, 5u}) {
        SCOPED_TRACE(std::to_string(threads) + " threads");
        std::vector<std::uint8_t> stream;
        int pieces = 0;
        sdk::deflate_rows(rows,
                          [&](const std::uint8_t* data, std::size_t size) {
                              stream.insert(stream.end(), data, data + size);
                              ++pieces;
                          },
                          {33 * 7, threads});
        EXPECT_EQ(pieces, 15);  // ceil(100 / 7) chunks, each one piece
        EXPECT_EQ(inflate_all(stream, expected.size()), expected);
        // A wrong trailer is refused: zlib really checks it.
        stream.back() ^= 1;
        z_stream inflater{};
        ASSERT_EQ(inflateInit(&inflater), Z_OK);
        std::vector<std::uint8_t> out(expected.size());
        inflater.next_in = stream.data();
        inflater.avail_in = static_cast<uInt>(stream.size());
        inflater.next_out = out.data();
        inflater.avail_out = static_cast<uInt>(out.size());
        EXPECT_EQ(inflate(&inflater, Z_FINISH), Z_DATA_ERROR);
        inflateEnd(&inflater);
    }
}

// Each chunk takes the strategy its bytes call for: flat chunks (a mask's runs) the run-length
// one, noisy chunks (a photograph's filtered rows) Huffman coding alone. Alternating chunks of
// each still join into one stream, and the flat ones shrink as only matches can make them (a
// Huffman code spends at least one bit a byte).
TEST(DeflateRows, FlatAndNoisyChunksEachTakeTheirStrategyAndStillJoin)
{
    constexpr std::size_t kRowBytes = 4096, kRowsPerChunk = 16, kChunks = 8;
    sdk::DeflateRows rows;
    rows.row_count = kRowsPerChunk * kChunks;
    rows.row_bytes = kRowBytes;
    rows.make_rows = [](std::size_t first_row, std::size_t count, std::uint8_t* out) {
        // Each byte a function of its place alone, however the rows are asked for.
        for (std::size_t i = 0; i < count * kRowBytes; ++i) {
            const std::size_t at = first_row * kRowBytes + i;
            const bool flat = (at / (kRowsPerChunk * kRowBytes)) % 2 == 0;
            const std::uint32_t hash = static_cast<std::uint32_t>(at) * 2654435761u;
            out[i] = flat ? 0 : static_cast<std::uint8_t>(hash >> 29);  // 8 values: compressible
        }
    };
    std::vector<std::uint8_t> expected(rows.row_count * kRowBytes);
    rows.make_rows(0, rows.row_count, expected.data());
    std::vector<std::uint8_t> stream;
    sdk::deflate_rows(rows,
                      [&](const std::uint8_t* data, std::size_t size) {
                          stream.insert(stream.end(), data, data + size);
                      },
                      {kRowsPerChunk * kRowBytes, 3});
    EXPECT_EQ(inflate_all(stream, expected.size()), expected);
    // Half the input is flat, the other half 3 bits of entropy a byte: about 3/16 of the input
    // in all. With the flat half Huffman-coded it would be over 1/16 more.
    EXPECT_LT(stream.size(), expected.size() * 4 / 16);
}

TEST(DeflateRows, AWriterFailureLeavesThroughTheCall)
{
    const sdk::DeflateRows rows = counting_rows(400, 1000);
    for (const int failing_piece : {1, 2, 30}) {
        int pieces = 0;
        const auto write = [&](const std::uint8_t*, std::size_t) {
            if (++pieces == failing_piece) throw sdk::FileError("out.png: No space left on device");
        };
        EXPECT_THROW(sdk::deflate_rows(rows, write, {1000, 3}), sdk::FileError);
        EXPECT_EQ(pieces, failing_piece);  // nothing written after the failure
    }
}

TEST(DeflateRows, AFailureMakingRowsLeavesThroughTheCall)
{
    sdk::DeflateRows rows = counting_rows(400, 1000);
    rows.make_rows = [](std::size_t first_row, std::size_t, std::uint8_t*) {
        if (first_row >= 200) throw std::runtime_error("rows unavailable");
    };
    int pieces = 0;
    EXPECT_THROW(
        sdk::deflate_rows(rows, [&](const std::uint8_t*, std::size_t) { ++pieces; }, {1000, 3}),
        std::runtime_error);
    EXPECT_EQ(pieces, 200);  // every chunk before the failing one, in order
}

TEST(DeflateRows, RefusesNoRows)
{
    EXPECT_THROW(sdk::deflate_rows(counting_rows(0, 5), [](const std::uint8_t*, std::size_t) {}),
                 std::invalid_argument);
}

// ----- A real file that cannot be written
// ----------------------------------------------------------

// Run in a child process: files limited to 100 kB, as a filling disk. Exits 0 when write_png
// failed with one line naming the file and the reason, and left nothing in the folder.
[[noreturn]] void write_past_the_limit(const std::filesystem::path& path, const Image& image)
{
    std::signal(SIGXFSZ, SIG_IGN);  // a write past the limit fails with EFBIG instead
    const struct rlimit limit {
        100000, 100000
    };
    setrlimit(RLIMIT_FSIZE, &limit);
    try {
        sdk::write_png(path, image);
    } catch (const sdk::FileError& error) {
        const std::string message = error.what();
        const bool one_line = message.find('\n') == std::string::npos;
        const bool named = message.find("File too large") != std::string::npos &&
                           message.find(path.string()) != std::string::npos;
        const bool left_nothing = std::filesystem::is_empty(path.parent_path());
        std::exit(one_line && named && left_nothing ? 0 : 3);
    }
    std::exit(4);
}

using PngWriterFiles = decodetest::FolderTest;

TEST_F(PngWriterFiles, AFileTooLargeFailsWithOneLineAndLeavesNothing)
{
    // The 4.5 MB image's chunks are still being compressed on the workers when a write fails.
    const Image image = photo_like_image(1500, 1000, 3, 4);
    GTEST_FLAG_SET(death_test_style, "threadsafe");  // the child starts afresh, not from a fork
    EXPECT_EXIT(write_past_the_limit(folder_ / "out.png", image), ::testing::ExitedWithCode(0), "");
}

}  // namespace

// A batch's photos in flight share the cores for their codecs, each at least one thread; the
// one photo of a single run has them all.
TEST(ThreadsPerImage, TheCoresAreSharedAmongTheImagesInFlight)
{
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    EXPECT_EQ(sdk::threads_per_image(), cores);
    {
        const sdk::ImageInFlight first;
        EXPECT_EQ(sdk::threads_per_image(), cores);
        const sdk::ImageInFlight second;
        EXPECT_EQ(sdk::threads_per_image(), std::max(1u, cores / 2));
        std::vector<std::unique_ptr<sdk::ImageInFlight>> many;
        for (unsigned i = 0; i < 2 * cores; ++i)
            many.push_back(std::make_unique<sdk::ImageInFlight>());
        EXPECT_EQ(sdk::threads_per_image(), 1u);
    }
    EXPECT_EQ(sdk::threads_per_image(), cores);
}
