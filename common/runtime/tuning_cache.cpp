// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/tuning_cache.hpp"

#include "common/imageio/file_io.hpp"
#include "common/imageio/input_file.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/program_cache.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>
#include <vector>

namespace sdk {

namespace {

struct Entry {
    std::string key;
    std::string value;
};

// A key ends at the line's first tab, and a line at its line break.
bool fits_a_line(const std::string& text, bool is_key)
{
    return !text.empty() && text.find_first_of(is_key ? "\t\n\r" : "\n\r") == std::string::npos &&
           text.find('\0') == std::string::npos;
}

// What is at a cache's path: nothing, a file that reads as a cache, or a file that does not.
enum class Found { nothing, cache, other };

struct CacheFile {
    Found found = Found::nothing;
    std::vector<Entry> entries;  // oldest first
};

// Reads the cache at `path`. InputFile refuses anything but a regular file, and opens without
// blocking, so a FIFO at the cache's path cannot hang the sample. A file is taken for a cache
// only when it is within kMaxTuningCacheBytes and each of its lines is an entry (the last may
// lack its line break): a larger file, or one with a line that is not an entry, is someone
// else's (a photo, a text of notes) that the variable or a link happens to name.
CacheFile read_cache(const std::filesystem::path& path)
{
    std::error_code error;
    if (!std::filesystem::exists(std::filesystem::status(path, error))) return {};
    std::string text;
    try {
        const InputFile file(path);
        if (file.size() > kMaxTuningCacheBytes) return {Found::other, {}};
        text.resize(static_cast<std::size_t>(file.size()));
        text.resize(file.read_prefix(text.data(), text.size()));
    } catch (const std::exception&) {
        return {Found::other, {}};  // unreadable, not a regular file
    }
    CacheFile cache{Found::cache, {}};
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        if (end == std::string::npos) end = text.size();  // a last line cut short still counts
        const std::string line = text.substr(start, end - start);
        start = end + 1;
        const std::size_t tab = line.find('\t');
        if (tab == 0 || tab == std::string::npos || tab + 1 == line.size() ||
            line.find('\0') != std::string::npos || line.find('\r') != std::string::npos) {
            cache.found = Found::other;  // read for its good lines, never replaced
            continue;
        }
        cache.entries.push_back({line.substr(0, tab), line.substr(tab + 1)});
    }
    return cache;
}

std::string text_of(const std::vector<Entry>& entries, std::size_t first)
{
    std::string text;
    for (std::size_t i = first; i < entries.size(); ++i)
        text += entries[i].key + '\t' + entries[i].value + '\n';
    return text;
}

std::optional<std::size_t> parse_count(std::string_view text)
{
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || text.empty())
        return std::nullopt;
    return static_cast<std::size_t>(value);
}

}  // namespace

std::filesystem::path tuning_cache_path()
{
    if (const char* path = std::getenv("SDK_TUNING_CACHE")) return path;
    const std::filesystem::path folder = sdk_cache_folder();
    return folder.empty() ? folder : folder / "tuning.txt";
}

std::string device_key(const cl::Device& device)
{
    const cl::Platform platform(device.getInfo<CL_DEVICE_PLATFORM>());
    std::string key = platform.getInfo<CL_PLATFORM_NAME>() + " | " +
                      device.getInfo<CL_DEVICE_NAME>() + " | " +
                      device.getInfo<CL_DRIVER_VERSION>();
    // Limits lowered for a test (device_limits) make another device, with choices of its own: a
    // shape chosen under the device's own limits may not fit them.
    for (const char* variable :
         {"SDK_MAX_LOCAL_MEM_BYTES", "SDK_MAX_WORK_GROUP_SIZE", "SDK_MAX_KERNEL_WORK_GROUP_SIZE"})
        key += limit_setting(variable);
    // The file's separators cannot come from a driver's strings.
    for (auto& c : key)
        if (c == '\t' || c == '\n' || c == '\r' || c == '\0') c = ' ';
    return key;
}

std::optional<std::string> read_tuning_entry(const std::filesystem::path& cache,
                                             const std::string& key)
{
    if (cache.empty()) return std::nullopt;
    std::optional<std::string> found;
    for (auto& entry : read_cache(cache).entries)
        if (entry.key == key) found = std::move(entry.value);  // the last line for a key wins
    return found;
}

bool write_tuning_entry(const std::filesystem::path& cache, const std::string& key,
                        const std::string& value)
{
    if (cache.empty() || !fits_a_line(key, true) || !fits_a_line(value, false)) return false;
    // Through a symbolic link to the file it names, which must be a cache too: the link stays.
    const std::filesystem::path file = normalised(cache);
    CacheFile found = read_cache(file);
    if (found.found == Found::other) return false;  // not ours to replace

    std::vector<Entry> entries;
    for (auto& entry : found.entries)
        if (entry.key != key) entries.push_back(std::move(entry));
    entries.push_back({key, value});  // newest last, so the oldest are dropped first
    std::size_t first = 0;
    std::string text = text_of(entries, first);
    while (text.size() > kMaxTuningCacheBytes && first + 1 < entries.size())
        text = text_of(entries, ++first);
    if (text.size() > kMaxTuningCacheBytes) return false;

    try {
        std::filesystem::create_directories(file.parent_path());
        write_file_atomically(file, reinterpret_cast<const std::uint8_t*>(text.data()),
                              text.size());
        return true;
    } catch (const std::exception&) {
        return false;  // a cache we cannot write only costs a measurement next time
    }
}

SizeClass size_class_of(std::uint64_t width, std::uint64_t height)
{
    // Every image past the largest class is in it; stopping the count there also keeps the
    // product from wrapping (2^40 x 2^40 would be 0 in 64 bits).
    const std::uint64_t limit = std::uint64_t{1} << kLargestSizeClass;
    const std::uint64_t pixels = (width != 0 && height > limit / width) ? limit : width * height;
    unsigned k = 0;
    while (k < kLargestSizeClass && (pixels >> (k + 1)) != 0) ++k;
    return {std::max(k, kSmallestSizeClass)};
}

ImageSize representative_size(SizeClass size_class)
{
    const double pixels = 1.5 * std::ldexp(1.0, static_cast<int>(size_class.log2_pixels));
    const auto width = static_cast<std::size_t>(std::lround(std::sqrt(pixels * 4 / 3) / 16) * 16);
    const auto height = static_cast<std::size_t>(std::lround(pixels / static_cast<double>(width)));
    return {width, height};
}

ImageSize tuning_size(std::size_t width, std::size_t height)
{
    const SizeClass size_class = size_class_of(width, height);
    if (size_class.log2_pixels <= kSmallestSizeClass || size_class.log2_pixels >= kLargestSizeClass)
        return representative_size(size_class);
    return {width, height};
}

std::string describe(SizeClass size_class)
{
    const std::string k = std::to_string(size_class.log2_pixels);
    if (size_class.log2_pixels >= kLargestSizeClass) return "2^" + k + " pixels and more";
    if (size_class.log2_pixels <= kSmallestSizeClass)
        return "under 2^" + std::to_string(size_class.log2_pixels + 1) + " pixels";
    return "2^" + k + "-2^" + std::to_string(size_class.log2_pixels + 1) + " pixels";
}

std::string key_part(SizeClass size_class)
{
    return "pixels 2^" + std::to_string(size_class.log2_pixels);
}

std::optional<std::pair<std::size_t, std::size_t>> parse_work_group_shape(const std::string& text,
                                                                          std::uint64_t max_items)
{
    const std::size_t separator = text.find('x');
    if (separator == std::string::npos) return std::nullopt;
    const std::string_view whole(text);
    const auto x = parse_count(whole.substr(0, separator));
    const auto y = parse_count(whole.substr(separator + 1));
    if (!x || !y || *x == 0 || *y == 0) return std::nullopt;
    // x * y <= max_items, asked as a division so that no product can wrap.
    if (*x > max_items || *y > max_items / *x) return std::nullopt;
    return std::make_pair(*x, *y);
}

}  // namespace sdk
