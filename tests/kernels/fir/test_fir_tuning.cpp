// SPDX-License-Identifier: Apache-2.0
// The FIR tuner: every candidate work-group shape gives the reference's result, shapes the
// kernel cannot run are refused naming the limit, the verdict times every variant, and the
// contest's answers are cached per border, window size, size class and weights.
#include "fir_test_support.hpp"

#include "kernels/fir/fir_filter.hpp"
#include "kernels/fir/fir_reference.hpp"
#include "kernels/fir/fir_tuning.hpp"
#include "common/runtime/errors.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace sdk {
namespace {

using test::filter_for;
using test::poisons;
using test::random_coefficients;
using test::run_on_device;
using test::runs_here;
using test::test_context;

TEST(FirVariants, TheVerdictTimesEveryVariantThatRunsHere)
{
    FirFilter& source = filter_for(Border::replicate, MemoryMode::copy, 5);
    source.set_coefficients(random_coefficients(4, 5));
    source.upload(test::random_grey_image(40, 20, 4));
    const bool images = fir_variant_unavailable(test_context(), FirVariant::image, 40, 20).empty();
    // In the one shape asked for (--work-group), and each in its fastest of the candidates.
    // (16x2: 32 work-items, as many as rusticl's kernels run, and the local variant's tiles fit
    // in it where local memory is 32 KiB, as oclgrind's.)
    const auto in_16x2 =
        time_fir_variants(test_context(), Border::replicate, random_coefficients(4, 5), source, 2,
                          WorkGroupShape{16, 2});
    const auto in_best = time_fir_variants(test_context(), Border::replicate,
                                           random_coefficients(4, 5), source, 2, std::nullopt);
    for (const auto* medians : {&in_16x2, &in_best}) {
        ASSERT_EQ(medians->size(), images ? 3u : 2u);
        EXPECT_EQ(medians->front().variant, FirVariant::buffer);
        EXPECT_EQ(medians->at(1).variant, FirVariant::local);
        for (const auto& median : *medians) EXPECT_GT(median.median_ms, 0.0);
    }
    for (const auto& median : in_16x2) {
        EXPECT_EQ(median.shape.x, 16u);
        EXPECT_EQ(median.shape.y, 2u);
    }
    // Each in a candidate's shape, as made to fit the kernel (rusticl's run 32 work-items a
    // group: 32x8 runs as 32x1 there).
    std::vector<FirChoice> candidates;
    for (const FirChoice& candidate : fir_candidates(images)) {
        FirFilter& filter = filter_for(Border::replicate, MemoryMode::copy, 5, candidate.variant);
        const WorkGroupShape runs = filter.fit_work_group(candidate.group_x, candidate.group_y);
        candidates.push_back({candidate.variant, runs.x, runs.y});
        filter.use_default_work_group();
    }
    for (const auto& median : in_best)
        EXPECT_TRUE(std::any_of(candidates.begin(), candidates.end(),
                                [&](const FirChoice& c) {
                                    return c.variant == median.variant &&
                                           c.group_x == median.shape.x &&
                                           c.group_y == median.shape.y;
                                }))
            << median.shape.x << "x" << median.shape.y;
    // A shape that no variant runs (more work-items than any device allows): nothing timed,
    // no exception.
    EXPECT_TRUE(time_fir_variants(test_context(), Border::replicate, random_coefficients(4, 5),
                                  source, 2, WorkGroupShape{4096, 4096})
                    .empty());
}

// Every work-group shape the tuner may choose gives the reference's result on awkward sizes and
// every border: the shapes change which work-items share a group, and the partial groups at the
// right and bottom edges, never the output.
TEST(FirWorkGroups, EveryCandidateShapeMatchesReference)
{
    std::uint32_t seed = 500;
    const bool images = fir_variant_unavailable(test_context(), FirVariant::image, 1, 1).empty();
    for (const Border border :
         {Border::replicate, Border::reflect101, Border::constant, Border::none}) {
        for (const FirChoice& choice : fir_candidates(images)) {
            // Under oclgrind the image variant runs in its own test (tests/CMakeLists.txt).
            if (test::small_sizes_only() && choice.variant == FirVariant::image) continue;
            FirFilter& filter = filter_for(border, MemoryMode::copy, 3, choice.variant);
            // A shape the device cannot run is no candidate here, as the tuner leaves it out
            // (the next test checks the error that says so).
            if (!runs_here(filter, choice)) continue;
            filter.set_work_group(choice.group_x, choice.group_y);
            // The buffer variant's kernel uses no local memory, no barrier and no group id: under
            // oclgrind a shape can only add work-items past the edges, which return before any
            // access, so two sizes with partial groups across and down are enough there. The
            // local variant's tile follows the shape, and takes every size.
            const bool tile_follows_shape = choice.variant != FirVariant::buffer;
            const std::vector<test::Size> sizes = test::small_sizes_only() && !tile_follows_shape
                                                      ? std::vector<test::Size>{{47, 13}, {35, 18}}
                                                      : test::awkward_sizes();
            for (const auto& size : sizes) {
                const Image image = test::random_grey_image(size.width, size.height, seed);
                const FirCoefficients coefficients = random_coefficients(seed);
                const float poison = poisons[seed++ % 2];
                const std::vector<double> expected = fir_reference(image, coefficients, border);
                const std::vector<float> actual =
                    run_on_device(filter, coefficients, image, poison);
                EXPECT_EQ(filter.launch_size().local[0], choice.group_x);
                EXPECT_EQ(filter.launch_size().local[1], choice.group_y);
                ASSERT_LE(max_abs_difference(actual, expected), fir_tolerance(coefficients))
                    << describe(choice) << " at " << test::size_name(size) << ", border "
                    << border_name(border);
            }
            filter.use_default_work_group();  // for the other tests
        }
    }
}

TEST(FirWorkGroups, AShapeOverTheKernelsLimitIsAUsageErrorNamingIt)
{
    FirFilter& filter = filter_for(Border::replicate, MemoryMode::copy);
    // Twice the most work-items the device runs a group (PoCL 4096, Intel's CPU runtime 8192).
    const std::size_t widest = device_limits(test_context().device).max_work_group_size;
    try {
        filter.set_work_group(widest, 2);
        FAIL() << widest << "x2 accepted";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("the fir_float kernel runs at most"),
                  std::string::npos)
            << error.what();
    }
    EXPECT_THROW(filter.set_work_group(32, 0), UsageError);
    // What fit_work_group makes of the default runs as named (rusticl's kernels run 32
    // work-items a group: 32x8 is refused there).
    const WorkGroupShape fitted = filter.fit_work_group(32, 8);
    EXPECT_NO_THROW(filter.set_work_group(fitted.x, fitted.y));
    // The local variant's groups are 16 wide, and taller ones need more local memory: the
    // first 16-wide shape whose tiles outgrow it is refused, naming it (PoCL: 16x128, 1.2 MB
    // of 1 MiB; oclgrind: 16x2, 35 KB of 32 KiB), unless the kernel's work-item limit comes
    // first (a GPU's 48 KiB and 256 work-items at 15x15). Another width is refused too.
    FirFilter& local = filter_for(Border::replicate, MemoryMode::copy, 15, FirVariant::local);
    EXPECT_THROW(local.set_work_group(32, 8), UsageError);
    const auto most = device_limits(test_context().device).max_work_group_size;
    std::string refusal;
    for (std::size_t rows = 1; 16 * rows <= most && refusal.empty(); rows *= 2) {
        try {
            local.set_work_group(16, rows);
        } catch (const UsageError& error) {
            refusal = error.what();
        }
    }
    EXPECT_FALSE(refusal.empty()) << "every 16-wide shape up to " << most << " work-items fits";
    EXPECT_TRUE(refusal.find("bytes of local memory") != std::string::npos ||
                refusal.find("work-items a group") != std::string::npos)
        << refusal;
    local.use_default_work_group();
}

TEST(FirTuning, ASeparableRunIsTimedFromItsFirstPassToItsLast)
{
    // The contest's time for two passes must hold both (it once held the column pass alone,
    // and two passes beat one kernel that took less than both together).
    FirFilter filter(test_context(), Border::replicate, separable_window_coefficients(7));
    filter.upload(test::random_grey_image(300, 200, 9));
    filter.run().wait();
    const std::vector<cl::Event>& passes = filter.last_run_events();
    ASSERT_EQ(passes.size(), 2u);
    const double each = event_times(passes.front()).run_ms + event_times(passes.back()).run_ms;
    EXPECT_GE(run_span_ms(LaunchedRun(passes.front(), passes.back())), each * 0.999);
    EXPECT_DOUBLE_EQ(run_span_ms(LaunchedRun(passes.back())), event_times(passes.back()).run_ms);
}

TEST(FirTuning, MeasuresPerBorderAndSizeThenAnswersFromTheCache)
{
    const auto folder =
        std::filesystem::temp_directory_path() / ("sdk-fir-tuning-" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    ::setenv("SDK_TUNING_CACHE", (folder / "tuning.txt").c_str(), 1);
    const auto measured =
        choose_fir_kernel(test_context(), Border::replicate, 3, 200, 100, Tuning::finish);
    EXPECT_FALSE(measured.from_cache);
    EXPECT_TRUE(measured.cached);
    EXPECT_TRUE(measured.finished());
    ASSERT_EQ(measured.candidates.size(), measured.contest.median_ms.size());
    EXPECT_GT(measured.contest.median_ms[measured.contest.winner], 0.0);
    // Another size of the class, as wide: whether the image variant competes depends on the
    // width's row pitch on some devices (Intel's CPU runtime), and it is named in the key.
    const auto cached = choose_fir_kernel(test_context(), Border::replicate, 3, 200, 300);
    EXPECT_TRUE(cached.from_cache);
    EXPECT_EQ(describe(cached.choice), describe(measured.choice));
    EXPECT_FALSE(choose_fir_kernel(test_context(), Border::none, 3, 256, 256).from_cache);
    EXPECT_FALSE(choose_fir_kernel(test_context(), Border::replicate, 5, 256, 256).from_cache);
    EXPECT_FALSE(choose_fir_kernel(test_context(), Border::replicate, 3, 256, 256, Tuning::retune)
                     .from_cache);
    ::unsetenv("SDK_TUNING_CACHE");
    std::filesystem::remove_all(folder);
}

// Separable weights: the two passes (buffer) against the one kernel (local), no image variant
// (its separable path is the buffer's), tuned and cached apart from the K*K contest of the same
// window.
TEST(FirTuning, SeparableWeightsTuneTheirOwnPaths)
{
    const auto folder = std::filesystem::temp_directory_path() /
                        ("sdk-fir-separable-tuning-" + std::to_string(::getpid()));
    std::filesystem::remove_all(folder);
    ::setenv("SDK_TUNING_CACHE", (folder / "tuning.txt").c_str(), 1);
    const auto separable = choose_fir_kernel(test_context(), Border::replicate, 7, 200, 100,
                                             Tuning::finish, FirWeights::separable);
    EXPECT_FALSE(separable.from_cache);
    EXPECT_NE(separable.choice.variant, FirVariant::image);
    // The cache line's key names the variants that competed: buffer and local.
    EXPECT_TRUE(read_tuning_entry(
        folder / "tuning.txt",
        fir_tuning_key(device_key(test_context().device), Border::replicate, 7,
                       separable.size_class, {FirVariant::buffer, FirVariant::local},
                       FirWeights::separable)));
    EXPECT_TRUE(choose_fir_kernel(test_context(), Border::replicate, 7, 256, 256, Tuning::use_cache,
                                  FirWeights::separable)
                    .from_cache);
    EXPECT_FALSE(choose_fir_kernel(test_context(), Border::replicate, 7, 256, 256, Tuning::finish)
                     .from_cache);
    ::unsetenv("SDK_TUNING_CACHE");
    std::filesystem::remove_all(folder);
}

TEST(FirTuning, CandidatesPutTheDefaultFirstAndTheImageOnlyWhereAsked)
{
    const auto with_images = fir_candidates(true);
    const auto without = fir_candidates(false);
    ASSERT_FALSE(without.empty());
    EXPECT_EQ(describe(without.front()), "buffer, work-group 32x8");
    for (const auto& choice : without) EXPECT_NE(choice.variant, FirVariant::image);
    EXPECT_GT(with_images.size(), without.size());
    EXPECT_EQ(with_images.back().variant, FirVariant::image);
}

TEST(FirTuning, KeysTellWindowSizesAndVariantsApart)
{
    const std::vector<FirVariant> both{FirVariant::buffer, FirVariant::local};
    const std::string key = fir_tuning_key("device A", Border::replicate, 3, SizeClass{22}, both);
    EXPECT_EQ(key,
              "fir_float | 3x3 | variants buffer local | border replicate | pixels 2^22 | "
              "device A");
    EXPECT_NE(key, fir_tuning_key("device A", Border::replicate, 15, SizeClass{22}, both));
    EXPECT_NE(key, fir_tuning_key("device A", Border::replicate, 3, SizeClass{22},
                                  {FirVariant::buffer, FirVariant::local, FirVariant::image}));
}

}  // namespace
}  // namespace sdk
