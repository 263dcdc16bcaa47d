// SPDX-License-Identifier: Apache-2.0
// The tuning cache file, size classes and work-group shapes: host only, no device.
#include "common/runtime/tuning_cache.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

namespace sdk {
namespace {

// A cache path in a fresh folder of its own, removed when the test ends.
class CacheFile {
public:
    explicit CacheFile(const std::string& name)
        : folder_(std::filesystem::temp_directory_path() /
                  ("sdk-tuning-cache-" + name + "-" + std::to_string(::getpid())))
    {
        std::filesystem::remove_all(folder_);
    }
    ~CacheFile() { std::filesystem::remove_all(folder_); }
    std::filesystem::path path() const { return folder_ / "sub" / "tuning.txt"; }
    void write(const std::string& text) const
    {
        std::filesystem::create_directories(path().parent_path());
        std::ofstream(path(), std::ios::binary) << text;
    }

private:
    std::filesystem::path folder_;
};

TEST(TuningCacheFile, RoundTripsAndReplacesTheKeysLine)
{
    const CacheFile cache("roundtrip");
    EXPECT_FALSE(read_tuning_entry(cache.path(), "a"));
    ASSERT_TRUE(write_tuning_entry(cache.path(), "a", "one\t1"));
    ASSERT_TRUE(write_tuning_entry(cache.path(), "b", "two"));
    ASSERT_TRUE(write_tuning_entry(cache.path(), "a", "three"));
    EXPECT_EQ(read_tuning_entry(cache.path(), "a"), "three");
    EXPECT_EQ(read_tuning_entry(cache.path(), "b"), "two");
    EXPECT_FALSE(read_tuning_entry(cache.path(), "c"));
    std::ifstream file(cache.path());
    int lines = 0;
    for (std::string line; std::getline(file, line);) ++lines;
    EXPECT_EQ(lines, 2);
}

TEST(TuningCacheFile, IgnoresCorruptLinesAndKeepsTheGoodOnes)
{
    const CacheFile cache("corrupt");
    using namespace std::string_literals;  // "..."s keeps the NULs inside
    cache.write("garbage without a tab\n"s + "\tno key\n" + "no value\t\n" +
                "a\twith a carriage return\r\n" + "a\tnul\0inside\n"s + "\xff\xfe\x00\x01\n"s +
                "a\tgood\n" + "b\tlast line without a break");
    EXPECT_EQ(read_tuning_entry(cache.path(), "a"), "good");
    EXPECT_EQ(read_tuning_entry(cache.path(), "b"), "last line without a break");
    EXPECT_FALSE(read_tuning_entry(cache.path(), "garbage without a tab"));
    // A file with lines that are not entries may be someone else's: never replaced.
    const auto before = std::filesystem::file_size(cache.path());
    EXPECT_FALSE(write_tuning_entry(cache.path(), "c", "new"));
    EXPECT_EQ(std::filesystem::file_size(cache.path()), before);
}

TEST(TuningCacheFile, AFileThatIsNotACacheIsNeverReplaced)
{
    // A photo or a text the variable names by mistake (issue 38, item 3): left byte for byte.
    using namespace std::string_literals;
    for (const std::string& content :
         {"\xff\xd8\xff\xe0\x00\x10JFIF\x00"s + std::string(5000, '\x7f'), "notes\nof a user\n"s,
          "a\tgood\nthen a line of prose\n"s}) {
        const CacheFile cache("foreign");
        cache.write(content);
        EXPECT_FALSE(write_tuning_entry(cache.path(), "a", "value"));
        std::ifstream file(cache.path(), std::ios::binary);
        EXPECT_EQ(std::string((std::istreambuf_iterator<char>(file)), {}), content);
    }
}

TEST(TuningCacheFile, ASymbolicLinkIsFollowedAndKept)
{
    const CacheFile cache("link-target");
    const CacheFile link("link");
    cache.write("a\told\n");
    std::filesystem::create_directories(link.path().parent_path());
    std::filesystem::create_symlink(cache.path(), link.path());
    ASSERT_TRUE(write_tuning_entry(link.path(), "b", "new"));
    EXPECT_TRUE(std::filesystem::is_symlink(link.path()));
    EXPECT_EQ(read_tuning_entry(cache.path(), "a"), "old");
    EXPECT_EQ(read_tuning_entry(cache.path(), "b"), "new");
}

TEST(TuningCacheFile, AFileOverTheCapIsNotRead)
{
    const CacheFile cache("big");
    std::string text = "a\tgood\n";
    text.resize(kMaxTuningCacheBytes + 1, '#');
    cache.write(text);
    EXPECT_FALSE(read_tuning_entry(cache.path(), "a"));
    // Never written by a cache (writes keep within the cap), so someone else's: left alone.
    EXPECT_FALSE(write_tuning_entry(cache.path(), "b", "new"));
    EXPECT_EQ(std::filesystem::file_size(cache.path()), kMaxTuningCacheBytes + 1);
}

TEST(TuningCacheFile, AFileAtTheCapIsRead)
{
    const CacheFile cache("at-cap");
    std::string text = "a\tgood\n";
    text.resize(kMaxTuningCacheBytes - 1, '#');
    cache.write(text + "\n");
    EXPECT_EQ(read_tuning_entry(cache.path(), "a"), "good");
}

TEST(TuningCacheFile, TheOldestLinesGoWhenTheFileWouldOutgrowTheCap)
{
    const CacheFile cache("oldest");
    const std::string value(1000, 'v');
    const int writes = static_cast<int>(kMaxTuningCacheBytes / 1000) + 10;
    for (int i = 0; i < writes; ++i)
        ASSERT_TRUE(write_tuning_entry(cache.path(), "key " + std::to_string(i), value));
    EXPECT_LE(std::filesystem::file_size(cache.path()), kMaxTuningCacheBytes);
    EXPECT_FALSE(read_tuning_entry(cache.path(), "key 0"));
    EXPECT_EQ(read_tuning_entry(cache.path(), "key " + std::to_string(writes - 1)), value);
}

TEST(TuningCacheFile, AFifoIsIgnoredWithoutWaitingForAWriter)
{
    const CacheFile cache("fifo");
    std::filesystem::create_directories(cache.path().parent_path());
    ASSERT_EQ(::mkfifo(cache.path().c_str(), 0600), 0);
    // Without O_NONBLOCK, opening a FIFO that has no writer would block here for ever.
    EXPECT_FALSE(read_tuning_entry(cache.path(), "a"));
    EXPECT_FALSE(write_tuning_entry(cache.path(), "a", "value"));
    EXPECT_TRUE(std::filesystem::is_fifo(cache.path()));  // left as it was
}

TEST(TuningCacheFile, AFolderIsIgnored)
{
    const CacheFile cache("folder");
    std::filesystem::create_directories(cache.path());
    EXPECT_FALSE(read_tuning_entry(cache.path(), "a"));
    EXPECT_FALSE(write_tuning_entry(cache.path(), "a", "value"));
}

TEST(TuningCacheFile, WriteReportsFailure)
{
    EXPECT_FALSE(write_tuning_entry("/proc/no-such-folder/tuning.txt", "a", "value"));
    EXPECT_FALSE(write_tuning_entry(std::filesystem::path(), "a", "value"));
    EXPECT_FALSE(read_tuning_entry(std::filesystem::path(), "a"));
    const CacheFile cache("separators");
    EXPECT_FALSE(write_tuning_entry(cache.path(), "a\tb", "value"));
    EXPECT_FALSE(write_tuning_entry(cache.path(), "a\nb", "value"));
    EXPECT_FALSE(write_tuning_entry(cache.path(), "a", "two\nlines"));
    EXPECT_FALSE(write_tuning_entry(cache.path(), "", "value"));
    EXPECT_FALSE(write_tuning_entry(cache.path(), "a", ""));
    EXPECT_FALSE(std::filesystem::exists(cache.path()));
}

TEST(TuningCacheFile, PathFollowsTheEnvironment)
{
    ::setenv("SDK_TUNING_CACHE", "/tmp/x/tuning.txt", 1);
    EXPECT_EQ(tuning_cache_path(), "/tmp/x/tuning.txt");
    ::unsetenv("SDK_TUNING_CACHE");
    ::setenv("SDK_CACHE_DIR", "/tmp/sdk-cache", 1);
    EXPECT_EQ(tuning_cache_path(), "/tmp/sdk-cache/tuning.txt");
    ::unsetenv("SDK_CACHE_DIR");
    ::setenv("XDG_CACHE_HOME", "/tmp/cachehome", 1);
    EXPECT_EQ(tuning_cache_path(), "/tmp/cachehome/opencl-image-filters/tuning.txt");
    ::unsetenv("XDG_CACHE_HOME");
}

TEST(SizeClass, PowersOfTwoOfThePixelCount)
{
    EXPECT_EQ(size_class_of(512, 512).log2_pixels, 18u);
    EXPECT_EQ(size_class_of(511, 512).log2_pixels, 17u);
    EXPECT_EQ(size_class_of(1024, 512).log2_pixels, 19u);
    EXPECT_EQ(size_class_of(3264, 2448).log2_pixels, 22u);
    // The old tuner's 2048x1024 image is not in 3264x2448's class: issue 19.
    EXPECT_EQ(size_class_of(2048, 1024).log2_pixels, 21u);
}

TEST(SizeClass, SmallAndLargeImagesShareTheEndClasses)
{
    EXPECT_EQ(size_class_of(0, 0).log2_pixels, kSmallestSizeClass);
    EXPECT_EQ(size_class_of(1, 1).log2_pixels, kSmallestSizeClass);
    EXPECT_EQ(size_class_of(64, 64).log2_pixels, kSmallestSizeClass);
    EXPECT_EQ(size_class_of(4096, 4096).log2_pixels, kLargestSizeClass);
    EXPECT_EQ(size_class_of(16384, 16384).log2_pixels, kLargestSizeClass);
    EXPECT_EQ(size_class_of(65536, 65536).log2_pixels, kLargestSizeClass);
    // 2^40 x 2^40 wraps to 0 in 64 bits: it must not land in the smallest class.
    const std::uint64_t huge = std::uint64_t{1} << 40;
    EXPECT_EQ(size_class_of(huge, huge).log2_pixels, kLargestSizeClass);
    EXPECT_EQ(size_class_of(1, huge).log2_pixels, kLargestSizeClass);
}

TEST(SizeClass, TheRepresentativeImageIsInItsClass)
{
    for (unsigned k = kSmallestSizeClass; k <= kLargestSizeClass; ++k) {
        const ImageSize size = representative_size({k});
        EXPECT_EQ(size_class_of(size.width, size.height).log2_pixels, k) << k;
        EXPECT_EQ(size.width % 16, 0u) << k;
        EXPECT_GT(size.width, size.height) << k;
    }
    EXPECT_EQ(representative_size({22}).width, 2896u);
    EXPECT_EQ(representative_size({22}).height, 2172u);
}

TEST(SizeClass, TunedOnTheImageThatRunsExceptInTheCatchAllClasses)
{
    // In a middle class: the image itself, whatever its shape.
    EXPECT_EQ(tuning_size(512, 512).width, 512u);
    EXPECT_EQ(tuning_size(512, 512).height, 512u);
    EXPECT_EQ(tuning_size(3264, 2448).width, 3264u);
    EXPECT_EQ(tuning_size(17, 40000).height, 40000u);
    // The smallest and the largest classes: their representative images.
    EXPECT_EQ(tuning_size(1, 1).width, representative_size({kSmallestSizeClass}).width);
    EXPECT_EQ(tuning_size(200, 100).height, representative_size({kSmallestSizeClass}).height);
    EXPECT_EQ(tuning_size(16384, 16384).width, representative_size({kLargestSizeClass}).width);
    EXPECT_EQ(tuning_size(4096, 4096).height, representative_size({kLargestSizeClass}).height);
}

TEST(SizeClass, NamesAndKeys)
{
    EXPECT_EQ(describe(SizeClass{22}), "2^22-2^23 pixels");
    EXPECT_EQ(describe(SizeClass{kSmallestSizeClass}), "under 2^17 pixels");
    EXPECT_EQ(describe(SizeClass{kLargestSizeClass}), "2^24 pixels and more");
    EXPECT_EQ(key_part(SizeClass{22}), "pixels 2^22");
}

TEST(WorkGroupShape, ParsesValidShapes)
{
    using Shape = std::pair<std::size_t, std::size_t>;
    EXPECT_EQ(parse_work_group_shape("32x8", 4096), Shape(32, 8));
    EXPECT_EQ(parse_work_group_shape("4096x1", 4096), Shape(4096, 1));
    EXPECT_EQ(parse_work_group_shape("64x64", 4096), Shape(64, 64));
}

TEST(WorkGroupShape, RefusesMalformedAndOversizedShapes)
{
    for (const char* text : {"",
                             "x",
                             "32",
                             "x8",
                             "32x",
                             "0x8",
                             "8x0",
                             "32x8x",
                             "32x8 ",
                             " 32x8",
                             "-1x8",
                             "+1x8",
                             "3 2x8",
                             "32X8",
                             "0x0",
                             "4097x1",
                             "64x65",
                             "65536x65536",
                             "4294967296x1",
                             "4294967296x4294967296",
                             "18446744073709551616x1",
                             "1x18446744073709551615"})
        EXPECT_FALSE(parse_work_group_shape(text, 4096)) << "'" << text << "'";
}

}  // namespace
}  // namespace sdk
