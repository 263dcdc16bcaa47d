#include "runtime/program_cache.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <system_error>
#include <vector>

#include <unistd.h>

namespace sdk {

namespace {

// A binary larger than this is not a program of ours: refuse to read it.
constexpr std::uintmax_t kMaxBinaryBytes = std::uintmax_t{64} << 20;

// 64-bit FNV-1a, twice with different offsets for a 128-bit key: not cryptographic, but the key
// only has to tell our own sources and options apart.
std::uint64_t fnv1a(const std::string& text, std::uint64_t hash)
{
    for (const unsigned char c : text) {
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

ProgramCacheEntry program_cache_entry(const OpenClContext& cl, const std::string& full_source,
                                      const std::string& options)
{
    if (const char* setting = std::getenv("SDK_PROGRAM_CACHE"); setting && std::string(setting) == "0")
        return {};
    const std::filesystem::path folder = sdk_cache_folder();
    if (folder.empty()) return {};
    try {
        const cl::Platform platform(cl.device.getInfo<CL_DEVICE_PLATFORM>());
        const std::string identity = platform.getInfo<CL_PLATFORM_NAME>() + '\n' +
                                     platform.getInfo<CL_PLATFORM_VERSION>() + '\n' +
                                     cl.device.getInfo<CL_DEVICE_NAME>() + '\n' +
                                     cl.device.getInfo<CL_DRIVER_VERSION>() + '\n' + options +
                                     '\n' + full_source;
        const std::string key =
            hex(fnv1a(identity, 0xcbf29ce484222325ull)) + hex(fnv1a(identity, 0x84222325cbf29ce4ull));
        return {folder / "programs" / (key + ".bin")};
    } catch (const cl::Error&) {
        return {};  // a driver that cannot name itself gets no cache
    }
}

std::optional<cl::Program> load_cached_program(const OpenClContext& cl,
                                               const ProgramCacheEntry& entry,
                                               const std::string& options)
{
    if (entry.path.empty()) return std::nullopt;
    std::error_code error;
    const auto status = std::filesystem::status(entry.path, error);
    if (error || !std::filesystem::is_regular_file(status)) return std::nullopt;
    const std::uintmax_t size = std::filesystem::file_size(entry.path, error);
    if (error || size == 0 || size > kMaxBinaryBytes) return std::nullopt;
    std::ifstream file(entry.path, std::ios::binary);
    std::vector<unsigned char> binary(static_cast<std::size_t>(size));
    if (!file.read(reinterpret_cast<char*>(binary.data()), static_cast<std::streamsize>(size)))
        return std::nullopt;
    try {
        cl::Program program(cl.context, {cl.device}, cl::Program::Binaries{binary});
        program.build({cl.device}, options.c_str());
        return program;
    } catch (const cl::Error&) {
        return std::nullopt;  // a stale or damaged entry: build from source instead
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
            file.write(reinterpret_cast<const char*>(binaries.front().data()),
                       static_cast<std::streamsize>(binaries.front().size()));
            if (!file.flush()) {
                std::filesystem::remove(temporary, error);
                return;
            }
        }
        std::filesystem::rename(temporary, entry.path, error);
        if (error) std::filesystem::remove(temporary, error);
    } catch (const cl::Error&) {
        // No binary from this driver: no cache, and nothing wrong.
    }
}

}  // namespace sdk
