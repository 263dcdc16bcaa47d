#include "filters/sobel/sobel_tuning.hpp"

#include "runtime/profiling.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <random>

namespace sdk {

namespace {

// The largest work-group a cached shape may ask for: no device we know runs more than 4096
// work-items per group (PoCL's limit on the development VM is 4096, GPUs' 1024).
constexpr std::uint64_t kMaxGroupItems = 4096;

const std::vector<SobelVariant>& candidate_variants()
{
    static const std::vector<SobelVariant> variants{
        SobelVariant::vector_16x1, SobelVariant::vector_16x4, SobelVariant::packed_16x4};
    return variants;
}

// 32x8 first: the filters' default, which a tie keeps. 32x1 and 128x1 are there for CPUs: PoCL
// runs a work-group's items in one loop, and one-row groups ran the packed kernel faster than
// 32x8 there. 32x4 is there for GPUs: on the H100 it ran the packed kernel closer to copy
// bandwidth than 32x8 (docs/performance.md#sobel-choices).
const std::vector<std::pair<std::size_t, std::size_t>>& candidate_groups()
{
    static const std::vector<std::pair<std::size_t, std::size_t>> groups{
        {32, 8}, {32, 4}, {64, 4}, {128, 1}, {16, 16}, {32, 1}};
    return groups;
}

std::optional<SobelVariant> variant_named(const std::string& name)
{
    for (const auto variant : candidate_variants())
        if (variant_name(variant) == name) return variant;
    return std::nullopt;
}

// Random pixels: the kernels' speed does not depend on the content, and random bytes leave the
// compiler and caches nothing to exploit.
Image random_image(ImageSize size)
{
    Image image{size.width, size.height, 1, std::vector<std::uint8_t>(size.width * size.height)};
    std::mt19937 generator(1);
    for (auto& pixel : image.pixels) pixel = static_cast<std::uint8_t>(generator());
    return image;
}

std::string milliseconds(double ms)
{
    char text[32];
    std::snprintf(text, sizeof text, ms < 1 ? "%.3f ms" : "%.2f ms", ms);
    return text;
}

}  // namespace

std::string describe(const SobelChoice& choice)
{
    return variant_name(choice.variant) + ", work-group " + std::to_string(choice.group_x) + "x" +
           std::to_string(choice.group_y);
}

std::vector<SobelChoice> sobel_candidates(bool little_endian)
{
    std::vector<SobelChoice> candidates;
    for (const auto variant : candidate_variants()) {
        if (variant == SobelVariant::packed_16x4 && !little_endian) continue;
        for (const auto& [x, y] : candidate_groups()) candidates.push_back({variant, x, y});
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
    // The value is "VARIANT<TAB>WxH".
    const auto value = read_tuning_entry(cache, key);
    if (!value) return std::nullopt;
    const std::size_t tab = value->find('\t');
    if (tab == std::string::npos) return std::nullopt;
    const auto variant = variant_named(value->substr(0, tab));
    const auto shape = parse_work_group_shape(value->substr(tab + 1), kMaxGroupItems);
    if (!variant || !shape) return std::nullopt;
    return SobelChoice{*variant, shape->first, shape->second};
}

bool write_cached_choice(const std::filesystem::path& cache, const std::string& key,
                         const SobelChoice& choice)
{
    return write_tuning_entry(cache, key,
                              variant_name(choice.variant) + '\t' +
                                  std::to_string(choice.group_x) + 'x' +
                                  std::to_string(choice.group_y));
}

TuningResult choose_sobel_kernel(const OpenClContext& cl, Border border, std::size_t width,
                                 std::size_t height, Tuning tuning)
{
    TuningResult result;
    result.size_class = size_class_of(width, height);
    const auto cache = tuning_cache_path();
    const std::string key = sobel_tuning_key(device_key(cl.device), border, result.size_class);
    if (tuning == Tuning::use_cache) {
        if (const auto cached = read_cached_choice(cache, key)) {
            result.choice = *cached;
            result.from_cache = true;
            return result;
        }
    }

    const auto start = std::chrono::steady_clock::now();
    result.measured_size = representative_size(result.size_class);
    const Image image = random_image(result.measured_size);
    result.candidates = sobel_candidates(cl.device.getInfo<CL_DEVICE_ENDIAN_LITTLE>());

    // One filter per variant, each holding the image, so that the candidates can take turns
    // without uploading again.
    std::map<SobelVariant, std::unique_ptr<SobelFilter>> filters;
    for (const auto& candidate : result.candidates) {
        auto& filter = filters[candidate.variant];
        if (filter) continue;
        filter = std::make_unique<SobelFilter>(cl, candidate.variant, border);
        filter->upload(image);
    }

    const ContestRules rules;
    result.rounds = rules.rounds;
    result.contest = choose_fastest(
        result.candidates.size(),
        [&](std::size_t i) {
            SobelChoice& candidate = result.candidates[i];
            SobelFilter& filter = *filters.at(candidate.variant);
            filter.set_work_group(candidate.group_x, candidate.group_y);
            const cl::Event event = filter.run();
            event.wait();
            // The kernel may shrink a shape the device cannot run; keep what really ran.
            candidate.group_x = filter.launch_size().local[0];
            candidate.group_y = filter.launch_size().local[1];
            return event_times(event).run_ms;
        },
        rules);
    result.choice = result.candidates[result.contest.winner];
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    result.cached = write_cached_choice(cache, key, result.choice);
    return result;
}

std::string describe_measurement(const TuningResult& result)
{
    const ContestResult& contest = result.contest;
    if (contest.median_ms.empty()) return "Tuning: the choice came from the cache";
    std::string text = "Tuned for " + describe(result.size_class) + " on a " +
                       std::to_string(result.measured_size.width) + "x" +
                       std::to_string(result.measured_size.height) + " image: " +
                       std::to_string(result.candidates.size()) + " candidates, " +
                       std::to_string(result.rounds) + " rounds each, in " +
                       std::to_string(static_cast<int>(result.seconds * 1000)) + " ms; ";
    text += "the winner " + milliseconds(contest.median_ms[contest.winner]);
    if (!contest.runner_up) return text + ", the only candidate";
    const std::string runner_up = describe(result.candidates[*contest.runner_up]) + " (" +
                                  milliseconds(contest.median_ms[*contest.runner_up]);
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f%%", 100 * std::abs(contest.margin()));
    if (contest.margin() >= 0) return text + ", " + percent + " ahead of " + runner_up + ")";
    return text + ", tied with " + runner_up + ", " + percent +
           " faster), which goes to the simpler";
}

std::string describe_cache_use(const TuningResult& result)
{
    const std::string path = tuning_cache_path().string();
    if (path.empty())
        return "(not cached: no cache folder; set SDK_TUNING_CACHE, XDG_CACHE_HOME or HOME)";
    if (result.from_cache) return "(from the tuning cache " + path + ")";
    return (result.cached ? "(cached in " : "(not cached: cannot write ") + path + ")";
}

}  // namespace sdk
