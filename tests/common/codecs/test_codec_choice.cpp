// SPDX-License-Identifier: Apache-2.0
// Where the codecs run (common/codecs/codec_choice.hpp): one rule settles both; a JPEG opened
// before the device is known follows the device its selection found last time. (test_cli.cpp
// parses the options and variables; tests/e2e/test_codec_choice.cpp runs the measurements and a
// wrong guess through a sample.)
#include "common/codecs/codec_choice.hpp"
#include "common/imageio/png_writer.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/tuning_cache.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace sdk {
namespace {

class CodecChoiceTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        folder_ = std::filesystem::temp_directory_path() /
                  ("sdk-codec-choice-" + std::to_string(::getpid()) + "-" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
        std::filesystem::create_directories(folder_);
        cache_ = folder_ / "tuning.txt";
        ::setenv("SDK_TUNING_CACHE", cache_.c_str(), 1);
        unset_variables();
    }
    void TearDown() override
    {
        ::unsetenv("SDK_TUNING_CACHE");
        unset_variables();
        std::filesystem::remove_all(folder_);
    }
    static void unset_variables()
    {
        ::unsetenv("SDK_PNG_DEFLATE");
        ::unsetenv("SDK_JPEG_IDCT");
    }

    std::filesystem::path folder_;
    std::filesystem::path cache_;
};

TEST_F(CodecChoiceTest, OneRuleForBoth)
{
    const auto host = CodecPlace::host, device = CodecPlace::device;
    for (bool can : {false, true})
        for (std::optional<CodecPlace> cached :
             {std::optional<CodecPlace>{}, std::optional(host), std::optional(device)}) {
            SCOPED_TRACE(std::string(can ? "the device can" : "the device cannot") + ", cached " +
                         (cached ? place_name(*cached) : "nothing"));
            EXPECT_EQ(codec_place(CodecSetting::host, cached, can), host);
            EXPECT_EQ(codec_place(CodecSetting::device, cached, can), can ? device : host);
            EXPECT_EQ(codec_place(CodecSetting::unset, cached, can),
                      can && cached ? *cached : host);
            EXPECT_EQ(codec_place(CodecSetting::measure, cached, can),
                      can ? cached : std::optional(host));  // nothing: measure now
            // Where unset measures (PNG compression on a GPU): when nothing is cached.
            EXPECT_EQ(codec_place(CodecSetting::unset, cached, can, true),
                      can ? cached : std::optional(host));
            EXPECT_EQ(codec_place(CodecSetting::host, cached, can, true), host);
        }
}

TEST_F(CodecChoiceTest, AJpegFollowsTheDeviceItsSelectionFoundLastTime)
{
    DeviceSelection gpu;
    gpu.type = DeviceType::gpu;
    const std::string device = "Some platform | Some GPU | 1.0";
    CodecSettings unset, measure, host, forced;
    measure.jpeg_idct = CodecSetting::measure;
    host.jpeg_idct = CodecSetting::host;
    forced.jpeg_idct = CodecSetting::device;
    EXPECT_FALSE(expect_jpeg_idct_on_device(unset, gpu)) << "nothing recorded: the host";
    EXPECT_TRUE(expect_jpeg_idct_on_device(forced, gpu));
    ASSERT_TRUE(write_tuning_entry(cache_, device_found_key(gpu), device));
    ASSERT_TRUE(write_tuning_entry(cache_, "jpeg_idct " + device, "device"));
    EXPECT_TRUE(expect_jpeg_idct_on_device(unset, gpu));
    EXPECT_TRUE(expect_jpeg_idct_on_device(measure, gpu));
    EXPECT_FALSE(expect_jpeg_idct_on_device(host, gpu));
    EXPECT_FALSE(expect_jpeg_idct_on_device(unset, DeviceSelection{})) << "another selection";
    EXPECT_NE(device_found_key(gpu), device_found_key(DeviceSelection{}));
    ::setenv("POCL_DEVICES", "pthread", 1);  // the environment picks devices too
    EXPECT_FALSE(expect_jpeg_idct_on_device(unset, gpu));
    ::unsetenv("POCL_DEVICES");
}

// choose_codecs settles a context once per process, so one test settles it: forced choices are
// not cached; the device found is recorded for the selection once it has a choice to find.
TEST_F(CodecChoiceTest, RecordsTheDeviceFoundAndCachesNoForcedChoice)
{
    const OpenClContext& cl = test::test_context();
    DeviceSelection selection;
    selection.platform = 7;  // any selection: the record is what it found
    CodecSettings forced;
    forced.png_deflate = CodecSetting::device;
    forced.jpeg_idct = CodecSetting::host;
    std::ostringstream log;
    const CodecChoice choice = choose_codecs(forced, selection, cl, MemoryMode::copy, log);
    EXPECT_EQ(choice.png_deflate, CodecPlace::device);  // PoCL is little-endian
    EXPECT_EQ(choice.jpeg_idct, CodecPlace::host);
    EXPECT_EQ(log.str(), "") << "nothing measured";
    EXPECT_FALSE(std::filesystem::exists(cache_)) << "nothing to remember, nothing written";
    ASSERT_TRUE(write_tuning_entry(cache_, jpeg_idct_key(cl.device), "device"));
    choose_codecs(forced, selection, cl, MemoryMode::copy, log);
    EXPECT_EQ(read_tuning_entry(cache_, device_found_key(selection)), device_key(cl.device));
    EXPECT_FALSE(read_tuning_entry(cache_, png_deflate_key(cl.device)));
    use_png_rows_encoder({});
}

}  // namespace
}  // namespace sdk
