#pragma once
#include "kernels/tuning_cache.hpp"
#include "common/imageio/image.hpp"
#include "common/runtime/choose_fastest.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/opencl.hpp"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
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
    use_cache,  // the cached choice for the size class when there is one, else measure
    retune,     // measure, and replace the cached choice
};

// The largest work-group a cached shape may ask for: no device we know runs more than 4096
// work-items per group (PoCL's limit on the development VM is 4096, GPUs' 1024).
constexpr std::uint64_t kMaxGroupItems = 4096;

struct WorkGroupShape {
    std::size_t x = 32;
    std::size_t y = 8;
};
std::string describe(const WorkGroupShape& shape);  // "work-group 32x8"
// The cache's form, "32x8", and back; nothing for a shape that is zero or over kMaxGroupItems.
std::string shape_text(const WorkGroupShape& shape);
std::optional<WorkGroupShape> parse_cached_shape(const std::string& text);

// The work-group shapes a tuner tries, `preferred` (the filter's default, which a tie keeps)
// first. 32x1 and 128x1 are there for CPUs: PoCL runs a work-group's items in one loop, and
// one-row groups ran Sobel's packed kernel faster than 32x8 there. 32x4 is there for GPUs: on
// the H100 it ran the packed kernel closer to copy bandwidth than 32x8
// (docs/performance.md#sobel-choices).
std::vector<WorkGroupShape> work_group_candidates(WorkGroupShape preferred);

// The shapes of `shapes` that `set_work_group` accepts (it throws UsageError for one the
// kernel cannot run on this device), in their order; the last one accepted stays set.
std::vector<WorkGroupShape> runnable_shapes(const std::vector<WorkGroupShape>& shapes,
                                            const std::function<void(std::size_t, std::size_t)>& set_work_group);

// What the candidates read, random: the kernels' speed does not depend on the content, and
// random values leave the compiler and caches nothing to exploit. The whole of `buffer`
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
    ContestResult contest;    // the candidates' medians, the winner and the runner-up
    unsigned rounds = 0;
    // In the largest class, whose images are larger than the one measured: the finalists
    // (indices into the candidates) measured again on the image's own size, and that contest,
    // which decides.
    std::optional<ImageSize> confirmed_size;
    std::vector<std::size_t> finalists;
    ContestResult confirmation;
    double seconds = 0;       // the whole measurement, on the host's clock
    bool cached = false;      // the choice really was written to the cache
};

template <typename Choice>
struct Tuned : TuningOutcome {
    Choice choice;
    std::vector<Choice> candidates;  // as they ran (a device may shrink a shape)
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

// A filter's part of a measurement, given the image to measure on: its candidates, simplest
// first (a tie goes to the earliest), and how to launch one once (it may write into the
// candidate what really ran).
template <typename Choice>
struct Contestants {
    std::vector<Choice> candidates;
    std::function<LaunchedRun(Choice&)> launch;
};

// A contest's launch of a filter whose choice is a variant and a work-group shape: `filter` runs
// once in `candidate`'s shape, and the candidate keeps the shape that really ran (the launch may
// shrink one the device cannot run).
template <typename Filter, typename Choice>
cl::Event launch_in_shape(Filter& filter, Choice& candidate)
{
    filter.set_work_group(candidate.group_x, candidate.group_y);
    cl::Event event = filter.run();
    candidate.group_x = filter.launch_size().local[0];
    candidate.group_y = filter.launch_size().local[1];
    return event;
}

template <typename Choice>
struct TuningRecipe {
    std::string key;  // the cache line's: filter, what else matters, size class, device
    std::function<std::optional<Choice>(const std::string&)> parse;  // a cached value
    std::function<std::string(const Choice&)> format;
    // The filter's buffers for an image of this size, its input filled with fill_random.
    std::function<Contestants<Choice>(ImageSize)> prepare;
    // Which family a candidate is of (Sobel: its variant), for the finalists; unset: one family.
    std::function<int(const Choice&)> family;
};

// The recipe of a tuner whose only choice is a work-group shape, the cache holding "WxH"; the
// tuner adds `prepare`.
TuningRecipe<WorkGroupShape> work_group_recipe(std::string key);

// The contest itself: every candidate round-robin, median of 5 rounds after a warm-up round, a
// tie within 5% to the simpler; each turn launches the candidate once to bring its data back
// into the caches, then until 1 ms of kernel time (time_turn), so that neither the candidate
// before it nor one launch's jitter decides. Fills `outcome`'s contest and rounds.
void run_contest(TuningOutcome& outcome, std::size_t candidates,
                 const std::function<LaunchedRun(std::size_t)>& launch);

// The finalists of a contest measured on a smaller image than the one that runs: the three
// fastest, and the fastest of each family (`families[i]` is candidate i's), so that a kind of
// kernel that only pays off at the full size is still measured there. In candidate order.
std::vector<std::size_t> finalists_of(const ContestResult& contest, const std::vector<int>& families);

// The finalists again, on the image that runs: 3 rounds (each launch there is long enough for
// its own figure), a tie within 5% to the earliest. Fills `outcome`'s confirmation.
void run_confirmation(TuningOutcome& outcome, const std::function<LaunchedRun(std::size_t)>& launch);

// The cached value under `key` unless retuning.
std::optional<std::string> cached_value(const std::string& key, Tuning tuning);

// The choice for a `width` x `height` image, the same for its whole size class: from the cache,
// or measured (on tuning_size's image) and then cached.
template <typename Choice>
Tuned<Choice> tune(std::size_t width, std::size_t height, const TuningRecipe<Choice>& recipe,
                   Tuning tuning)
{
    Tuned<Choice> result;
    result.size_class = size_class_of(width, height);
    if (const auto value = cached_value(recipe.key, tuning)) {
        if (const auto cached = recipe.parse(*value)) {
            result.choice = *cached;
            result.from_cache = true;
            return result;
        }
    }
    const auto start = std::chrono::steady_clock::now();
    result.measured_size = tuning_size(width, height);
    {
        Contestants<Choice> contestants = recipe.prepare(result.measured_size);
        result.candidates = std::move(contestants.candidates);
        run_contest(result, result.candidates.size(),
                    [&](std::size_t i) { return contestants.launch(result.candidates[i]); });
    }  // its buffers released before the full size's are made
    std::size_t winner = result.contest.winner;
    const auto pixels = [](std::size_t w, std::size_t h) { return std::uint64_t{w} * h; };
    if (pixels(width, height) > pixels(result.measured_size.width, result.measured_size.height) &&
        result.candidates.size() > 1) {
        // The largest class is measured on a smaller image to keep tuning short, but a CPU
        // ranks the kernels differently when the whole image streams from memory (PoCL,
        // 16384x16384: 16x1 30% faster than the 5792x4345 image's winner): the finalists run
        // again on the image's own size, and that decides.
        std::vector<int> families;
        for (const Choice& candidate : result.candidates)
            families.push_back(recipe.family ? recipe.family(candidate) : 0);
        result.finalists = finalists_of(result.contest, families);
        try {
            Contestants<Choice> full = recipe.prepare({width, height});
            if (full.candidates.size() == result.candidates.size()) {
                run_confirmation(result, [&](std::size_t i) {
                    return full.launch(full.candidates[result.finalists[i]]);
                });
                result.confirmed_size = ImageSize{width, height};
                winner = result.finalists[result.confirmation.winner];
            }
        } catch (const std::exception&) {
            // A device with room for one image of this size but not for every variant's
            // buffers at once (a board, a band planned to fit): the smaller image's winner.
            result.confirmation = {};
        }
    }
    result.choice = result.candidates[winner];
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.cached = write_tuning_entry(tuning_cache_path(), recipe.key, recipe.format(result.choice));
    return result;
}

// What was measured, for the sample's log: the size class, image, candidates and rounds, the
// time it took, and the winner's margin over the runner-up. One line. (For a choice from the
// cache, only that it came from there.)
std::string describe_measurement(const TuningOutcome& outcome, std::size_t candidates,
                                 const std::string& runner_up);
// "; then N finalists on the WxH image itself, 3 rounds: WINNER X ms, P% ahead of ..."
std::string describe_confirmation(const TuningOutcome& outcome, const std::string& winner,
                                  const std::string& runner_up);
template <typename Choice>
std::string describe_measurement(const Tuned<Choice>& result)
{
    const auto& runner_up = result.contest.runner_up;
    std::string text = describe_measurement(result, result.candidates.size(),
                                            runner_up ? describe(result.candidates[*runner_up]) : "");
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
