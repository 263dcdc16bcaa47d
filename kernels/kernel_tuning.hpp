// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/tuning_cache.hpp"
#include "common/imageio/image.hpp"
#include "common/runtime/choose_fastest.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/opencl.hpp"
#include "common/runtime/work_size.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <limits>
#include <stdexcept>
#include <optional>
#include <string>
#include <vector>

namespace sdk {

// What every filter's tuner shares (Sobel's kernel and work-group, fir_float's and
// morphology_packed's work-group): the flow "the cached choice for this size class, or measure
// the candidates and cache the winner", the contest on a random image of the size that will
// run (tuning_size), and the log lines. A filter's tuner (kernels/<family>/*_tuning.*) adds
// only its candidates, its cache key and how to launch one candidate.

enum class Tuning {
    // The cached choice when its tuning has finished; else measure the candidates not measured
    // yet, as many as the time budget allows (tuning_budget), and keep the best so far: a first
    // run costs about what a run costs, later runs measure the rest.
    use_cache,
    finish,  // the cached choice when finished; else measure every candidate left, now
    retune,  // measure every candidate again, now, and replace the cached choice
    // Measure nothing (the user named the work-group shape): the cached choice when its
    // tuning has finished, else the recipe's default.
    cache_only,
};

// Called once before a tuning measures anything, with one line saying what and about how long
// (the samples print it first, so that a slow first run says why).
using TuningAnnouncer = std::function<void(const std::string&)>;

// The largest work-group a cached shape may ask for: no device we know runs more than 4096
// work-items per group (PoCL's limit on the development VM is 4096, GPUs' 1024).
constexpr std::uint64_t kMaxGroupItems = 4096;

// The cache's form, "32x8", and back; nothing for a shape that is zero or over kMaxGroupItems.
std::string shape_text(const WorkGroupShape& shape);
std::optional<WorkGroupShape> parse_cached_shape(const std::string& text);

// The choice of a family with several kernels (SobelChoice, FirChoice): which kernel (`Variant`,
// the family's enum of them) and its work-group shape, 32x8 unless told otherwise. A choice
// made before anything is chosen holds `kDefaultVariant`. (morphology_packed has one kernel per
// pass: its choice is a WorkGroupShape alone.)
template <typename Variant, Variant kDefaultVariant>
struct KernelChoice {
    Variant variant = kDefaultVariant;
    std::size_t group_x = 32;
    std::size_t group_y = 8;
    bool operator==(const KernelChoice& other) const
    {
        return variant == other.variant && group_x == other.group_x && group_y == other.group_y;
    }
};

// The work-group shapes a tuner tries, `preferred` (the filter's default, which a tie keeps)
// first. 32x1 and 128x1 are there for CPUs: PoCL runs a work-group's items in one loop, and
// one-row groups ran Sobel's packed kernel faster than 32x8 there. 32x4 is there for GPUs: it
// has run the packed kernel closer to copy bandwidth than 32x8
// (docs/performance.md#sobel-choices).
std::vector<WorkGroupShape> work_group_candidates(WorkGroupShape preferred);

// The shapes of `shapes` that `set_work_group` accepts (it throws UsageError for one the
// kernel cannot run on this device), in their order; the last one accepted stays set.
std::vector<WorkGroupShape> runnable_shapes(
    const std::vector<WorkGroupShape>& shapes,
    const std::function<void(std::size_t, std::size_t)>& set_work_group);

// What the candidates read, as a photo's values (smooth ramps with grain on top, whole numbers
// 0..255): the kernels' speed barely depends on the content, but never NaNs or denormals, which
// slow some devices down, nor values nothing wrote. The whole of `buffer`
// (CL_MEM_SIZE) is filled in place (mapped) or a piece at a time through the pinned chunks
// (common/runtime/transfers.hpp), so the host never holds a copy of the image: the largest class's
// confirmation runs on the image's own size, whose 8-bit image would be 268 MB at 16384x16384,
// its floats 1 GB more.
enum class RandomValues {
    bytes,   // 8-bit pixels
    floats,  // float pixels, whole numbers 0..255 as an 8-bit image's convert
};
void fill_random(const OpenClContext& cl, const cl::Buffer& buffer, RandomValues values);

// What a tuning did, whatever the filter.
struct TuningOutcome {
    SizeClass size_class;
    bool from_cache = false;
    // When measured now:
    ImageSize measured_size;  // the image measured on (tuning_size)
    // How far the tuning has got: candidates measured, in this run and earlier ones, of all
    // there are; and how many this run measured.
    std::size_t measured = 0;
    std::size_t total = 0;
    std::size_t measured_now = 0;
    bool finished() const { return measured >= total; }
    // The last contest: the best so far against the candidates this run measured last (a run
    // that crosses from one stage to the next holds a contest per stage).
    ContestResult contest;  // the candidates' medians, the winner and the runner-up
    unsigned rounds = 0;
    // In the largest class, whose images are larger than the one measured: the finalists
    // (indices into the candidates) measured again on the image's own size, and that contest,
    // which decides.
    std::optional<ImageSize> confirmed_size;
    std::vector<std::size_t> finalists;
    ContestResult confirmation;
    double seconds = 0;        // the whole measurement, on the host's clock
    std::string not_measured;  // why nothing could be measured now (the choice is a fallback)
    bool cached = false;       // the choice really was written to the cache
};

template <typename Choice>
struct Tuned : TuningOutcome {
    Choice choice;
    std::vector<Choice>
        candidates;  // the last contest's, as they ran (a device may shrink a shape)
};

// What one launch of a contestant enqueued: its first and last kernels, so that a run of two
// passes is timed from the first's start to the last's end, not by its last kernel alone (which
// made FIR's two separable passes look twice as fast as they are). A run of one kernel converts
// from its event.
struct LaunchedRun {
    LaunchedRun(cl::Event only) : first(only), last(only) {}  // NOLINT: one kernel, implicitly
    LaunchedRun(cl::Event first_kernel, cl::Event last_kernel)
        : first(std::move(first_kernel)), last(std::move(last_kernel))
    {
    }
    cl::Event first;
    cl::Event last;
};
// A run's device time: from its first kernel's start to its last kernel's end.
double run_span_ms(const LaunchedRun& run);

// A filter's part of a measurement, given the image to measure on: how to launch a candidate
// once. It may write into the candidate what really ran, builds what the candidate needs on its
// first launch (so that only what is measured is built), and throws UsageError for a candidate
// that cannot run here (too many work-items, too large a tile for local memory).
template <typename Choice>
struct Contestants {
    std::function<LaunchedRun(Choice&)> launch;
};

// A contest's launch of a filter whose choice is a variant and a work-group shape: `filter` runs
// once in `candidate`'s shape made to fit the kernel's own limits (fit_work_group), and the
// candidate keeps the shape that really ran.
template <typename Filter, typename Choice>
cl::Event launch_in_shape(Filter& filter, Choice& candidate)
{
    filter.fit_work_group(candidate.group_x, candidate.group_y);
    cl::Event event = filter.run();
    candidate.group_x = filter.launch_size().local[0];
    candidate.group_y = filter.launch_size().local[1];
    return event;
}

// A Choice is a candidate's description (SobelChoice, FirChoice, WorkGroupShape), comparable
// with ==: the best so far is not measured again.
template <typename Choice>
struct TuningRecipe {
    std::string key;  // the cache line's: filter, what else matters, size class, device
    std::function<std::optional<Choice>(const std::string&)> parse;  // a cached value
    std::function<std::string(const Choice&)> format;
    // The candidates in stages, each simplest first (a tie goes to the earlier). A stage may
    // depend on the best of the stages before it: Sobel measures its variants in the default
    // shape, then the fastest variant in the other shapes, 9 candidates where every variant in
    // every shape would be 24. `best` is empty before anything is measured.
    std::function<std::vector<std::vector<Choice>>(const std::optional<Choice>& best)> stages;
    // The filter's buffers for an image of this size, its input filled with fill_random.
    std::function<Contestants<Choice>(ImageSize)> prepare;
    // Which family a candidate is of (Sobel: its variant), for the finalists; unset: one family.
    std::function<int(const Choice&)> family;
    // What runs until the tuning has finished (chosen for the device's type; the filter makes its
    // shape fit the kernel), rather than the best of a few candidates: a partial contest's winner
    // can be far from the best one. Unset: the best so far.
    std::optional<Choice> default_choice;
    TuningAnnouncer announce;  // optional
};

// The stages of a tuner whose only choice is a work-group shape: one stage, `shapes`.
std::function<std::vector<std::vector<WorkGroupShape>>(const std::optional<WorkGroupShape>&)>
one_stage(std::vector<WorkGroupShape> shapes);

// A use_cache tuning finishes within this many runs (each measures at least a third of the
// candidates), so that auto runs its default for two runs at most.
constexpr std::size_t kTuningRuns = 3;

// How long a use_cache tuning may measure in one run: a quarter of a second, and 30 ms more per
// million pixels of the image (a larger image's run costs more, so its tuning may too), at most
// 5 s. What a candidate costs is mostly its build and first launch, not its runs.
// SDK_TUNING_BUDGET_MS overrides it (tests).
double tuning_budget_ms(std::size_t width, std::size_t height);

// A cached value: the choice, and while tuning has not finished, how far it got
// ("CHOICE<TAB>measured K of N"). The choice's own text may hold tabs.
struct CachedTuning {
    std::string choice;
    std::optional<std::size_t> measured;  // empty: finished
};
CachedTuning split_cached_tuning(const std::string& value);
std::string join_cached_tuning(const std::string& choice, std::size_t measured, std::size_t total);

// The recipe of a tuner whose only choice is a work-group shape, the cache holding "WxH"; the
// tuner adds `prepare`.
TuningRecipe<WorkGroupShape> work_group_recipe(std::string key);

// The contest itself: every candidate round-robin, median of 5 rounds after a warm-up round, a
// tie within 5% to the simpler; each turn launches the candidate once to bring its data back
// into the caches, then until 1 ms of kernel time (time_turn), so that neither the candidate
// before it nor one launch's jitter decides. Fills `outcome`'s contest and rounds. With
// `ties_to_the_simpler` false the fastest median wins outright: for a contest that only decides
// what a later stage measures, so that a variant that ties with a simpler one still has its
// shapes measured (the last stage's tie rule then keeps simplicity).
void run_contest(TuningOutcome& outcome, std::size_t candidates,
                 const std::function<LaunchedRun(std::size_t)>& launch,
                 bool ties_to_the_simpler = true);

// The finalists of a contest measured on a smaller image than the one that runs: the three
// fastest, and the fastest of each family (`families[i]` is candidate i's), so that a kind of
// kernel that only pays off at the full size is still measured there. In candidate order.
std::vector<std::size_t> finalists_of(const ContestResult& contest,
                                      const std::vector<int>& families);

// The finalists again, on the image that runs: 3 rounds (each launch there is long enough for
// its own figure), a tie within 5% to the earliest. Fills `outcome`'s confirmation.
void run_confirmation(TuningOutcome& outcome,
                      const std::function<LaunchedRun(std::size_t)>& launch);

// The line a tuning announces before it measures: what, and about how long.
std::string describe_tuning_start(const SizeClass& size_class, std::size_t left, std::size_t total,
                                  double budget_ms);

// The choice for a `width` x `height` image, the same for its whole size class: from the cache
// when its tuning has finished, else measured (on tuning_size's image) as `tuning` says and
// cached, with how far the tuning got.
template <typename Choice>
Tuned<Choice> tune(std::size_t width, std::size_t height, const TuningRecipe<Choice>& recipe,
                   Tuning tuning)
{
    Tuned<Choice> result;
    result.size_class = size_class_of(width, height);
    std::optional<Choice> best;
    std::size_t measured = 0;
    // Until the tuning has finished: the default where the recipe has one, else the best so far.
    const auto unfinished_choice = [&](const std::optional<Choice>& best_so_far,
                                       const Choice& first) {
        return recipe.default_choice ? *recipe.default_choice : best_so_far ? *best_so_far : first;
    };
    if (tuning != Tuning::retune) {
        if (const auto value = read_tuning_entry(tuning_cache_path(), recipe.key)) {
            const CachedTuning cached = split_cached_tuning(*value);
            if (const auto choice = recipe.parse(cached.choice)) {
                if (!cached.measured) {
                    result.choice = *choice;
                    result.from_cache = true;
                    return result;
                }
                best = choice;
                measured = *cached.measured;
            }
        }
    }
    // The candidates in one list, and where each stage ends.
    std::vector<Choice> candidates;
    std::vector<std::size_t> stage_ends;
    const auto plan = [&] {
        candidates.clear();
        stage_ends.clear();
        for (const auto& stage : recipe.stages(best)) {
            candidates.insert(candidates.end(), stage.begin(), stage.end());
            stage_ends.push_back(candidates.size());
        }
    };
    plan();
    if (measured > candidates.size()) measured = 0;  // a cache line from another list: start over
    if (tuning == Tuning::cache_only) {
        result.choice = unfinished_choice(best, candidates.front());
        result.not_measured = "a work-group shape was named";
        result.measured = measured;
        result.total = candidates.size();
        return result;
    }

    const double budget_ms = tuning == Tuning::use_cache ? tuning_budget_ms(width, height)
                                                         : std::numeric_limits<double>::infinity();
    if (recipe.announce)
        recipe.announce(describe_tuning_start(result.size_class, candidates.size() - measured,
                                              candidates.size(), budget_ms));
    const auto start = std::chrono::steady_clock::now();
    const auto elapsed_ms = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    };
    result.measured_size = tuning_size(width, height);
    // A tuning finishes within kTuningRuns runs: each measures at least that share of the
    // candidates, more where its budget allows (until then, auto runs the default).
    const std::size_t at_least = (candidates.size() + kTuningRuns - 1) / kTuningRuns;
    const auto budget_spent = [&](double next_ms) {
        return result.measured_now >= at_least && elapsed_ms() + next_ms > budget_ms;
    };
    try {
        Contestants<Choice> contestants = recipe.prepare(result.measured_size);
        // A candidate's first launch builds it and warms it up; one that cannot run here is
        // no entrant, and neither is one that ran as an entrant already did (a shape shrunk to
        // the kernel's limit: on a driver that runs 32 work-items a group, 32x8 and 32x4 both
        // run as 32x1).
        std::vector<Choice> entrants;
        const auto enter = [&](Choice candidate) {
            try {
                contestants.launch(candidate).last.wait();
                if (std::find(entrants.begin(), entrants.end(), candidate) == entrants.end())
                    entrants.push_back(candidate);
            } catch (const UsageError&) {
            }
        };
        while (measured < candidates.size()) {
            // One contest per stage: the best so far (which keeps a tie), then the stage's
            // candidates not measured yet, as many as the budget allows, at least `at_least`
            // in this run.
            entrants.clear();
            if (best) enter(*best);
            const auto stage = std::upper_bound(stage_ends.begin(), stage_ends.end(), measured);
            const std::size_t stage_end = *stage;
            const bool last_stage = stage + 1 == stage_ends.end();
            while (measured < stage_end) {
                const Choice candidate = candidates[measured++];
                if (best && candidate == *best) continue;
                const double before_ms = elapsed_ms();
                enter(candidate);
                ++result.measured_now;
                // Stop where one more candidate like this one would overrun the budget.
                if (budget_spent(elapsed_ms() - before_ms)) break;
            }
            if (!entrants.empty()) {
                run_contest(
                    result, entrants.size(),
                    [&](std::size_t i) { return contestants.launch(entrants[i]); }, last_stage);
                best = entrants[result.contest.winner];
                result.candidates = entrants;
            }
            plan();  // the next stage may depend on the best
            if (budget_spent(0)) break;
        }
    } catch (const std::exception& error) {
        // (The contestants' buffers are released at the try block's end, before the full size's
        // are made.) A device without room for the measuring image (a board's small maximum
        // allocation, under which the run goes in bands) measures nothing now: the run goes on with
        // the best so far, or the first candidate, and a later run measures.
        if (tuning != Tuning::use_cache) throw;
        result.not_measured = error.what();
        result.choice = unfinished_choice(best, candidates.front());
        result.measured = measured;
        result.total = candidates.size();
        result.seconds = elapsed_ms() / 1000;
        return result;
    }
    if (!best) throw std::runtime_error("tuning: no candidate kernel can run on this device");
    result.measured = measured;
    result.total = candidates.size();

    const auto pixels = [](std::size_t w, std::size_t h) { return std::uint64_t{w} * h; };
    if (pixels(width, height) > pixels(result.measured_size.width, result.measured_size.height) &&
        result.candidates.size() > 1) {
        // The largest class is measured on a smaller image to keep tuning short, but a CPU
        // ranks the kernels differently when the whole image streams from memory: the
        // finalists run again on the image's own size, and that decides.
        std::vector<int> families;
        for (const Choice& candidate : result.candidates)
            families.push_back(recipe.family ? recipe.family(candidate) : 0);
        result.finalists = finalists_of(result.contest, families);
        try {
            Contestants<Choice> full = recipe.prepare({width, height});
            std::vector<Choice> finalists;
            for (const std::size_t i : result.finalists) finalists.push_back(result.candidates[i]);
            run_confirmation(result, [&](std::size_t i) { return full.launch(finalists[i]); });
            result.confirmed_size = ImageSize{width, height};
            best = finalists[result.confirmation.winner];
        } catch (const std::exception&) {
            // A device with room for one image of this size but not for every variant's
            // buffers at once (a board, a band planned to fit): the smaller image's winner.
            result.confirmation = {};
        }
    }
    result.seconds = elapsed_ms() / 1000;
    // The cache keeps the best so far, from which a later run goes on.
    const std::string value = recipe.format(*best);
    result.cached = write_tuning_entry(
        tuning_cache_path(), recipe.key,
        result.finished() ? value : join_cached_tuning(value, result.measured, result.total));
    result.choice = result.finished() ? *best : unfinished_choice(best, *best);
    return result;
}

// What was measured, for the sample's log: the size class, image, candidates and rounds, the
// time it took, and the winner's margin over the runner-up. One line. (For a choice from the
// cache, only that it came from there.)
std::string describe_measurement(const TuningOutcome& outcome, const std::string& runner_up);
// "; then N finalists on the WxH image itself, 3 rounds: WINNER X ms, P% ahead of ..."
std::string describe_confirmation(const TuningOutcome& outcome, const std::string& winner,
                                  const std::string& runner_up);
template <typename Choice>
std::string describe_measurement(const Tuned<Choice>& result)
{
    const auto& runner_up = result.contest.runner_up;
    std::string text =
        describe_measurement(result, runner_up ? describe(result.candidates[*runner_up]) : "");
    if (result.confirmed_size) {
        const auto& second = result.confirmation.runner_up;
        text += describe_confirmation(
            result, describe(result.choice),
            second ? describe(result.candidates[result.finalists[*second]]) : "");
    }
    return text;
}

// Where the choice came from or went: "(from the tuning cache PATH)", "(cached in PATH)",
// "(not cached: cannot write PATH)", or, when no cache path can be named at all, how to name one.
std::string describe_cache_use(const TuningOutcome& result);

}  // namespace sdk
