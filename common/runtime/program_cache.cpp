// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/program_cache.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string_view>
#include <system_error>
#include <vector>

#include <unistd.h>

namespace sdk {

namespace {

// A binary larger than this is not a program of ours: refuse to read it.
constexpr std::uintmax_t kMaxBinaryBytes = std::uintmax_t{64} << 20;
// The first line of every entry; a new layout gets a new number, so older entries are rebuilt.
constexpr char kEntryFormat[] = "opencl-image-filters program binary 2\n";

// 64-bit FNV-1a, twice with different offsets for 128 bits, in hex: not cryptographic, but it
// only has to tell our own sources and options apart, and find a binary cut short or damaged.
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash)
{
    for (const unsigned char c : bytes) {
        hash ^= c;
        hash *= 0x100000001b3ull;
    }
    return hash;
}

std::string hex(std::uint64_t value)
{
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
    return text;
}

std::string digest(std::string_view bytes)
{
    return hex(fnv1a(bytes, 0xcbf29ce484222325ull)) + hex(fnv1a(bytes, 0x84222325cbf29ce4ull));
}

std::string_view as_text(const std::vector<unsigned char>& bytes)
{
    return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

// The line after the provenance: "binary <bytes> <digest>".
std::string binary_line(std::string_view binary)
{
    return "binary " + std::to_string(binary.size()) + " " + digest(binary) + "\n";
}

// The entry's binary when the file is this program's and whole: it starts with the entry's
// provenance, and what follows is a binary line and exactly the binary it describes.
std::optional<std::vector<unsigned char>> read_whole_binary(const ProgramCacheEntry& entry)
{
    std::error_code error;
    const auto status = std::filesystem::status(entry.path, error);
    if (error || !std::filesystem::is_regular_file(status)) return std::nullopt;
    const std::uintmax_t size = std::filesystem::file_size(entry.path, error);
    if (error || size <= entry.provenance.size() || size > kMaxBinaryBytes) return std::nullopt;
    std::string contents(static_cast<std::size_t>(size), '\0');
    std::ifstream file(entry.path, std::ios::binary);
    if (!file.read(contents.data(), static_cast<std::streamsize>(size))) return std::nullopt;
    if (contents.compare(0, entry.provenance.size(), entry.provenance) != 0) return std::nullopt;
    const std::size_t line_end = contents.find('\n', entry.provenance.size());
    if (line_end == std::string::npos) return std::nullopt;
    const std::string_view binary = std::string_view(contents).substr(line_end + 1);
    if (binary.empty() ||
        contents.compare(entry.provenance.size(), line_end + 1 - entry.provenance.size(),
                         binary_line(binary)) != 0)
        return std::nullopt;
    return std::vector<unsigned char>(binary.begin(), binary.end());
}

// After `entry` is saved: the entries of its lineage it supersedes go, then, while the folder's
// entries add up to more than kMaxProgramCacheBytes, the one written longest ago. Best effort:
// another run may be removing the same files.
void evict_beside(const ProgramCacheEntry& entry)
{
    struct Entry {
        std::filesystem::path path;
        std::uintmax_t bytes;
        std::filesystem::file_time_type written;
    };
    std::vector<Entry> kept;
    std::uintmax_t total = 0;
    std::error_code error;
    for (const auto& file : std::filesystem::directory_iterator(entry.path.parent_path(), error)) {
        const std::string name = file.path().filename().string();
        if (file.path() == entry.path || file.path().extension() != ".bin" ||
            !file.is_regular_file(error))
            continue;
        if (name.rfind(entry.lineage, 0) == 0) {
            std::filesystem::remove(file.path(), error);  // superseded: its source was edited
            continue;
        }
        const std::uintmax_t bytes = file.file_size(error);
        if (error) continue;
        kept.push_back({file.path(), bytes, file.last_write_time(error)});
        total += bytes;
    }
    total += std::filesystem::file_size(entry.path, error);
    std::sort(kept.begin(), kept.end(),
              [](const Entry& a, const Entry& b) { return a.written < b.written; });
    for (const Entry& oldest : kept) {
        if (total <= kMaxProgramCacheBytes) break;
        if (std::filesystem::remove(oldest.path, error)) total -= oldest.bytes;
    }
}

}  // namespace

std::filesystem::path sdk_cache_folder()
{
    if (const char* folder = std::getenv("SDK_CACHE_DIR"); folder && *folder) return folder;
    if (const char* cache = std::getenv("XDG_CACHE_HOME"); cache && *cache)
        return std::filesystem::path(cache) / "opencl-image-filters";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "opencl-image-filters";
    return {};
}

ProgramCacheEntry program_cache_entry(const OpenClContext& cl,
                                      const std::filesystem::path& source_file,
                                      const std::string& full_source, const std::string& options)
{
    if (const char* setting = std::getenv("SDK_PROGRAM_CACHE");
        setting && std::string(setting) == "0")
        return {};
    const std::filesystem::path folder = sdk_cache_folder();
    if (folder.empty()) return {};
    try {
        const cl::Platform platform(cl.device.getInfo<CL_DEVICE_PLATFORM>());
        const std::string platform_name = platform.getInfo<CL_PLATFORM_NAME>();
        const std::string platform_version = platform.getInfo<CL_PLATFORM_VERSION>();
        const std::string device = cl.device.getInfo<CL_DEVICE_NAME>();
        const std::string driver = cl.device.getInfo<CL_DRIVER_VERSION>();
        const std::string key = digest(platform_name + '\n' + platform_version + '\n' + device +
                                       '\n' + driver + '\n' + options + '\n' + full_source);
        const std::string provenance =
            kEntryFormat + ("key " + key + "\n") +
            ("platform " + platform_name + " (" + platform_version + ")\n") +
            ("device " + device + "\n") + ("driver " + driver + "\n") +
            ("options " + options + "\n") + ("source " + digest(full_source) + "\n");
        const std::string lineage =
            digest(platform_name + '\n' + platform_version + '\n' + device + '\n' + driver + '\n' +
                   options + '\n' +
                   std::filesystem::absolute(source_file).lexically_normal().string())
                .substr(0, 16) +
            "-";
        return {folder / "programs" / (lineage + key + ".bin"), provenance, lineage};
    } catch (const cl::Error&) {
        return {};  // a driver that cannot name itself gets no cache
    }
}

std::optional<cl::Program> load_cached_program(const OpenClContext& cl,
                                               const ProgramCacheEntry& entry,
                                               const std::string& options)
{
    if (entry.path.empty()) return std::nullopt;
    const auto binary = read_whole_binary(entry);
    if (!binary) return std::nullopt;
    try {
        cl::Program program(cl.context, {cl.device}, cl::Program::Binaries{*binary});
        program.build({cl.device}, options.c_str());
        return program;
    } catch (const cl::Error&) {
        return std::nullopt;  // a binary this driver no longer takes: build from source instead
    }
}

void save_program_binary(const OpenClContext& cl, const cl::Program& program,
                         const ProgramCacheEntry& entry)
{
    if (entry.path.empty()) return;
    try {
        const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
        if (binaries.size() != 1 || binaries.front().empty()) return;
        (void)cl;
        std::error_code error;
        std::filesystem::create_directories(entry.path.parent_path(), error);
        if (error) return;
        const std::filesystem::path temporary =
            entry.path.string() + ".tmp-" + std::to_string(::getpid());
        {
            std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
            const std::string_view binary = as_text(binaries.front());
            file << entry.provenance << binary_line(binary);
            file.write(binary.data(), static_cast<std::streamsize>(binary.size()));
            if (!file.flush()) {
                std::filesystem::remove(temporary, error);
                return;
            }
        }
        std::filesystem::rename(temporary, entry.path, error);
        if (error) {
            std::filesystem::remove(temporary, error);
            return;
        }
        evict_beside(entry);
    } catch (const cl::Error&) {
        // No binary from this driver: no cache, and nothing wrong.
    }
}

}  // namespace sdk
