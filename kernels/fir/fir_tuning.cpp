// SPDX-License-Identifier: Apache-2.0
#include "kernels/fir/fir_tuning.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/transfers.hpp"
#include "kernels/image_views.hpp"

#include <algorithm>
#include <map>
#include <memory>

namespace sdk {

namespace {

constexpr FirVariant kVariants[] = {FirVariant::buffer, FirVariant::local, FirVariant::image};

bool images_available(const OpenClContext& cl, ImageSize size)
{
    return fir_variant_unavailable(cl, FirVariant::image, size.width, size.height).empty();
}

bool image_competes(const OpenClContext& cl, ImageSize size)
{
    return images_available(cl, size) &&
           images_from_buffers(cl, pitch_for(size.width * sizeof(cl_float)), sizeof(cl_float));
}

std::vector<FirVariant> variants_of(const std::vector<FirChoice>& candidates)
{
    std::vector<FirVariant> variants;
    for (const auto& candidate : candidates)
        if (variants.empty() || variants.back() != candidate.variant)
            variants.push_back(candidate.variant);
    return variants;
}

// The cache's value is "VARIANT<TAB>WxH".
std::optional<FirChoice> parse_choice(const std::string& value)
{
    const std::size_t tab = value.find('\t');
    if (tab == std::string::npos) return std::nullopt;
    const auto shape = parse_cached_shape(value.substr(tab + 1));
    if (!shape) return std::nullopt;
    for (const auto variant : kVariants) {
        if (fir_variant_name(variant) != value.substr(0, tab)) continue;
        // A local shape of another width was cached before the width was built into the local
        // kernels: measured again.
        if (variant == FirVariant::local && shape->x != kLocalGroupWidth) return std::nullopt;
        return FirChoice{variant, shape->x, shape->y};
    }
    return std::nullopt;
}

std::string format_choice(const FirChoice& choice)
{
    return fir_variant_name(choice.variant) + '\t' + shape_text({choice.group_x, choice.group_y});
}

// Separable weights run two passes with the buffer variant (and the image variant: the same
// passes) or one kernel with the local variant: those two compete.
std::vector<FirChoice> candidates_for(FirWeights weights, bool images)
{
    if (weights == FirWeights::full_window) return fir_candidates(images);
    std::vector<FirChoice> candidates;
    for (const FirChoice& candidate : fir_candidates(false))
        if (candidate.variant != FirVariant::image) candidates.push_back(candidate);
    return candidates;
}

// One filter per variant, each holding the image, so that the candidates take turns without
// uploading again; a variant's filter (and its programs) is made when one of its candidates is
// first launched, so that only what is measured is built.
Contestants<FirChoice> fir_contestants(const OpenClContext& cl, Border border, int size,
                                       ImageSize image, FirWeights weights)
{
    auto filters = std::make_shared<std::map<FirVariant, std::unique_ptr<FirFilter>>>();
    const FirCoefficients coefficients = weights == FirWeights::separable
                                             ? separable_window_coefficients(size)
                                             : full_window_coefficients(size);
    Contestants<FirChoice> contestants;
    const OpenClContext measuring = cl.unrecorded();
    contestants.launch = [cl = measuring, border, coefficients, image,
                          filters](FirChoice& candidate) {
        auto& filter = (*filters)[candidate.variant];
        if (!filter) {
            auto made = std::make_unique<FirFilter>(cl, border, coefficients, MemoryMode::copy,
                                                    candidate.variant);
            made->allocate(image.width, image.height);
            fill_random(cl, made->luminance_buffer(), RandomValues::floats);
            filter = std::move(made);
        }
        launch_in_shape(*filter, candidate);
        // Two separable passes: both kernels' time.
        return LaunchedRun(filter->last_run_events().front(), filter->last_run_events().back());
    };
    return contestants;
}

// In two stages, like Sobel's (sobel_tuning.hpp): each variant in its first shape, then the
// fastest variant in its other shapes.
std::vector<std::vector<FirChoice>> fir_stages(const std::vector<FirChoice>& every,
                                               const std::optional<FirChoice>& best)
{
    std::vector<FirChoice> variants, shapes;
    for (const auto& candidate : every)
        if (variants.empty() || variants.back().variant != candidate.variant)
            variants.push_back(candidate);
    const FirVariant fastest = best ? best->variant : variants.front().variant;
    for (const auto& candidate : every) {
        const bool first_of_its_variant =
            std::any_of(variants.begin(), variants.end(), [&](const FirChoice& first) {
                return first.variant == candidate.variant && first.group_x == candidate.group_x &&
                       first.group_y == candidate.group_y;
            });
        if (candidate.variant == fastest && !first_of_its_variant) shapes.push_back(candidate);
    }
    return {variants, shapes};
}

}  // namespace

std::string describe(const FirChoice& choice)
{
    return fir_variant_name(choice.variant) + ", " +
           describe(WorkGroupShape{choice.group_x, choice.group_y});
}

std::vector<FirChoice> fir_candidates(bool images)
{
    std::vector<FirChoice> candidates;
    for (const auto variant : kVariants) {
        if (variant == FirVariant::image && !images) continue;
        // The local variant's groups are kLocalGroupWidth wide (fir_filter.hpp): it competes
        // in heights, 8 first (the best measured for most windows: docs/history.md).
        if (variant == FirVariant::local) {
            for (const std::size_t height : {8, 4, 16, 2})
                candidates.push_back({variant, kLocalGroupWidth, height});
            continue;
        }
        for (const auto& shape : work_group_candidates({32, 8})) {
            if (variant == FirVariant::image && shape.y < 8) continue;
            candidates.push_back({variant, shape.x, shape.y});
        }
    }
    return candidates;
}

std::string fir_tuning_key(const std::string& device, Border border, int size, SizeClass size_class,
                           const std::vector<FirVariant>& variants, FirWeights weights)
{
    std::string names;
    for (const auto variant : variants)
        names += (names.empty() ? "" : " ") + fir_variant_name(variant);
    const std::string k = std::to_string(size);
    const std::string window = k + "x" + k + (weights == FirWeights::separable ? " separable" : "");
    return "fir_float | " + window + " | variants " + names + " | border " + border_name(border) +
           " | " + key_part(size_class) + " | " + device;
}

FirCoefficients separable_window_coefficients(int size)
{
    FirCoefficients coefficients;
    coefficients.size = size;
    coefficients.numerators.assign(static_cast<std::size_t>(size * size), 1.0);
    coefficients.divisor = size * size;  // a box blur
    return coefficients;
}

FirCoefficients full_window_coefficients(int size)
{
    FirCoefficients coefficients;
    coefficients.size = size;
    coefficients.numerators.clear();
    for (int i = 1; i <= size * size; ++i) coefficients.numerators.push_back(i);
    coefficients.divisor = size * size * (size * size + 1) / 2.0;  // the weights sum to 1
    return coefficients;
}

FirChoice default_fir_choice(const cl::Device& device)
{
    const bool cpu = (device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0;
    return {FirVariant::buffer, 32, cpu ? std::size_t{1} : std::size_t{8}};
}

FirTuningResult choose_fir_kernel(const OpenClContext& cl, Border border, int size,
                                  std::size_t width, std::size_t height, Tuning tuning,
                                  FirWeights weights, const TuningAnnouncer& announce)
{
    TuningRecipe<FirChoice> recipe;
    const auto variants = variants_of(candidates_for(weights, image_competes(cl, {width, height})));
    recipe.key = fir_tuning_key(device_key(cl.device), border, size, size_class_of(width, height),
                                variants, weights);
    recipe.parse = parse_choice;
    recipe.format = format_choice;
    const auto every = candidates_for(weights, image_competes(cl, {width, height}));
    recipe.stages = [every](const std::optional<FirChoice>& best) {
        return fir_stages(every, best);
    };
    recipe.prepare = [&](ImageSize image) {
        return fir_contestants(cl, border, size, image, weights);
    };
    recipe.family = [](const FirChoice& choice) { return static_cast<int>(choice.variant); };
    recipe.default_choice = default_fir_choice(cl.device);
    recipe.announce = announce;
    return tune(width, height, recipe, tuning);
}

std::string memory_name(FirVariant variant)
{
    return traits_of(variant).reads_from;
}

namespace {

// A filter of `variant` holding a copy of the luminance `source` holds, running the K*K pass
// each variant is about (never the separable passes), for the verdict's and --compare's timings.
std::shared_ptr<FirFilter> filter_with_a_copy(const OpenClContext& cl, Border border,
                                              const FirCoefficients& coefficients,
                                              const FirFilter& source, FirVariant variant)
{
    auto filter = std::make_shared<FirFilter>(cl, border, coefficients, MemoryMode::copy, variant);
    filter->allow_separable(false);
    filter->allocate(source.width(), source.height());
    while_doing("copying the luminance to time the variants", [&] {
        cl.queue.enqueueCopyBuffer(source.luminance_buffer(), filter->luminance_buffer(), 0, 0,
                                   source.float_pitch() * sizeof(cl_float) * source.height());
    });
    return filter;
}

}  // namespace

std::vector<FirVariantMedian> time_fir_variants(const OpenClContext& cl, Border border,
                                                const FirCoefficients& coefficients,
                                                const FirFilter& source, unsigned iterations,
                                                std::optional<WorkGroupShape> shape)
{
    // One filter per variant, and the (variant, shape) pairs it runs.
    std::map<FirVariant, std::shared_ptr<FirFilter>> filters;
    std::vector<FirChoice> contestants;
    for (const FirChoice& candidate :
         fir_candidates(images_available(cl, {source.width(), source.height()}))) {
        auto& filter = filters[candidate.variant];
        if (!filter)
            filter = filter_with_a_copy(cl, border, coefficients, source, candidate.variant);
        // With a shape asked for, each variant runs once, in it (the local variant in its own
        // width: fir_filter.hpp).
        WorkGroupShape asked{candidate.group_x, candidate.group_y};
        if (shape) {
            const bool first_of_variant = std::none_of(
                contestants.begin(), contestants.end(),
                [&](const FirChoice& other) { return other.variant == candidate.variant; });
            if (!first_of_variant) continue;
            asked = shape_run_by(candidate.variant, *shape);
        }
        if (shape) {
            // Too many work-items, or too large a tile for local memory: not a shape it runs.
            if (!runnable_shapes({asked}, [&](std::size_t x, std::size_t y) {
                     filter->set_work_group(x, y);
                 }).empty())
                contestants.push_back({candidate.variant, asked.x, asked.y});
            continue;
        }
        // Each candidate shape made to fit the kernel's limits, once (on a driver that allows
        // 32 work-items, several shrink to 32x1).
        try {
            const WorkGroupShape runs = filter->fit_work_group(asked.x, asked.y);
            const FirChoice fitted{candidate.variant, runs.x, runs.y};
            if (std::find(contestants.begin(), contestants.end(), fitted) == contestants.end())
                contestants.push_back(fitted);
        } catch (const UsageError&) {
            // not even its smallest shape runs here
        }
    }
    // No variant runs the one shape asked for: nothing to time (the samples refuse such a
    // shape before they get here).
    if (contestants.empty()) return {};
    bool host_clock = false;
    const auto run = [&](const FirChoice& contestant) {
        FirFilter& filter = *filters.at(contestant.variant);
        filter.set_work_group(contestant.group_x, contestant.group_y);
        const RunTime time = filter.run_time();
        host_clock = host_clock || time.host_clock;
        return time.ms;
    };
    // A warm-up round, then all take turns (common/runtime/choose_fastest.hpp), so that a slow
    // spell of a shared machine falls on all of them alike.
    ContestRules rules;
    rules.rounds = iterations;
    const std::vector<double> medians =
        choose_fastest(
            contestants.size(), [&](std::size_t c) { return run(contestants[c]); }, rules)
            .median_ms;
    std::vector<FirVariantMedian> best;  // in the candidates' order: buffer, local, image
    for (std::size_t c = 0; c < contestants.size(); ++c) {
        const FirChoice& contestant = contestants[c];
        const double median = medians[c];
        if (best.empty() || best.back().variant != contestant.variant)
            best.push_back(
                {contestant.variant, median, {contestant.group_x, contestant.group_y}, host_clock});
        else if (median < best.back().median_ms)
            best.back() = {
                contestant.variant, median, {contestant.group_x, contestant.group_y}, host_clock};
    }
    return best;
}

std::vector<RunMedian> compare_fir_variants(const OpenClContext& cl, Border border,
                                            const FirCoefficients& coefficients,
                                            const FirFilter& source, unsigned rounds)
{
    std::vector<TimedRun> runs;
    std::vector<FirVariant> variants{FirVariant::buffer, FirVariant::local};
    if (images_available(cl, {source.width(), source.height()}))
        variants.push_back(FirVariant::image);
    for (const auto variant : variants) {
        auto filter = filter_with_a_copy(cl, border, coefficients, source, variant);
        runs.push_back({fir_variant_name(variant), filter->bytes_moved(),
                        [filter] { return filter->run_ms(); }});
    }
    runs.push_back(device_copy(cl, runs.front().bytes_moved));
    return time_in_turns(runs, rounds);
}

}  // namespace sdk
