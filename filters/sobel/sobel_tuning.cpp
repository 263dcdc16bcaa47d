#include "filters/sobel/sobel_tuning.hpp"

#include "imageio/file_io.hpp"
#include "runtime/profiling.hpp"

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

namespace sdk {

namespace {

const std::vector<SobelVariant>& candidate_variants()
{
    static const std::vector<SobelVariant> variants{
        SobelVariant::vector_16x1, SobelVariant::vector_16x4, SobelVariant::packed_16x4};
    return variants;
}

// 32x1 is there for CPUs: PoCL runs a work-group's items in one loop, and one-row groups of 32
// ran the packed kernel faster than 32x8 there. 32x4 is there for GPUs: on the H100 it ran the
// packed kernel closer to copy bandwidth than 32x8 (docs/performance.md#sobel-choices).
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

// One line per device: key, tab, variant, tab, WxH. Tabs cannot occur in the key's parts'
// separators we choose, and a line that does not parse is skipped.
std::vector<std::string> read_lines(const std::filesystem::path& cache)
{
    std::vector<std::string> lines;
    std::ifstream file(cache);
    for (std::string line; std::getline(file, line);) lines.push_back(line);
    return lines;
}

}  // namespace

std::string describe(const SobelChoice& choice)
{
    return variant_name(choice.variant) + ", work-group " + std::to_string(choice.group_x) + "x" +
           std::to_string(choice.group_y);
}

std::filesystem::path tuning_cache_path()
{
    if (const char* path = std::getenv("SDK_TUNING_CACHE")) return path;
    std::filesystem::path folder;
    if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache && *cache)
        folder = cache;
    else if (const char* home = std::getenv("HOME"); home && *home)
        folder = std::filesystem::path(home) / ".cache";
    else
        return {};
    return folder / "opencl-image-filters" / "tuning.txt";
}

std::string tuning_key(const cl::Device& device)
{
    const cl::Platform platform(device.getInfo<CL_DEVICE_PLATFORM>());
    std::string key = platform.getInfo<CL_PLATFORM_NAME>() + " | " +
                      device.getInfo<CL_DEVICE_NAME>() + " | " +
                      device.getInfo<CL_DRIVER_VERSION>();
    for (auto& c : key)
        if (c == '\t' || c == '\n' || c == '\0') c = ' ';
    return key;
}

std::optional<SobelChoice> read_cached_choice(const std::filesystem::path& cache,
                                              const std::string& key)
{
    if (cache.empty()) return std::nullopt;
    for (const auto& line : read_lines(cache)) {
        std::istringstream fields(line);
        std::string line_key, variant, group;
        if (!std::getline(fields, line_key, '\t') || line_key != key) continue;
        if (!std::getline(fields, variant, '\t') || !std::getline(fields, group)) continue;
        const auto known = variant_named(variant);
        unsigned x = 0, y = 0;
        char separator = 0;
        std::istringstream shape(group);
        if (!known || !(shape >> x >> separator >> y) || separator != 'x' || x == 0 || y == 0 ||
            x * y > 4096)
            continue;
        return SobelChoice{*known, x, y};
    }
    return std::nullopt;
}

bool write_cached_choice(const std::filesystem::path& cache, const std::string& key,
                         const SobelChoice& choice)
{
    if (cache.empty()) return false;
    try {
        std::string text;
        for (const auto& line : read_lines(cache))
            if (line.rfind(key + '\t', 0) != 0 && !line.empty()) text += line + '\n';
        text += key + '\t' + variant_name(choice.variant) + '\t' + std::to_string(choice.group_x) +
                'x' + std::to_string(choice.group_y) + '\n';
        std::filesystem::create_directories(cache.parent_path());
        write_file_atomically(cache, reinterpret_cast<const std::uint8_t*>(text.data()),
                              text.size());
        return true;
    } catch (const std::exception&) {
        return false;  // a cache we cannot write only costs a measurement next time
    }
}

TuningResult choose_sobel_kernel(const OpenClContext& cl, Border border)
{
    const auto cache = tuning_cache_path();
    const std::string key = tuning_key(cl.device);
    if (const auto cached = read_cached_choice(cache, key)) return {*cached, true, 0.0};

    // The kernel, not the launch, must dominate what is measured. On the H100 a 2048x1024 image
    // runs so fast that the launch decided, and the tuner chose 16x1, well behind 16x4-packed on
    // large images (docs/performance.md#sobel-choices). GPUs get 8192x4096; CPUs keep 2048x1024,
    // which measures in well under a second on PoCL.
    const bool gpu = (cl.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU) != 0;
    const std::size_t width = gpu ? 8192 : 2048;
    const std::size_t height = gpu ? 4096 : 1024;
    Image image{width, height, 1, std::vector<std::uint8_t>(width * height)};
    std::mt19937 generator(1);
    for (auto& pixel : image.pixels) pixel = static_cast<std::uint8_t>(generator());

    TuningResult best;
    best.median_ms = -1;
    const bool little_endian = cl.device.getInfo<CL_DEVICE_ENDIAN_LITTLE>();
    for (const auto variant : candidate_variants()) {
        if (variant == SobelVariant::packed_16x4 && !little_endian) continue;
        SobelFilter filter(cl, variant, border);
        filter.upload(image);
        for (const auto& [x, y] : candidate_groups()) {
            filter.set_work_group(x, y);
            const double ms = time_kernel(5, [&] { return filter.run(); }).median;
            if (best.median_ms < 0 || ms < best.median_ms) {
                // The kernel may shrink a shape the device cannot run; keep what really ran.
                const auto& local = filter.launch_size().local;
                best.choice = SobelChoice{variant, local[0], local[1]};
                best.median_ms = ms;
            }
        }
    }
    write_cached_choice(cache, key, best.choice);
    return best;
}

}  // namespace sdk
