// SPDX-License-Identifier: Apache-2.0
// --variant auto: Sobel's candidates, its lines in the tuning cache, and the measurement that
// fills them (tests/common/runtime/test_tuning_cache.cpp tests the file itself, and
// tests/common/runtime/test_choose_fastest.cpp the decision rule).
#include "kernels/image_views.hpp"
#include "kernels/sobel/sobel_tuning.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace sdk {
namespace {

std::filesystem::path fresh_cache(const std::string& name)
{
    const auto folder = std::filesystem::temp_directory_path() /
                        ("sdk-tuning-" + name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    return folder / "sub" / "tuning.txt";  // the folder is created on write
}

TEST(SobelTuningCandidates, SimplestFirst)
{
    const auto candidates = sobel_candidates(true, true);
    ASSERT_EQ(candidates.size(), 26u);
    // A tie goes to the earliest: 16x1 with the default 32x8 groups comes first, and the
    // variants in order of complexity.
    EXPECT_EQ(candidates.front().variant, SobelVariant::vector_16x1);
    EXPECT_EQ(candidates.front().group_x, 32u);
    EXPECT_EQ(candidates.front().group_y, 8u);
    EXPECT_EQ(candidates[6].variant, SobelVariant::vector_16x4);
    EXPECT_EQ(candidates[6].group_x, 32u);
    EXPECT_EQ(candidates[6].group_y, 8u);
    EXPECT_EQ(candidates[12].variant, SobelVariant::packed_16x4);
    EXPECT_EQ(candidates[18].variant, SobelVariant::local_tile);
    EXPECT_EQ(candidates[18].group_x, 32u);
    EXPECT_EQ(candidates[24].variant, SobelVariant::image);  // 32x8 and 16x16 only
    EXPECT_EQ(candidates[24].group_x, 32u);
    EXPECT_EQ(candidates[24].group_y, 8u);
    EXPECT_EQ(candidates.back().variant, SobelVariant::image);
    EXPECT_EQ(candidates.back().group_x, 16u);
    EXPECT_EQ(candidates.back().group_y, 16u);
    std::set<std::string> distinct;
    for (const auto& candidate : candidates) distinct.insert(describe(candidate));
    EXPECT_EQ(distinct.size(), candidates.size());
}

// auto measures in two stages: every variant in 32x8 groups, then the fastest in its other shapes.
TEST(SobelTuningCandidates, VariantsFirstThenTheFastestOnesShapes)
{
    const auto first = sobel_stages(true, true, std::nullopt);
    ASSERT_EQ(first.size(), 2u);
    ASSERT_EQ(first[0].size(), 5u);
    for (const auto& candidate : first[0]) {
        EXPECT_EQ(candidate.group_x, 32u);
        EXPECT_EQ(candidate.group_y, 8u);
    }
    EXPECT_EQ(first[0][0].variant, SobelVariant::vector_16x1);
    EXPECT_EQ(first[0][4].variant, SobelVariant::image);
    EXPECT_EQ(first[1].size(), 5u);  // 16x1, before anything is measured: its 5 other shapes
    for (const auto& candidate : first[1]) EXPECT_EQ(candidate.variant, SobelVariant::vector_16x1);

    const auto packed = sobel_stages(true, true, SobelChoice{SobelVariant::packed_16x4, 32, 8});
    EXPECT_EQ(packed[0].size(), 5u);  // the first stage does not depend on the best
    ASSERT_EQ(packed[1].size(), 5u);
    std::set<std::string> shapes;
    for (const auto& candidate : packed[1]) {
        EXPECT_EQ(candidate.variant, SobelVariant::packed_16x4);
        EXPECT_FALSE(candidate.group_x == 32 && candidate.group_y == 8);
        shapes.insert(describe(candidate));
    }
    EXPECT_EQ(shapes.size(), 5u);
    // The image kernel has one other shape (16x16); without images it is in neither stage.
    EXPECT_EQ(sobel_stages(true, true, SobelChoice{SobelVariant::image, 32, 8})[1].size(), 1u);
    EXPECT_EQ(sobel_stages(true, false, std::nullopt)[0].size(), 4u);
}

TEST(SobelTuningCandidates, NoPackedKernelOnABigEndianDevice)
{
    const auto candidates = sobel_candidates(false, true);
    EXPECT_EQ(candidates.size(), 20u);
    for (const auto& candidate : candidates)
        EXPECT_NE(candidate.variant, SobelVariant::packed_16x4);
}

TEST(SobelTuningCandidates, NoImageKernelWithoutImages)
{
    const auto candidates = sobel_candidates(true, false);
    EXPECT_EQ(candidates.size(), 24u);
    for (const auto& candidate : candidates) EXPECT_NE(candidate.variant, SobelVariant::image);
}

TEST(SobelTuningCache, KeysTellBordersSizeClassesAndDevicesApart)
{
    const std::vector<SobelVariant> all{SobelVariant::vector_16x1, SobelVariant::local_tile,
                                        SobelVariant::image};
    const std::string key = sobel_tuning_key("device A", Border::replicate, SizeClass{22}, all);
    EXPECT_EQ(key, "sobel | variants 16x1 local image | border replicate | pixels 2^22 | device A");
    EXPECT_NE(key, sobel_tuning_key("device A", Border::reflect101, SizeClass{22}, all));
    EXPECT_NE(key, sobel_tuning_key("device A", Border::replicate, SizeClass{21}, all));
    EXPECT_NE(key, sobel_tuning_key("device B", Border::replicate, SizeClass{22}, all));
    // A device without images competes without the image variant: its own entry.
    EXPECT_NE(key, sobel_tuning_key("device A", Border::replicate, SizeClass{22},
                                    {SobelVariant::vector_16x1, SobelVariant::local_tile}));
}

TEST(SobelTuningCache, RoundTripsAndReplacesTheKeysLine)
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
    std::filesystem::remove_all(cache.parent_path().parent_path());
}

TEST(SobelTuningCache, IgnoresUnknownVariantsAndBadShapes)
{
    const auto cache = fresh_cache("malformed");
    std::filesystem::create_directories(cache.parent_path());
    for (const char* value :
         {"16x9\t32x8", "no_vectors\t32x8", "16x1\t0x8", "16x1\t99999x99999", "16x1\t65536x65536",
          "16x1\t4294967296x4294967296", "16x1", "16x1\t32x8\textra", "16x1 32x8"}) {
        std::ofstream(cache) << "device A\t" << value << "\n";
        EXPECT_FALSE(read_cached_choice(cache, "device A")) << value;
    }
    std::ofstream(cache) << "device A\t16x4-packed\t64x64\n";
    EXPECT_TRUE(read_cached_choice(cache, "device A"));  // 4096 items: the largest allowed
    std::filesystem::remove_all(cache.parent_path().parent_path());
}

TEST(SobelTuning, MeasuresPerSizeClassThenAnswersFromTheCache)
{
    const auto cache = fresh_cache("measure");
    ::setenv("SDK_TUNING_CACHE", cache.c_str(), 1);
    const OpenClContext& cl = test::test_context();

    const TuningResult measured =
        choose_sobel_kernel(cl, Border::replicate, 200, 100, Tuning::finish);
    EXPECT_FALSE(measured.from_cache);
    EXPECT_TRUE(measured.finished());
    EXPECT_TRUE(measured.cached);
    EXPECT_EQ(measured.size_class.log2_pixels, kSmallestSizeClass);
    EXPECT_EQ(measured.measured_size.width,
              representative_size(measured.size_class).width);  // catch-all
    ASSERT_EQ(measured.candidates.size(), measured.contest.median_ms.size());
    // Every variant, then the fastest's other shapes (PoCL: 4 variants, 5 shapes).
    EXPECT_EQ(measured.measured, measured.total);
    EXPECT_GE(measured.total, 6u);
    EXPECT_GT(measured.contest.median_ms[measured.contest.winner], 0.0);
    EXPECT_NE(measured.choice.variant, SobelVariant::no_vectors);
    EXPECT_FALSE(describe_measurement(measured).empty());

    const TuningResult cached = choose_sobel_kernel(cl, Border::replicate, 256, 256);
    EXPECT_TRUE(cached.from_cache);  // same class: under 2^17 pixels
    EXPECT_FALSE(describe_measurement(cached).empty());
    EXPECT_EQ(cached.choice.variant, measured.choice.variant);
    EXPECT_EQ(cached.choice.group_x, measured.choice.group_x);
    EXPECT_EQ(cached.choice.group_y, measured.choice.group_y);

    // Another border mode is another entry.
    EXPECT_FALSE(choose_sobel_kernel(cl, Border::reflect101, 256, 256, Tuning::finish).from_cache);
    EXPECT_TRUE(choose_sobel_kernel(cl, Border::reflect101, 256, 256).from_cache);

    // --retune measures although the class is cached, and replaces the entry.
    const TuningResult retuned =
        choose_sobel_kernel(cl, Border::replicate, 256, 256, Tuning::retune);
    EXPECT_FALSE(retuned.from_cache);
    EXPECT_TRUE(retuned.cached);
    // PoCL is little-endian: every variant competes, the image kernel only where it reads the
    // buffer itself.
    std::vector<SobelVariant> competing{SobelVariant::vector_16x1, SobelVariant::vector_16x4,
                                        SobelVariant::packed_16x4, SobelVariant::local_tile};
    if (images_from_buffers(cl, pitch_for(256))) competing.push_back(SobelVariant::image);
    const auto stored = read_cached_choice(
        cache,
        sobel_tuning_key(device_key(cl.device), Border::replicate, retuned.size_class, competing));
    ASSERT_TRUE(stored);
    EXPECT_EQ(describe(*stored), describe(retuned.choice));

    ::unsetenv("SDK_TUNING_CACHE");
    std::filesystem::remove_all(cache.parent_path().parent_path());
}

// A first run measures no longer than its budget, but at least a third of the candidates, and
// says so first; each later run measures more, against the best so far, so that the tuning
// finishes within three runs; then the cache answers without measuring.
TEST(SobelTuning, EachRunMeasuresWithinItsBudgetUntilTuningFinishes)
{
    const auto cache = fresh_cache("budget");
    ::setenv("SDK_TUNING_CACHE", cache.c_str(), 1);
    ::setenv("SDK_TUNING_BUDGET_MS", "0", 1);  // the least a run measures
    const OpenClContext& cl = test::test_context();
    std::vector<std::string> announced;
    const TuningAnnouncer announce = [&](const std::string& line) { announced.push_back(line); };

    TuningResult run =
        choose_sobel_kernel(cl, Border::replicate, 64, 64, Tuning::use_cache, announce);
    ASSERT_EQ(announced.size(), 1u);
    EXPECT_EQ(announced[0].rfind("Tuning for ", 0), 0u) << announced[0];
    EXPECT_NE(announced[0].find(" candidates left"), std::string::npos) << announced[0];
    EXPECT_FALSE(run.from_cache);
    EXPECT_EQ(run.total, images_from_buffers(cl, pitch_for(64)) ? 10u : 9u);
    const std::size_t third = (run.total + 2) / 3;
    EXPECT_EQ(run.measured_now, third);
    EXPECT_EQ(run.measured, third);
    // Until the tuning has finished, the default runs, not the best so far.
    EXPECT_EQ(describe(run.choice), describe(default_sobel_choice(cl.device)));
    EXPECT_FALSE(run.finished());
    EXPECT_TRUE(run.cached);
    std::vector<SobelVariant> competing{SobelVariant::vector_16x1, SobelVariant::vector_16x4,
                                        SobelVariant::packed_16x4, SobelVariant::local_tile};
    if (images_from_buffers(cl, pitch_for(64))) competing.push_back(SobelVariant::image);
    const auto line = read_tuning_entry(
        cache,
        sobel_tuning_key(device_key(cl.device), Border::replicate, run.size_class, competing));
    ASSERT_TRUE(line);
    EXPECT_NE(
        line->find("\tmeasured " + std::to_string(third) + " of " + std::to_string(run.total)),
        std::string::npos)
        << *line;

    std::size_t runs = 1;
    while (!run.finished() && runs < 20) {
        const std::size_t before = run.measured;
        run = choose_sobel_kernel(cl, Border::replicate, 64, 64, Tuning::use_cache, announce);
        ++runs;
        EXPECT_FALSE(run.from_cache);
        EXPECT_GT(run.measured, before);  // progress every run
    }
    EXPECT_TRUE(run.finished());
    EXPECT_LE(runs, 3u);
    EXPECT_EQ(announced.size(), runs);
    const TuningResult cached =
        choose_sobel_kernel(cl, Border::replicate, 64, 64, Tuning::use_cache, announce);
    EXPECT_TRUE(cached.from_cache);
    EXPECT_EQ(describe(cached.choice), describe(run.choice));
    EXPECT_EQ(announced.size(), runs);  // nothing measured, nothing announced
    ::unsetenv("SDK_TUNING_BUDGET_MS");
    ::unsetenv("SDK_TUNING_CACHE");
    std::filesystem::remove_all(cache.parent_path().parent_path());
}

// The image kernel competes where the device reads the buffer as an image itself; where each run
// would copy it into one first (PoCL), the contest's kernel events would not see the copy.
TEST(SobelTuning, TheImageKernelCompetesOnlyWhereItReadsTheBufferItself)
{
    const auto cache = fresh_cache("image-competes");
    ::setenv("SDK_TUNING_CACHE", cache.c_str(), 1);
    const OpenClContext& cl = test::test_context();
    const TuningResult measured = choose_sobel_kernel(cl, Border::constant, 64, 64, Tuning::finish);
    // The cache line's key names the variants that competed.
    std::vector<SobelVariant> competing{SobelVariant::vector_16x1, SobelVariant::vector_16x4,
                                        SobelVariant::packed_16x4, SobelVariant::local_tile};
    if (images_from_buffers(cl, pitch_for(64))) competing.push_back(SobelVariant::image);
    EXPECT_TRUE(read_cached_choice(cache, sobel_tuning_key(device_key(cl.device), Border::constant,
                                                           measured.size_class, competing)));
    ::unsetenv("SDK_TUNING_CACHE");
    std::filesystem::remove_all(cache.parent_path().parent_path());
}

// An entry written before the local and image variants existed (its key names no variants) was
// chosen without them: it is measured again, not trusted.
TEST(SobelTuning, AnEntryFromBeforeTheLocalAndImageVariantsIsMeasuredAgain)
{
    const auto cache = fresh_cache("old-entry");
    ::setenv("SDK_TUNING_CACHE", cache.c_str(), 1);
    const OpenClContext& cl = test::test_context();
    const std::string old_key = "sobel | border replicate | " +
                                key_part(SizeClass{kSmallestSizeClass}) + " | " +
                                device_key(cl.device);
    ASSERT_TRUE(write_cached_choice(cache, old_key, {SobelVariant::vector_16x1, 32, 8}));
    const TuningResult result = choose_sobel_kernel(cl, Border::replicate, 64, 64, Tuning::finish);
    EXPECT_FALSE(result.from_cache);
    EXPECT_TRUE(choose_sobel_kernel(cl, Border::replicate, 64, 64).from_cache);
    ::unsetenv("SDK_TUNING_CACHE");
    std::filesystem::remove_all(cache.parent_path().parent_path());
}

// sobel -n's verdict: every variant the sample offers, in its order, each timed on the
// luminance the sample's filter holds; named by where its pixels come from.
TEST(SobelTuning, VerdictTimesEveryVariantOnTheSamplesImage)
{
    const OpenClContext& cl = test::test_context();
    SobelFilter source(cl, SobelVariant::vector_16x1, Border::replicate);
    source.upload(test::random_grey_image(100, 20, 3));
    const auto medians =
        time_sobel_variants(cl, Border::replicate, source, 3, WorkGroupShape{64, 4});
    const std::vector<SobelVariant> expected{SobelVariant::vector_16x1, SobelVariant::vector_16x4,
                                             SobelVariant::packed_16x4, SobelVariant::local_tile,
                                             SobelVariant::image};  // PoCL: little-endian, images
    ASSERT_EQ(medians.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
        EXPECT_EQ(medians[i].variant, expected[i]);
        EXPECT_GT(medians[i].median_ms, 0.0) << variant_name(expected[i]);
    }
    EXPECT_EQ(memory_name(SobelVariant::vector_16x4), "buffer 16x4");
    EXPECT_EQ(memory_name(SobelVariant::packed_16x4), "buffer 16x4-packed");
    EXPECT_EQ(memory_name(SobelVariant::local_tile), "local memory");
    EXPECT_EQ(memory_name(SobelVariant::image), "image");
}

TEST(SobelTuning, AnUnwritableCacheIsReportedAsNotCached)
{
    ::setenv("SDK_TUNING_CACHE", "/proc/no-such-folder/tuning.txt", 1);
    const TuningResult measured =
        choose_sobel_kernel(test::test_context(), Border::replicate, 64, 64);
    EXPECT_FALSE(measured.from_cache);
    EXPECT_FALSE(measured.cached);
    EXPECT_EQ(describe_cache_use(measured),
              "(not cached: cannot write /proc/no-such-folder/tuning.txt)");
    ::unsetenv("SDK_TUNING_CACHE");
}

// With nowhere to put a cache, the log says how to name one rather than print an empty path.
TEST(SobelTuning, NoCacheFolderAtAllSaysHowToNameOne)
{
    std::vector<std::pair<std::string, std::string>> saved;
    for (const char* name : {"SDK_TUNING_CACHE", "SDK_CACHE_DIR", "XDG_CACHE_HOME", "HOME"}) {
        if (const char* value = std::getenv(name)) saved.emplace_back(name, value);
        ::unsetenv(name);
    }
    const bool nameless = tuning_cache_path().empty();
    const std::string text = describe_cache_use(TuningResult{});
    for (const auto& [name, value] : saved) ::setenv(name.c_str(), value.c_str(), 1);
    ASSERT_TRUE(nameless);
    EXPECT_EQ(text, "(not cached: no cache folder; set SDK_TUNING_CACHE, XDG_CACHE_HOME or HOME)");
}

}  // namespace
}  // namespace sdk
