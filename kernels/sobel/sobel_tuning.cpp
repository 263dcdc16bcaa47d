// SPDX-License-Identifier: Apache-2.0
#include "kernels/sobel/sobel_tuning.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/profiling.hpp"
#include "common/runtime/transfers.hpp"
#include "kernels/image_views.hpp"

#include <map>
#include <memory>

namespace sdk {

namespace {

const std::vector<SobelVariant>& candidate_variants()
{
    static const std::vector<SobelVariant> variants{
        SobelVariant::vector_16x1, SobelVariant::vector_16x4, SobelVariant::packed_16x4,
        SobelVariant::local_tile, SobelVariant::image};
    return variants;
}

bool images_available(const OpenClContext& cl, ImageSize size)
{
    return sobel_variant_unavailable(cl, SobelVariant::image, size.width, size.height).empty();
}

// Whether the image variant competes in auto's contest: where it runs at all and reads the
// luminance buffer itself. Where each run must first copy the buffer into an image (PoCL), the
// contest, which times a candidate by its kernel's event alone, would not see the copy (and on
// PoCL, whose image reads are two orders of magnitude slower, timing it would only add seconds
// to a first run). The verdict of sobel -n times it, copy included, either way.
bool image_competes(const OpenClContext& cl, ImageSize size)
{
    return images_available(cl, size) && images_from_buffers(cl, pitch_for(size.width));
}

// The cache's value is "VARIANT<TAB>WxH".
std::optional<SobelChoice> parse_choice(const std::string& value)
{
    const std::size_t tab = value.find('\t');
    if (tab == std::string::npos) return std::nullopt;
    // Only the candidates compete: the scalar kernel is never a cached choice.
    const auto variant = find_sobel_variant(value.substr(0, tab));
    const auto shape = parse_cached_shape(value.substr(tab + 1));
    if (!variant || *variant == SobelVariant::no_vectors || !shape) return std::nullopt;
    return SobelChoice{*variant, shape->x, shape->y};
}

std::string format_choice(const SobelChoice& choice)
{
    return variant_name(choice.variant) + '\t' + shape_text({choice.group_x, choice.group_y});
}

// One filter per variant, each holding the image, so that the candidates can take turns
// without uploading again; a variant's filter (and its program) is made when one of its
// candidates is first launched, so that only what is measured is built.
Contestants<SobelChoice> sobel_contestants(const OpenClContext& cl, Border border, ImageSize size)
{
    auto filters = std::make_shared<std::map<SobelVariant, std::unique_ptr<SobelFilter>>>();
    Contestants<SobelChoice> contestants;
    const OpenClContext measuring = cl.unrecorded();
    contestants.launch = [cl = measuring, border, size, filters](SobelChoice& candidate) {
        auto& filter = (*filters)[candidate.variant];
        if (!filter) {
            auto made = std::make_unique<SobelFilter>(cl, candidate.variant, border);
            made->allocate(size.width, size.height);
            fill_random(cl, made->luminance_buffer(), RandomValues::bytes);
            filter = std::move(made);
        }
        return LaunchedRun(launch_in_shape(*filter, candidate));
    };
    return contestants;
}

}  // namespace

std::string describe(const SobelChoice& choice)
{
    return variant_name(choice.variant) + ", " +
           describe(WorkGroupShape{choice.group_x, choice.group_y});
}

// 32x8 first: the filters' default, which a tie keeps.
std::vector<SobelChoice> sobel_candidates(bool little_endian, bool images)
{
    std::vector<SobelChoice> candidates;
    for (const auto variant : candidate_variants()) {
        if (variant == SobelVariant::packed_16x4 && !little_endian) continue;
        if (variant == SobelVariant::image && !images) continue;
        for (const auto& shape : work_group_candidates({32, 8})) {
            // The image kernel in the two shapes a texture cache likes, 2-D blocks: on a CPU
            // (PoCL) its runs are so slow that six shapes of it would triple the tuning time.
            if (variant == SobelVariant::image && shape.y < 8) continue;
            candidates.push_back({variant, shape.x, shape.y});
        }
    }
    return candidates;
}

std::vector<std::vector<SobelChoice>> sobel_stages(bool little_endian, bool images,
                                                   const std::optional<SobelChoice>& best)
{
    const std::vector<SobelChoice> every = sobel_candidates(little_endian, images);
    std::vector<SobelChoice> variants, shapes;
    for (const auto& candidate : every)
        if (candidate.group_x == 32 && candidate.group_y == 8) variants.push_back(candidate);
    const SobelVariant fastest = best ? best->variant : variants.front().variant;
    for (const auto& candidate : every)
        if (candidate.variant == fastest && !(candidate.group_x == 32 && candidate.group_y == 8))
            shapes.push_back(candidate);
    return {variants, shapes};
}

SobelChoice default_sobel_choice(const cl::Device& device)
{
    const bool little_endian = device.getInfo<CL_DEVICE_ENDIAN_LITTLE>();
    const bool cpu = (device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0;
    return {little_endian ? SobelVariant::packed_16x4 : SobelVariant::vector_16x4, 32,
            cpu ? std::size_t{1} : std::size_t{4}};
}

std::string sobel_tuning_key(const std::string& device, Border border, SizeClass size_class,
                             const std::vector<SobelVariant>& variants)
{
    std::string names;
    for (const auto variant : variants) names += (names.empty() ? "" : " ") + variant_name(variant);
    return "sobel | variants " + names + " | border " + border_name(border) + " | " +
           key_part(size_class) + " | " + device;
}

std::optional<SobelChoice> read_cached_choice(const std::filesystem::path& cache,
                                              const std::string& key)
{
    const auto value = read_tuning_entry(cache, key);
    return value ? parse_choice(*value) : std::nullopt;
}

bool write_cached_choice(const std::filesystem::path& cache, const std::string& key,
                         const SobelChoice& choice)
{
    return write_tuning_entry(cache, key, format_choice(choice));
}

TuningResult choose_sobel_kernel(const OpenClContext& cl, Border border, std::size_t width,
                                 std::size_t height, Tuning tuning, const TuningAnnouncer& announce)
{
    const SizeClass size_class = size_class_of(width, height);
    TuningRecipe<SobelChoice> recipe;
    // The key names the variants that compete, so that a choice made among fewer (an entry from
    // before the local and image variants, or from a device without images) is measured again.
    std::vector<SobelVariant> variants;
    for (const auto& candidate : sobel_candidates(cl.device.getInfo<CL_DEVICE_ENDIAN_LITTLE>(),
                                                  image_competes(cl, {width, height})))
        if (variants.empty() || variants.back() != candidate.variant)
            variants.push_back(candidate.variant);
    recipe.key = sobel_tuning_key(device_key(cl.device), border, size_class, variants);
    recipe.parse = parse_choice;
    recipe.format = format_choice;
    const bool little_endian = cl.device.getInfo<CL_DEVICE_ENDIAN_LITTLE>();
    const bool images = image_competes(cl, {width, height});
    recipe.stages = [little_endian, images](const std::optional<SobelChoice>& best) {
        return sobel_stages(little_endian, images, best);
    };
    recipe.prepare = [&](ImageSize size) { return sobel_contestants(cl, border, size); };
    recipe.family = [](const SobelChoice& choice) { return static_cast<int>(choice.variant); };
    recipe.default_choice = default_sobel_choice(cl.device);
    recipe.announce = announce;
    return tune(width, height, recipe, tuning);
}

std::string memory_name(SobelVariant variant)
{
    const SobelVariantTraits& traits = traits_of(variant);
    const std::string reads_from = traits.reads_from;
    return reads_from == "buffer" ? reads_from + " " + traits.name : reads_from;
}

namespace {

// Every variant that runs here, simplest first: the ones the sample offers, as auto's
// candidates list them.
std::vector<SobelVariant> offered_variants(const OpenClContext& cl, ImageSize size)
{
    std::vector<SobelVariant> variants;
    for (const auto& candidate :
         sobel_candidates(cl.device.getInfo<CL_DEVICE_ENDIAN_LITTLE>(), images_available(cl, size)))
        if (variants.empty() || variants.back() != candidate.variant)
            variants.push_back(candidate.variant);
    return variants;
}

// Each of `variants` with a copy of the luminance `source` holds, ready to run in `shape`
// (else, or where the variant does not take it, its default: 32x8 within the kernel's limits);
// a run's time includes the image variant's copy into its image where it needs one.
std::vector<TimedRun> sobel_variant_runs(const OpenClContext& cl, Border border,
                                         const SobelFilter& source,
                                         const std::vector<SobelVariant>& variants,
                                         std::optional<WorkGroupShape> shape)
{
    std::vector<TimedRun> runs;
    for (const auto variant : variants) {
        auto filter = std::make_shared<SobelFilter>(cl, variant, border);
        filter->allocate(source.width(), source.height());
        while_doing("copying the luminance for the comparison", [&] {
            cl.queue.enqueueCopyBuffer(source.luminance_buffer(), filter->luminance_buffer(), 0, 0,
                                       filter->row_pitch() * source.height());
        });
        // Otherwise the filter's default shape, made to fit this kernel (SobelFilter).
        if (shape) {
            try {
                filter->set_work_group(shape->x, shape->y);
            } catch (const UsageError&) {
                // the shape asked for does not suit this variant: its default
            }
        }
        runs.push_back({variant_name(variant), filter->bytes_moved(), [filter] {
                            const cl::Event kernel = filter->run();
                            kernel.wait();
                            const double copy_ms =
                                filter->last_copy()() ? event_times(filter->last_copy()).run_ms : 0;
                            return event_times(kernel).run_ms + copy_ms;
                        }});
    }
    return runs;
}

}  // namespace

std::vector<VariantMedian> time_sobel_variants(const OpenClContext& cl, Border border,
                                               const SobelFilter& source, unsigned iterations,
                                               std::optional<WorkGroupShape> shape)
{
    const auto variants = offered_variants(cl, {source.width(), source.height()});
    const auto medians =
        time_in_turns(sobel_variant_runs(cl, border, source, variants, shape), iterations);
    std::vector<VariantMedian> result;
    for (std::size_t v = 0; v < variants.size(); ++v)
        result.push_back({variants[v], medians[v].median_ms, medians[v].host_clock});
    return result;
}

std::vector<RunMedian> compare_sobel_variants(const OpenClContext& cl, Border border,
                                              const SobelFilter& source, unsigned rounds)
{
    std::vector<SobelVariant> variants{SobelVariant::no_vectors};
    for (const auto variant : offered_variants(cl, {source.width(), source.height()}))
        variants.push_back(variant);
    auto runs = sobel_variant_runs(cl, border, source, variants, std::nullopt);
    runs.push_back(device_copy(cl, source.bytes_moved()));
    return time_in_turns(runs, rounds);
}

}  // namespace sdk
