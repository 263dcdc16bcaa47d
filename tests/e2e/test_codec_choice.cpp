// SPDX-License-Identifier: Apache-2.0
// End to end: the codecs' choice per device (common/codecs/codec_choice.hpp) through `sobel`, each
// test with a tuning cache of its own. `measure` times both codecs once and caches the winners,
// which a second run reads without measuring; a JPEG opened before the device is known follows
// the device its selection found last time, and a wrong guess (a cached "device" for another
// device) still writes the host path's bytes and corrects the record; bad values exit 2.
#include "child_process.hpp"
#include "codec_builders.hpp"
#include "imageio_test_support.hpp"
#include "common/imageio/file_io.hpp"
#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

constexpr const char* kKernelStep = "kernel jpeg_idct_luminance";

class CodecChoiceRuns : public decodetest::FolderTest {
protected:
    void SetUp() override
    {
        FolderTest::SetUp();
        logs_ = folder_ / "logs";
        fs::create_directory(logs_);
        cache_ = folder_ / "tuning.txt";
        // A 4:2:0 photo of awkward size, its blocks cut by the image's edges.
        codectest::JpegSpec spec;
        spec.width = 45;
        spec.height = 29;
        spec.components = 3;
        spec.subsampled = true;
        spec.quality = 90;
        spec.pixels.resize(spec.width * spec.height * 3);
        for (std::size_t i = 0; i < spec.pixels.size(); ++i)
            spec.pixels[i] = static_cast<std::uint8_t>(i * 37 % 251);
        const std::vector<std::uint8_t> bytes = codectest::build_jpeg(spec);
        photo_ = folder_ / "photo.jpg";
        sdk::write_file_atomically(photo_, bytes.data(), bytes.size());
    }

    // `sample` on the photo into `output`, the variant named so that nothing is tuned.
    Outcome run(const std::string& output, std::vector<std::string> options,
                std::map<std::string, std::string> environment = {},
                const std::string& sample = "sobel")
    {
        std::vector<std::string> arguments{"-i", photo_.string(), "-o",
                                           (folder_ / output).string()};
        if (sample == "sobel") arguments.insert(arguments.end(), {"--variant", "16x1"});
        arguments.insert(arguments.end(), options.begin(), options.end());
        RunOptions settings;
        settings.environment = std::move(environment);
        settings.environment.emplace("SDK_TUNING_CACHE", cache_.string());
        for (const char* variable : {"SDK_PNG_DEFLATE", "SDK_JPEG_IDCT"})
            settings.environment.emplace(variable, "");
        return run_program(sdk::executable_directory() / sample, arguments, folder_, logs_,
                           settings);
    }
    Outcome run_ok(const std::string& output, std::vector<std::string> options,
                   std::map<std::string, std::string> environment = {})
    {
        const Outcome outcome = run(output, std::move(options), std::move(environment));
        EXPECT_TRUE(outcome.exited && outcome.status == 0)
            << outcome.how << "; stderr: " << outcome.err << "\nstdout: " << outcome.out;
        return outcome;
    }

    // The cache's line whose key starts with `prefix`, or "".
    std::string cache_line(const std::string& prefix) const
    {
        std::istringstream lines(read_text(cache_));
        for (std::string line; std::getline(lines, line);)
            if (line.rfind(prefix, 0) == 0) return line;
        return "";
    }

    fs::path logs_;
    fs::path cache_;
    fs::path photo_;
};

TEST_F(CodecChoiceRuns, MeasureCachesBothWinnersAndASecondRunReadsThem)
{
    const std::vector<std::string> measure{"--png-deflate", "measure", "--jpeg-idct", "measure"};
    const Outcome first = run_ok("first.png", measure);
    EXPECT_NE(first.out.find("Measured PNG compression"), std::string::npos) << first.out;
    EXPECT_NE(first.out.find("Measured the JPEG inverse DCT"), std::string::npos) << first.out;
    for (const char* codec : {"png_deflate ", "jpeg_idct "}) {
        const std::string line = cache_line(codec);
        EXPECT_TRUE(line.size() > 5 && (line.substr(line.size() - 5) == "\thost" ||
                                        line.substr(line.size() - 7) == "\tdevice"))
            << codec << "'s line: '" << line << "'";
    }
    EXPECT_NE(cache_line("device_found"), "") << read_text(cache_);

    const Outcome second = run_ok("second.png", measure);
    EXPECT_EQ(second.out.find("Measured"), std::string::npos) << second.out;
    EXPECT_EQ(sdk::read_file(folder_ / "second.png"), sdk::read_file(folder_ / "first.png"));
    // With -q a measurement runs silently (a cache of its own: nothing cached there).
    const fs::path quiet_cache = folder_ / "quiet.txt";
    const Outcome quiet = run_ok("quiet.png", {"-q", "--png-deflate", "measure"},
                                 {{"SDK_TUNING_CACHE", quiet_cache.string()}});
    EXPECT_EQ(quiet.out, "");
    EXPECT_NE(read_text(quiet_cache).find("png_deflate "), std::string::npos);
}

TEST_F(CodecChoiceRuns, AWrongGuessWritesTheHostsBytesAndCorrectsTheRecord)
{
    // The record's key names the selection and the variables that pick devices (a driver's
    // list, OCL_ICD_VENDORS here on some machines): learnt from a run that writes it.
    run_ok("learn.bmp", {"--jpeg-idct", "measure"});
    const std::string learnt = cache_line("device_found");
    ASSERT_NE(learnt.find('\t'), std::string::npos) << read_text(cache_);
    const std::string key = learnt.substr(0, learnt.find('\t'));
    // The selection found another device last time, whose cached choice is the device's IDCT.
    const std::string other = "Another platform | Another GPU | 1.0";
    const std::string lines = key + "\t" + other + "\njpeg_idct " + other + "\tdevice\n";
    sdk::write_file_atomically(cache_, reinterpret_cast<const std::uint8_t*>(lines.data()),
                               lines.size());
    const Outcome guessed = run_ok("guessed.bmp", {});
    EXPECT_NE(guessed.out.find(kKernelStep), std::string::npos) << "the guess was not followed";
    // The option wins over the variable: the host's own decoding.
    const Outcome host = run_ok("host.bmp", {"--jpeg-idct", "host"}, {{"SDK_JPEG_IDCT", "device"}});
    EXPECT_EQ(host.out.find(kKernelStep), std::string::npos);
    EXPECT_EQ(sdk::read_file(folder_ / "guessed.bmp"), sdk::read_file(folder_ / "host.bmp"));
    const std::string record = cache_line(key + "\t");
    EXPECT_NE(record, "");
    EXPECT_EQ(record.find(other), std::string::npos) << "not corrected: " << record;
    // Now the record names this device, which has no choice cached: the host, as unset says.
    const Outcome next = run_ok("next.bmp", {});
    EXPECT_EQ(next.out.find(kKernelStep), std::string::npos);
    // The variable alone is read.
    const Outcome variable = run_ok("variable.bmp", {}, {{"SDK_JPEG_IDCT", "device"}});
    EXPECT_NE(variable.out.find(kKernelStep), std::string::npos);
}

TEST_F(CodecChoiceRuns, BadValuesExitTwo)
{
    for (const auto& [options, environment, named] :
         {std::tuple<std::vector<std::string>, std::map<std::string, std::string>, std::string>{
              {"--jpeg-idct", "gpu"}, {}, "--jpeg-idct"},
          {{}, {{"SDK_JPEG_IDCT", "gpu"}}, "SDK_JPEG_IDCT='gpu'"},
          {{}, {{"SDK_PNG_DEFLATE", "cpu"}}, "SDK_PNG_DEFLATE='cpu'"}}) {
        const Outcome outcome = run("refused.png", options, environment);
        EXPECT_TRUE(outcome.exited && outcome.status == 2) << outcome.how << " " << outcome.err;
        EXPECT_NE(outcome.err.find(named), std::string::npos) << outcome.err;
        EXPECT_EQ(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 1) << outcome.err;
        EXPECT_FALSE(fs::exists(folder_ / "refused.png"));
    }
}

// sobel_no_vectors takes sobel's steps (samples/app/device_run.hpp), the JPEG's luminance on the
// device among them: asked for, the IDCT kernel runs, and the output is sobel's to the byte.
TEST_F(CodecChoiceRuns, TheNaiveSobelDecodesOnTheDeviceToo)
{
    const Outcome naive = run("naive.bmp", {"--jpeg-idct", "device"}, {}, "sobel_no_vectors");
    ASSERT_TRUE(naive.exited && naive.status == 0) << naive.how << " " << naive.err;
    EXPECT_EQ(naive.err, "");
    EXPECT_NE(naive.out.find(kKernelStep), std::string::npos) << naive.out;
    run_ok("vectors.bmp", {"--jpeg-idct", "device"});
    EXPECT_EQ(sdk::read_file(folder_ / "naive.bmp"), sdk::read_file(folder_ / "vectors.bmp"));
}

}  // namespace
