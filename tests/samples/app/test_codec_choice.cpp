// SPDX-License-Identifier: Apache-2.0
// Where PNG outputs are compressed (samples/app/png_deflate_choice.hpp): SDK_PNG_DEFLATE forces
// the host or the device, `measure` times both once and caches the faster, unset means the
// cached choice or else the host, and anything else is a usage error.
#include "samples/app/png_deflate_choice.hpp"
#include "common/runtime/errors.hpp"
#include "kernels/tuning_cache.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace sdk {
namespace {

class PngDeflateChoice : public ::testing::Test {
protected:
    void SetUp() override
    {
        folder_ = std::filesystem::temp_directory_path() /
                  ("sdk-png-deflate-choice-" + std::to_string(::getpid()));
        std::filesystem::create_directories(folder_);
        cache_ = folder_ / "tuning.txt";
        ::setenv("SDK_TUNING_CACHE", cache_.c_str(), 1);
        ::unsetenv("SDK_PNG_DEFLATE");
    }
    void TearDown() override
    {
        ::unsetenv("SDK_TUNING_CACHE");
        ::unsetenv("SDK_PNG_DEFLATE");
        std::filesystem::remove_all(folder_);
    }
    std::string cached() const
    {
        return read_tuning_entry(cache_, "png_deflate " + device_key(test::test_context().device))
            .value_or("");
    }

    std::filesystem::path folder_;
    std::filesystem::path cache_;
};

TEST_F(PngDeflateChoice, ForcedByTheEnvironment)
{
    const OpenClContext& cl = test::test_context();
    ::setenv("SDK_PNG_DEFLATE", "host", 1);
    EXPECT_EQ(choose_png_deflate(cl), PngDeflatePlace::host);
    ::setenv("SDK_PNG_DEFLATE", "device", 1);
    EXPECT_EQ(choose_png_deflate(cl), PngDeflatePlace::device);  // PoCL is little-endian
    ::setenv("SDK_PNG_DEFLATE", "gpu", 1);
    EXPECT_THROW(choose_png_deflate(cl), UsageError);
    EXPECT_EQ(cached(), "") << "a forced choice is not cached";
}

TEST_F(PngDeflateChoice, UnsetIsTheCachedChoiceElseTheHost)
{
    const OpenClContext& cl = test::test_context();
    EXPECT_EQ(choose_png_deflate(cl), PngDeflatePlace::host);
    EXPECT_EQ(cached(), "") << "unset never measures";
    const std::string key = "png_deflate " + device_key(cl.device);
    ASSERT_TRUE(write_tuning_entry(cache_, key, "device"));
    EXPECT_EQ(choose_png_deflate(cl), PngDeflatePlace::device);
    ::setenv("SDK_PNG_DEFLATE", "measure", 1);  // cached: no measurement
    EXPECT_EQ(choose_png_deflate(cl), PngDeflatePlace::device);
}

TEST_F(PngDeflateChoice, MeasureCachesTheFaster)
{
    ::setenv("SDK_PNG_DEFLATE", "measure", 1);
    const PngDeflatePlace place = choose_png_deflate(test::test_context());
    EXPECT_EQ(cached(), place_name(place));
}

}  // namespace
}  // namespace sdk
