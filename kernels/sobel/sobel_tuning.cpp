#include "kernels/sobel/sobel_tuning.hpp"

#include <map>
#include <memory>

namespace sdk {

namespace {

const std::vector<SobelVariant>& candidate_variants()
{
    static const std::vector<SobelVariant> variants{
        SobelVariant::vector_16x1, SobelVariant::vector_16x4, SobelVariant::packed_16x4};
    return variants;
}

std::optional<SobelVariant> variant_named(const std::string& name)
{
    for (const auto variant : candidate_variants())
        if (variant_name(variant) == name) return variant;
    return std::nullopt;
}

// The cache's value is "VARIANT<TAB>WxH".
std::optional<SobelChoice> parse_choice(const std::string& value)
{
    const std::size_t tab = value.find('\t');
    if (tab == std::string::npos) return std::nullopt;
    const auto variant = variant_named(value.substr(0, tab));
    const auto shape = parse_cached_shape(value.substr(tab + 1));
    if (!variant || !shape) return std::nullopt;
    return SobelChoice{*variant, shape->x, shape->y};
}

std::string format_choice(const SobelChoice& choice)
{
    return variant_name(choice.variant) + '\t' + shape_text({choice.group_x, choice.group_y});
}

// One filter per variant, each holding the image, so that the candidates can take turns
// without uploading again.
Contestants<SobelChoice> sobel_contestants(const OpenClContext& cl, Border border,
                                           ImageSize size)
{
    Contestants<SobelChoice> contestants;
    contestants.candidates = sobel_candidates(cl.device.getInfo<CL_DEVICE_ENDIAN_LITTLE>());
    auto filters = std::make_shared<std::map<SobelVariant, std::unique_ptr<SobelFilter>>>();
    for (const auto& candidate : contestants.candidates) {
        auto& filter = (*filters)[candidate.variant];
        if (filter) continue;
        filter = std::make_unique<SobelFilter>(cl, candidate.variant, border);
        filter->allocate(size.width, size.height);
        fill_random(cl, filter->luminance_buffer(), RandomValues::bytes);
    }
    contestants.launch = [filters](SobelChoice& candidate) {
        SobelFilter& filter = *filters->at(candidate.variant);
        filter.set_work_group(candidate.group_x, candidate.group_y);
        cl::Event event = filter.run();
        // The kernel may shrink a shape the device cannot run; keep what really ran.
        candidate.group_x = filter.launch_size().local[0];
        candidate.group_y = filter.launch_size().local[1];
        return event;
    };
    return contestants;
}

}  // namespace

std::string describe(const SobelChoice& choice)
{
    return variant_name(choice.variant) + ", " + describe(WorkGroupShape{choice.group_x, choice.group_y});
}

// 32x8 first: the filters' default, which a tie keeps.
std::vector<SobelChoice> sobel_candidates(bool little_endian)
{
    std::vector<SobelChoice> candidates;
    for (const auto variant : candidate_variants()) {
        if (variant == SobelVariant::packed_16x4 && !little_endian) continue;
        for (const auto& shape : work_group_candidates({32, 8}))
            candidates.push_back({variant, shape.x, shape.y});
    }
    return candidates;
}

std::string sobel_tuning_key(const std::string& device, Border border, SizeClass size_class)
{
    return "sobel | border " + border_name(border) + " | " + key_part(size_class) + " | " + device;
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
                                 std::size_t height, Tuning tuning)
{
    const SizeClass size_class = size_class_of(width, height);
    TuningRecipe<SobelChoice> recipe;
    recipe.key = sobel_tuning_key(device_key(cl.device), border, size_class);
    recipe.parse = parse_choice;
    recipe.format = format_choice;
    recipe.prepare = [&](ImageSize size) { return sobel_contestants(cl, border, size); };
    recipe.family = [](const SobelChoice& choice) { return static_cast<int>(choice.variant); };
    return tune(width, height, recipe, tuning);
}

}  // namespace sdk
