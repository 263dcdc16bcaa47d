// SPDX-License-Identifier: Apache-2.0
// Decoding a photo beside the device's start (common/codecs/decoding_ahead.hpp): the luminance
// taken is the one decoding on the spot gives, its rows can be taken before the rest are decoded, a
// damaged file's error comes out of take() and rows(), and an object never taken waits for its
// thread rather than leave it running.
#include "common/codecs/decoding_ahead.hpp"
#include "samples/app/device_io.hpp"
#include "common/codecs/jpeg_idct/jpeg_idct_reference.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/image_file.hpp"
#include "common/imageio/luminance.hpp"

#include "codec_builders.hpp"
#include "imageio_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace sdk {
namespace {

namespace fs = std::filesystem;

class DecodingAheadTest : public decodetest::FolderTest {
protected:
    fs::path write(const std::string& name, const std::vector<std::uint8_t>& bytes)
    {
        write_file_atomically(folder_ / name, bytes.data(), bytes.size());
        return folder_ / name;
    }
    static std::vector<std::uint8_t> jpeg(int width, int height)
    {
        codectest::JpegSpec spec;
        spec.width = width;
        spec.height = height;
        spec.components = 3;
        spec.pixels.resize(static_cast<std::size_t>(width * height * 3));
        for (std::size_t i = 0; i < spec.pixels.size(); ++i)
            spec.pixels[i] = static_cast<std::uint8_t>(i * 37 % 251);
        return codectest::build_jpeg(spec);
    }
};

// Asked for coefficients, a JPEG stops at them (the device's IDCT takes them), and take() still
// gives the luminance a decoding on the spot gives, made from them by the reference IDCT.
TEST_F(DecodingAheadTest, StopsAtAJpegsCoefficients)
{
    for (const auto& [width, height] :
         std::vector<std::pair<int, int>>{{1, 1}, {17, 5}, {130, 67}}) {
        const fs::path photo = write("photo.jpg", jpeg(width, height));
        const InputFile file(photo);
        DecodingAhead ahead(file, DecodingAhead::Output::coefficients);
        EXPECT_TRUE(ahead.wants_coefficients());
        const JpegLuminanceCoefficients* plane = ahead.coefficients();
        ASSERT_NE(plane, nullptr) << width << "x" << height;
        EXPECT_EQ(plane->width, static_cast<std::size_t>(width));
        EXPECT_EQ(plane->blocks_high, static_cast<std::size_t>((height + 7) / 8));
        EXPECT_EQ(ahead.take().pixels, sdk::read_luminance(InputFile(photo)).pixels)
            << width << "x" << height;
    }
}

// `file` written again from its own coefficients with every coefficient of the luminance's first
// block set to `value` (libjpeg's lossless transcoding, as jpegtran does it): a block no encoder
// writes.
std::vector<std::uint8_t> with_first_block(const std::vector<std::uint8_t>& file, JCOEF value)
{
    jpeg_decompress_struct source{};
    jpeg_compress_struct target{};
    jpeg_error_mgr errors{};
    source.err = target.err = jpeg_std_error(&errors);
    errors.error_exit = codectest::abort_on_error;
    jpeg_create_decompress(&source);
    jpeg_create_compress(&target);
    jpeg_mem_src(&source, file.data(), static_cast<unsigned long>(file.size()));
    jpeg_read_header(&source, TRUE);
    jvirt_barray_ptr* planes = jpeg_read_coefficients(&source);
    JBLOCKARRAY first = source.mem->access_virt_barray(reinterpret_cast<j_common_ptr>(&source),
                                                       planes[0], 0, 1, TRUE);
    for (JCOEF& coefficient : first[0][0]) coefficient = value;
    unsigned char* memory = nullptr;
    unsigned long size = 0;
    jpeg_mem_dest(&target, &memory, &size);
    jpeg_copy_critical_parameters(&source, &target);
    target.optimize_coding = TRUE;  // Huffman tables for whatever the blocks hold
    jpeg_write_coefficients(&target, planes);
    jpeg_finish_compress(&target);
    jpeg_finish_decompress(&source);
    std::vector<std::uint8_t> out(memory, memory + size);
    jpeg_destroy_compress(&target);
    jpeg_destroy_decompress(&source);
    std::free(memory);
    return out;
}

// A block beyond the IDCT's exact range (idct_exact_for): the file is decoded to luminance as
// without coefficients, by libjpeg.
TEST_F(DecodingAheadTest, DecodesToLuminanceWhatTheIdctWouldNotReproduce)
{
    const fs::path photo = write("crafted.jpg", with_first_block(jpeg(16, 16), 1000));
    {
        // The file is what the test needs: its coefficients beyond the range.
        const auto plane = read_jpeg_luminance_coefficients(InputFile(photo));
        ASSERT_TRUE(plane);
        ASSERT_FALSE(idct_exact_for(*plane));
    }
    const InputFile file(photo);
    DecodingAhead ahead(file, DecodingAhead::Output::coefficients);
    EXPECT_EQ(ahead.coefficients(), nullptr);
    EXPECT_EQ(ahead.take().pixels, sdk::read_luminance(InputFile(photo)).pixels);
}

// A damaged JPEG's error comes out of coefficients(), as out of rows().
TEST_F(DecodingAheadTest, CoefficientsRethrowTheDecodingsError)
{
    std::vector<std::uint8_t> bytes = jpeg(64, 64);
    bytes.resize(bytes.size() / 2);
    const fs::path photo = write("cut.jpg", bytes);
    const InputFile file(photo);
    DecodingAhead ahead(file, DecodingAhead::Output::coefficients);
    EXPECT_THROW(ahead.coefficients(), ImageError);
}

TEST_F(DecodingAheadTest, TakesTheLuminanceADecodingOnTheSpotGives)
{
    for (const auto& [width, height] :
         std::vector<std::pair<int, int>>{{1, 1}, {17, 5}, {130, 67}}) {
        const fs::path photo = write("photo.jpg", jpeg(width, height));
        const InputFile file(photo);
        DecodingAhead ahead(file);
        const Image taken = ahead.take();
        const Image expected = sdk::read_luminance(InputFile(photo));
        EXPECT_EQ(taken.width, expected.width);
        EXPECT_EQ(taken.height, expected.height);
        EXPECT_EQ(taken.channels, 1);
        EXPECT_EQ(taken.pixels, expected.pixels) << width << "x" << height;
    }
}

// rows(n) returns once the first n rows are in place: they are already the final pixels, and
// asking for more than the height waits for the whole image.
TEST_F(DecodingAheadTest, RowsAreTheFinalPixelsOnceReturned)
{
    const fs::path photo = write("photo.jpg", jpeg(300, 200));
    const Image expected = sdk::read_luminance(InputFile(photo));
    const InputFile file(photo);
    DecodingAhead ahead(file);
    for (const std::size_t count :
         {std::size_t{1}, std::size_t{64}, std::size_t{65}, std::size_t{200}}) {
        const Image& rows = ahead.rows(count);
        ASSERT_EQ(rows.width, 300u);
        ASSERT_EQ(rows.height, 200u);
        EXPECT_TRUE(std::equal(expected.pixels.begin(), expected.pixels.begin() + count * 300,
                               rows.pixels.begin()))
            << count << " rows";
    }
    EXPECT_EQ(ahead.rows(100000).pixels, expected.pixels);
    EXPECT_EQ(ahead.take().pixels, expected.pixels);
}

TEST_F(DecodingAheadTest, ADamagedFilesErrorComesOutOfTake)
{
    std::vector<std::uint8_t> damaged = jpeg(64, 48);
    damaged.resize(damaged.size() - damaged.size() / 3);  // the header whole, the scan cut short
    const fs::path photo = write("damaged.jpg", damaged);
    const InputFile file(photo);
    DecodingAhead ahead(file);
    ahead.wait_until_finished();  // keeps the error for the call that takes the pixels
    EXPECT_THROW(ahead.rows(48), ImageError);
    EXPECT_THROW(ahead.take(), ImageError);
}

// wait_until_finished returns once every row is decoded: the last row is final then.
TEST_F(DecodingAheadTest, WaitsUntilTheWholeImageIsDecoded)
{
    const fs::path photo = write("photo.jpg", jpeg(128, 3000));
    const Image expected = sdk::read_luminance(InputFile(photo));
    const InputFile file(photo);
    DecodingAhead ahead(file);
    ahead.wait_until_finished();
    const Image& rows = ahead.rows(1);  // the first row alone: any later row may be unwritten
    EXPECT_EQ(rows.pixels, expected.pixels);
}

// Destroyed before anything is taken, it waits for its thread: the decoding, which reads the
// file it was given, has read it as a whole decoding does by the time the destructor returns
// (a thread left running would read a file the caller may have closed).
TEST_F(DecodingAheadTest, NeverTakenItWaitsForItsThread)
{
    const fs::path photo = write("photo.jpg", jpeg(640, 480));
    std::uint64_t whole_decoding_reads = 0;
    {
        const InputFile file(photo);
        DecodingAhead ahead(file);
        ahead.wait_until_finished();
        whole_decoding_reads = file.reads();
    }
    ASSERT_GT(whole_decoding_reads, 0u);
    const InputFile file(photo);
    {
        DecodingAhead ahead(file);
    }  // destroyed at once, while decoding
    EXPECT_EQ(file.reads(), whole_decoding_reads);
}

// open_image starts it only where asked and only for pixels the host must decode.
TEST_F(DecodingAheadTest, OpenImageStartsItOnlyWhereAsked)
{
    const fs::path photo = write("photo.jpg", jpeg(33, 17));
    EXPECT_FALSE(open_image(photo).decoding);
    const OpenedImage opened = open_image(photo, Decoding::ahead);
    ASSERT_TRUE(opened.decoding);
    EXPECT_EQ(opened.decoding->take().width, 33u);
}

}  // namespace
}  // namespace sdk
