// SPDX-License-Identifier: Apache-2.0
// What the three tuners share (kernels/kernel_tuning.hpp) and fir_float's and morphology_packed's
// cache keys and values: host only. The device tests of each filter run every candidate shape.
#include "kernels/fir/fir_tuning.hpp"
#include "kernels/morphology/morphology_tuning.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

namespace sdk {
namespace {

std::set<std::string> distinct(const std::vector<WorkGroupShape>& shapes)
{
    std::set<std::string> texts;
    for (const auto& shape : shapes) texts.insert(shape_text(shape));
    return texts;
}

// A tuning cut short by its budget stores its best so far and how far it got, after a tab; a
// finished one stores the choice alone (as every cache line before budgets did).
TEST(TuningProgress, RoundTripsAndRefusesWhatIsNotProgress)
{
    const std::string partial = join_cached_tuning("16x4\t32x8", 3, 9);
    EXPECT_EQ(partial, "16x4\t32x8\tmeasured 3 of 9");
    const CachedTuning split = split_cached_tuning(partial);
    EXPECT_EQ(split.choice, "16x4\t32x8");
    ASSERT_TRUE(split.measured);
    EXPECT_EQ(*split.measured, 3u);
    EXPECT_FALSE(split_cached_tuning("16x4\t32x8").measured);
    EXPECT_EQ(split_cached_tuning("16x4\t32x8").choice, "16x4\t32x8");
    // Not progress: left whole, for the filter's parse to refuse.
    for (const char* value :
         {"32x8\tmeasured 9 of 9", "32x8\tmeasured 10 of 9", "32x8\tmeasured x of 9",
          "32x8\tmeasured 1 of 9 more", "32x8\tmeasured -1 of 9"}) {
        const CachedTuning odd = split_cached_tuning(value);
        EXPECT_FALSE(odd.measured) << value;
        EXPECT_EQ(odd.choice, value);
    }
}

// A quarter second and 30 ms per million pixels, at most 5 s; SDK_TUNING_BUDGET_MS overrides.
TEST(TuningBudget, GrowsWithTheImageWithinBounds)
{
    ::unsetenv("SDK_TUNING_BUDGET_MS");
    EXPECT_NEAR(tuning_budget_ms(512, 512), 250 + 30 * 0.262144, 1e-9);
    EXPECT_GT(tuning_budget_ms(4032, 3024), tuning_budget_ms(512, 512));
    EXPECT_EQ(tuning_budget_ms(65536, 65536), 5000.0);
    ::setenv("SDK_TUNING_BUDGET_MS", "0", 1);
    EXPECT_EQ(tuning_budget_ms(512, 512), 0.0);
    ::setenv("SDK_TUNING_BUDGET_MS", "banana", 1);
    EXPECT_NEAR(tuning_budget_ms(512, 512), 250 + 30 * 0.262144, 1e-9);
    ::unsetenv("SDK_TUNING_BUDGET_MS");
}

TEST(WorkGroupCandidates, ThePreferredShapeFirstAndNoneTwice)
{
    const auto fir = work_group_candidates({32, 8});  // fir_float's shapes, per variant
    ASSERT_FALSE(fir.empty());
    EXPECT_EQ(shape_text(fir.front()), "32x8");
    EXPECT_EQ(distinct(fir).size(), fir.size());

    const auto morphology = morphology_candidates();
    EXPECT_EQ(shape_text(morphology.front()), "16x8");  // the filter's default, which a tie keeps
    EXPECT_EQ(distinct(morphology).size(), morphology.size());
    EXPECT_EQ(morphology.size(), fir.size() + 1);  // 16x8 is not among the others
    for (const auto& shape : morphology) EXPECT_LE(shape.x * shape.y, kMaxGroupItems);
}

TEST(WorkGroupCache, ParsesOnlyShapesWithinTheLimit)
{
    const auto shape = parse_cached_shape("64x4");
    ASSERT_TRUE(shape);
    EXPECT_EQ(shape->x, 64u);
    EXPECT_EQ(shape->y, 4u);
    EXPECT_EQ(shape_text(*shape), "64x4");
    EXPECT_EQ(describe(*shape), "work-group 64x4");
    EXPECT_TRUE(parse_cached_shape("64x64"));  // 4096 items: the largest allowed
    for (const char* value :
         {"", "32", "32x", "x8", "0x8", "32x0", "64x65", "99999x99999", "65536x65536",
          "4294967296x4294967296", "32x8\textra", "32 x 8", "-32x8", "32x8x1", "16x1\t32x8"})
        EXPECT_FALSE(parse_cached_shape(value)) << value;
}

TEST(WorkGroupCache, KeysTellFiltersBordersShapesSizeClassesAndDevicesApart)
{
    const std::vector<FirVariant> variants{FirVariant::buffer};
    const std::string fir =
        fir_tuning_key("device A", Border::replicate, 3, SizeClass{22}, variants);
    EXPECT_EQ(fir, "fir_float | 3x3 | variants buffer | border replicate | pixels 2^22 | device A");
    EXPECT_NE(fir, fir_tuning_key("device A", Border::replicate, 15, SizeClass{22}, variants));
    EXPECT_NE(fir, fir_tuning_key("device A", Border::constant, 3, SizeClass{22}, variants));
    EXPECT_NE(fir, fir_tuning_key("device A", Border::replicate, 3, SizeClass{20}, variants));
    EXPECT_NE(fir, fir_tuning_key("device B", Border::replicate, 3, SizeClass{22}, variants));
    EXPECT_EQ(fir_tuning_key("device A", Border::replicate, 3, SizeClass{22}, variants,
                             FirWeights::separable),
              "fir_float | 3x3 separable | variants buffer | border replicate | pixels 2^22 | "
              "device A");

    const std::string morphology =
        morphology_tuning_key("device A", MorphologyShape::diamond, SizeClass{22});
    EXPECT_EQ(morphology, "morphology_packed | shape diamond | pixels 2^22 | device A");
    EXPECT_NE(morphology,
              morphology_tuning_key("device A", MorphologyShape::square, SizeClass{22}));
    EXPECT_NE(morphology,
              morphology_tuning_key("device A", MorphologyShape::diamond, SizeClass{21}));
}

TEST(WorkGroupCache, ACorruptOrOversizedEntryIsNotCached)
{
    const auto folder = std::filesystem::temp_directory_path() /
                        ("sdk-kernel-tuning-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    const auto cache = folder / "tuning.txt";
    ::setenv("SDK_TUNING_CACHE", cache.c_str(), 1);
    const std::string key =
        morphology_tuning_key("device A", MorphologyShape::square, SizeClass{18});
    const auto recipe = work_group_recipe(key);
    for (const char* value : {"banana", "0x0", "128x128", "32x8 "}) {
        std::ofstream(cache) << key << '\t' << value << '\n';
        const auto cached = read_tuning_entry(tuning_cache_path(), key);
        ASSERT_TRUE(cached);
        EXPECT_FALSE(recipe.parse(split_cached_tuning(*cached).choice)) << value;
    }
    std::ofstream(cache) << key << "\t128x1\n";
    const auto cached = read_tuning_entry(tuning_cache_path(), key);
    ASSERT_TRUE(cached);
    EXPECT_EQ(shape_text(*recipe.parse(split_cached_tuning(*cached).choice)), "128x1");
    ::unsetenv("SDK_TUNING_CACHE");
    std::filesystem::remove_all(folder);
}

}  // namespace
}  // namespace sdk

namespace sdk {
namespace {

TEST(Finalists, TheThreeFastestAndEachFamilysFastest)
{
    // Families 0, 0, 1, 1, 2, 2: the three fastest are 1, 3, 2; family 2's fastest, 5, joins.
    const ContestResult contest = decide({5, 1, 3, 2, 9, 4}, 0.05);
    EXPECT_EQ(finalists_of(contest, {0, 0, 1, 1, 2, 2}), (std::vector<std::size_t>{1, 2, 3, 5}));
    // One family: the three fastest only.
    EXPECT_EQ(finalists_of(contest, {0, 0, 0, 0, 0, 0}), (std::vector<std::size_t>{1, 2, 3}));
}

TEST(Finalists, TheTieWinnerIsAlwaysOne)
{
    // Candidate 0 ties (within 5%) with the fastest and wins the contest as the simpler, yet
    // three others are faster than it: it still runs in the confirmation.
    const ContestResult contest = decide({1.04, 1.00, 1.01, 1.02, 1.03}, 0.05);
    ASSERT_EQ(contest.winner, 0u);
    const auto finalists = finalists_of(contest, {0, 0, 0, 0, 0});
    EXPECT_EQ(finalists, (std::vector<std::size_t>{0, 1, 2, 3}));
}

TEST(Finalists, FewerCandidatesThanThree)
{
    EXPECT_EQ(finalists_of(decide({2, 1}, 0.05), {0, 0}), (std::vector<std::size_t>{0, 1}));
    EXPECT_EQ(finalists_of(decide({2}, 0.05), {}), (std::vector<std::size_t>{0}));
}

}  // namespace
}  // namespace sdk
