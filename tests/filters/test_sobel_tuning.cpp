// --variant auto: the tuning cache, and the measurement that fills it.
#include "filters/sobel/sobel_tuning.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

namespace sdk {
namespace {

std::filesystem::path fresh_cache(const std::string& name)
{
    const auto folder = std::filesystem::temp_directory_path() /
                        ("sdk-tuning-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    return folder / "sub" / "tuning.txt";  // the folder is created on write
}

TEST(SobelTuningCache, RoundTripsAndReplacesTheDevicesLine)
{
    const auto cache = fresh_cache("roundtrip");
    EXPECT_FALSE(read_cached_choice(cache, "device A"));
    ASSERT_TRUE(write_cached_choice(cache, "device A", {SobelVariant::packed_16x4, 64, 4}));
    ASSERT_TRUE(write_cached_choice(cache, "device B", {SobelVariant::vector_16x1, 32, 8}));
    ASSERT_TRUE(write_cached_choice(cache, "device A", {SobelVariant::vector_16x4, 16, 16}));
    const auto a = read_cached_choice(cache, "device A");
    ASSERT_TRUE(a);
    EXPECT_EQ(a->variant, SobelVariant::vector_16x4);
    EXPECT_EQ(a->group_x, 16u);
    EXPECT_EQ(a->group_y, 16u);
    const auto b = read_cached_choice(cache, "device B");
    ASSERT_TRUE(b);
    EXPECT_EQ(b->variant, SobelVariant::vector_16x1);
    std::ifstream file(cache);
    int lines = 0;
    for (std::string line; std::getline(file, line);) ++lines;
    EXPECT_EQ(lines, 2);
    std::filesystem::remove_all(cache.parent_path().parent_path());
}

TEST(SobelTuningCache, IgnoresMalformedLinesAndUnknownVariants)
{
    const auto cache = fresh_cache("malformed");
    std::filesystem::create_directories(cache.parent_path());
    std::ofstream(cache) << "garbage\n"
                         << "device A\t16x9\t32x8\n"
                         << "device A\t16x1\t0x8\n"
                         << "device A\t16x1\t99999x99999\n"
                         << "device A\t16x1\n";
    EXPECT_FALSE(read_cached_choice(cache, "device A"));
    EXPECT_FALSE(read_cached_choice(std::filesystem::path(), "device A"));
    std::filesystem::remove_all(cache.parent_path().parent_path());
}

TEST(SobelTuningCache, UnwritableCacheReportsFalse)
{
    EXPECT_FALSE(write_cached_choice("/proc/no-such-folder/tuning.txt", "device A", {}));
    EXPECT_FALSE(write_cached_choice(std::filesystem::path(), "device A", {}));
}

TEST(SobelTuningCache, PathFollowsTheEnvironment)
{
    ::setenv("SDK_TUNING_CACHE", "/tmp/x/tuning.txt", 1);
    EXPECT_EQ(tuning_cache_path(), "/tmp/x/tuning.txt");
    ::unsetenv("SDK_TUNING_CACHE");
    ::setenv("XDG_CACHE_HOME", "/tmp/cachehome", 1);
    EXPECT_EQ(tuning_cache_path(), "/tmp/cachehome/opencl-image-filters/tuning.txt");
    ::unsetenv("XDG_CACHE_HOME");
}

TEST(SobelTuning, MeasuresThenAnswersFromTheCache)
{
    const auto cache = fresh_cache("measure");
    ::setenv("SDK_TUNING_CACHE", cache.c_str(), 1);
    const TuningResult measured = choose_sobel_kernel(test::test_context(), Border::replicate);
    EXPECT_FALSE(measured.from_cache);
    EXPECT_GT(measured.median_ms, 0.0);
    EXPECT_NE(measured.choice.variant, SobelVariant::no_vectors);
    const TuningResult cached = choose_sobel_kernel(test::test_context(), Border::replicate);
    EXPECT_TRUE(cached.from_cache);
    EXPECT_EQ(cached.choice.variant, measured.choice.variant);
    EXPECT_EQ(cached.choice.group_x, measured.choice.group_x);
    ::unsetenv("SDK_TUNING_CACHE");
    std::filesystem::remove_all(cache.parent_path().parent_path());
}

}  // namespace
}  // namespace sdk
