// SPDX-License-Identifier: Apache-2.0
// End to end: --jpeg-idct device (the host entropy-decodes a JPEG, the device runs its inverse
// DCT, common/codecs/jpeg_idct/) writes exactly the bytes --jpeg-idct host writes, for each sample
// on the device pipeline, on JPEGs of every kind (grey, 4:2:0, 4:2:2, progressive, restart markers,
// partial blocks), whole and cut into bands.
#include "child_process.hpp"
#include "codec_builders.hpp"
#include "imageio_test_support.hpp"
#include "common/imageio/file_io.hpp"
#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

class JpegIdctRuns : public decodetest::FolderTest {
protected:
    void SetUp() override
    {
        FolderTest::SetUp();
        root_ = folder_;
        logs_ = root_ / "logs";
        fs::create_directory(logs_);
    }

    fs::path write_jpeg(const std::string& name, codectest::JpegSpec spec)
    {
        std::mt19937 random(static_cast<std::uint32_t>(spec.width * 31 + spec.height));
        spec.pixels.resize(static_cast<std::size_t>(spec.width) * spec.height * spec.components);
        for (std::size_t i = 0; i < spec.pixels.size(); ++i)
            spec.pixels[i] = static_cast<std::uint8_t>((i / 3 % 97) * 2 + random() % 40);
        const std::vector<std::uint8_t> bytes = codectest::build_jpeg(spec);
        const fs::path path = root_ / name;
        sdk::write_file_atomically(path, bytes.data(), bytes.size());
        return path;
    }

    // Runs `sample` on `input` into `output` with `options`; expects success, returns stdout.
    std::string run(const std::string& sample, const fs::path& input, const fs::path& output,
                    std::vector<std::string> options)
    {
        std::vector<std::string> arguments{"-i", input.string(), "-o", output.string()};
        arguments.insert(arguments.end(), options.begin(), options.end());
        const Outcome outcome =
            run_program(sdk::executable_directory() / sample, arguments, root_, logs_);
        EXPECT_TRUE(outcome.exited && outcome.status == 0)
            << outcome.how << "; stderr: " << outcome.err << "\nstdout: " << outcome.out;
        return outcome.out;
    }

    // The device IDCT's output against the host decoder's, byte for byte; the device's run must
    // have run the kernel (its step table names it).
    void expect_same_output(const std::string& sample, const fs::path& input,
                            const std::vector<std::string>& options = {})
    {
        SCOPED_TRACE(sample + " on " + input.filename().string());
        std::vector<std::string> host = options, device = options;
        host.insert(host.end(), {"--jpeg-idct", "host"});
        device.insert(device.end(), {"--jpeg-idct", "device"});
        const std::string host_log = run(sample, input, root_ / "host.bmp", host);
        const std::string device_log = run(sample, input, root_ / "device.bmp", device);
        EXPECT_EQ(host_log.find("kernel jpeg_idct_luminance"), std::string::npos) << host_log;
        EXPECT_NE(device_log.find("kernel jpeg_idct_luminance"), std::string::npos) << device_log;
        EXPECT_EQ(sdk::read_file(root_ / "device.bmp"), sdk::read_file(root_ / "host.bmp"))
            << "the outputs differ";
    }

    fs::path root_;
    fs::path logs_;
};

const std::vector<std::string> kSobel{"--variant", "16x1"};

TEST_F(JpegIdctRuns, DeviceWritesTheHostsBytes)
{
    codectest::JpegSpec colour;
    colour.width = 37;
    colour.height = 23;
    colour.components = 3;
    colour.subsampled = true;  // 4:2:0
    colour.quality = 90;
    const fs::path photo = write_jpeg("photo.jpg", colour);
    // Kernels and work-groups named, so that no run starts tuning on a fresh cache.
    expect_same_output("sobel", photo, kSobel);
    expect_same_output("fir_float", photo, {"--variant", "buffer"});
    expect_same_output("morphology_packed", photo, {"--work-group", "8x4"});
    // Bands of 7 rows: each band's blocks start inside a row of blocks.
    expect_same_output("sobel", photo, {"--variant", "16x1", "--band-rows", "7"});

    codectest::JpegSpec grey;
    grey.width = 17;
    grey.height = 5;
    grey.components = 1;
    grey.progressive = true;
    grey.quality = 100;
    expect_same_output("sobel", write_jpeg("grey.jpg", grey), kSobel);

    codectest::JpegSpec wide;  // 4:2:2 with a restart marker after every MCU
    wide.width = 70;
    wide.height = 9;
    wide.components = 3;
    wide.luma_h = 2;
    wide.luma_v = 1;
    wide.quality = 50;
    wide.restart_mcus = 1;
    expect_same_output("sobel", write_jpeg("wide.jpg", wide),
                       {"--variant", "16x1", "--memory", "map"});

    // A batch: every photo of a folder, each its own run.
    const fs::path photos = root_ / "photos";
    fs::create_directory(photos);
    for (const char* name : {"photo.jpg", "grey.jpg", "wide.jpg"})
        fs::rename(root_ / name, photos / name);
    for (const char* where : {"host", "device"})
        run("sobel", photos, root_ / where,
            {"--variant", "16x1", "--output-format", "bmp", "--jpeg-idct", where});
    for (const char* name : {"photo.bmp", "grey.bmp", "wide.bmp"})
        EXPECT_EQ(sdk::read_file(root_ / "device" / name), sdk::read_file(root_ / "host" / name))
            << "the batch's " << name << " differs";
}

}  // namespace
