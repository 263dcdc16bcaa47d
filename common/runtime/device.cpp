// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/device.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/icd_probe.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <mutex>
#include <sstream>
#include <thread>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sdk {

namespace {

cl_device_type to_cl_type(DeviceType type)
{
    switch (type) {
        case DeviceType::cpu:
            return CL_DEVICE_TYPE_CPU;
        case DeviceType::gpu:
            return CL_DEVICE_TYPE_GPU;
        case DeviceType::accelerator:
            return CL_DEVICE_TYPE_ACCELERATOR;
        case DeviceType::all:
            break;
    }
    return CL_DEVICE_TYPE_ALL;
}

std::vector<cl::Platform> all_platforms()
{
    std::vector<cl::Platform> platforms;
    try {
        cl::Platform::get(&platforms);
    } catch (const cl::Error& error) {
        // The ICD loader answers CL_PLATFORM_NOT_FOUND_KHR when no driver is registered.
        if (error.err() != -1001) throw OpenClError("listing OpenCL platforms", error);
    }
    if (platforms.empty()) throw DeviceNotFound(explain_missing_platform());
    return platforms;
}

std::vector<cl::Device> devices_of(const cl::Platform& platform, cl_device_type type)
{
    std::vector<cl::Device> devices;
    try {
        platform.getDevices(type, &devices);
    } catch (const cl::Error& error) {
        if (error.err() != CL_DEVICE_NOT_FOUND) throw OpenClError("listing devices", error);
    }
    return devices;
}

// PoCL lists no device at all when it cannot create its kernel cache folder: name that cause
// rather than leave "no device" to look like a missing driver.
std::string why_platforms_list_none(const std::vector<cl::Platform>& platforms)
{
    for (const auto& platform : platforms) {
        if (!devices_of(platform, CL_DEVICE_TYPE_ALL).empty()) return "";
    }
    const char* pocl_dir = std::getenv("POCL_CACHE_DIR");
    const char* xdg = std::getenv("XDG_CACHE_HOME");
    const char* home = std::getenv("HOME");
    std::filesystem::path cache_home;
    if (pocl_dir && *pocl_dir)
        cache_home = pocl_dir;
    else if (xdg && *xdg)
        cache_home = xdg;
    else if (home && *home)
        cache_home = std::filesystem::path(home) / ".cache";
    std::string names;
    for (const auto& platform : platforms)
        names += (names.empty() ? "" : ", ") + platform.getInfo<CL_PLATFORM_NAME>();
    std::string text = ": the platforms found (" + names + ") list no devices";
    std::error_code error;
    if (!cache_home.empty() && std::filesystem::exists(cache_home, error) &&
        !std::filesystem::is_directory(cache_home, error))
        text += "; PoCL lists none when it cannot create its kernel cache, and '" +
                cache_home.string() +
                "' (POCL_CACHE_DIR, XDG_CACHE_HOME or ~/.cache) is not a folder";
    return text;
}

std::string type_label(const std::optional<DeviceType>& type)
{
    if (!type) return "any";
    switch (*type) {
        case DeviceType::cpu:
            return "cpu";
        case DeviceType::gpu:
            return "gpu";
        case DeviceType::accelerator:
            return "accelerator";
        case DeviceType::all:
            break;
    }
    return "any";
}

}  // namespace

std::string device_type_name(cl_device_type type)
{
    if (type & CL_DEVICE_TYPE_GPU) return "gpu";
    if (type & CL_DEVICE_TYPE_CPU) return "cpu";
    if (type & CL_DEVICE_TYPE_ACCELERATOR) return "accelerator";
    return "other";
}

void list_devices(std::ostream& out)
{
    return while_doing("listing OpenCL devices", [&] {
        const auto platforms = all_platforms();
        for (std::size_t p = 0; p < platforms.size(); ++p) {
            out << "Platform " << p << ": " << platforms[p].getInfo<CL_PLATFORM_NAME>() << " ("
                << platforms[p].getInfo<CL_PLATFORM_VERSION>() << ")\n";
            const auto devices = devices_of(platforms[p], CL_DEVICE_TYPE_ALL);
            for (std::size_t d = 0; d < devices.size(); ++d) {
                const auto& device = devices[d];
                out << "  Device " << d << ": " << device.getInfo<CL_DEVICE_NAME>() << "\n    type "
                    << device_type_name(device.getInfo<CL_DEVICE_TYPE>()) << ", "
                    << device.getInfo<CL_DEVICE_VERSION>() << ", "
                    << device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>() << " compute units, "
                    << device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>() / (1024 * 1024)
                    << " MiB global memory\n";
            }
        }
    });
}

cl::Device select_device(const DeviceSelection& selection)
{
    return while_doing("selecting an OpenCL device", [&] {
        const auto platforms = all_platforms();
        if (selection.platform && *selection.platform >= platforms.size())
            throw DeviceNotFound("no OpenCL platform " + std::to_string(*selection.platform) +
                                 ": there are " + std::to_string(platforms.size()) +
                                 " (see --list-devices)");

        // Without -t, prefer a GPU (the devices the tutorials are about), then anything.
        std::vector<cl_device_type> preferences;
        if (selection.type)
            preferences = {to_cl_type(*selection.type)};
        else if (selection.device)
            preferences = {CL_DEVICE_TYPE_ALL};  // -d N counts all devices, as --list-devices does
        else
            preferences = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ALL};

        for (const cl_device_type type : preferences) {
            for (std::size_t p = 0; p < platforms.size(); ++p) {
                if (selection.platform && p != *selection.platform) continue;
                const auto devices = devices_of(platforms[p], type);
                if (devices.empty()) continue;
                const unsigned index = selection.device.value_or(0);
                if (index >= devices.size()) {
                    if (selection.platform)
                        throw DeviceNotFound(
                            "no OpenCL device " + std::to_string(index) + " of type " +
                            type_label(selection.type) + " on platform " + std::to_string(p) +
                            ": it has " + std::to_string(devices.size()) + " (see --list-devices)");
                    continue;
                }
                return devices[index];
            }
        }
        std::string where = selection.platform
                                ? " on platform " + std::to_string(*selection.platform)
                                : std::string();
        std::string which = selection.device ? " number " + std::to_string(*selection.device) : "";
        throw DeviceNotFound("no OpenCL device" + which + " of type " + type_label(selection.type) +
                             where + why_platforms_list_none(platforms) + " (see --list-devices)");
    });
}

std::vector<DeviceSelection> every_device_like(const DeviceSelection& selection)
{
    const cl::Device first = select_device(selection);
    return while_doing("listing the OpenCL devices for --devices all", [&] {
        const cl::Platform platform(first.getInfo<CL_DEVICE_PLATFORM>());
        const auto platforms = all_platforms();
        unsigned platform_index = 0;
        while (platform_index < platforms.size() && platforms[platform_index]() != platform())
            ++platform_index;
        // The type the choice was made in: -t's, else a GPU's when it is one, else all types.
        DeviceType type = DeviceType::all;
        if (selection.type)
            type = *selection.type;
        else if (!selection.device && (first.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU))
            type = DeviceType::gpu;
        const auto devices = devices_of(platform, to_cl_type(type));
        std::vector<DeviceSelection> every{{platform_index, 0, type}};
        for (unsigned index = 0; index < devices.size(); ++index) {
            if (devices[index]() == first())
                every.front().device = index;
            else
                every.push_back({platform_index, index, type});
        }
        return every;
    });
}

void OpenClContext::record(const cl::Kernel& kernel, const cl::Event& event) const
{
    if (commands) commands->record(kernel.getInfo<CL_KERNEL_FUNCTION_NAME>(), event);
    hand_to_command_observer(event);
}

std::string OpenClContext::device_name() const
{
    return device.getInfo<CL_DEVICE_NAME>();
}

namespace {

// The environment's `name`, a positive number of `units`, where it is below `device_value`. A
// bad value is a usage error (exit 2), as a bad option or SDK_PNG_DEFLATE is.
std::uint64_t lowered_by(const char* name, const char* units, std::uint64_t device_value)
{
    const char* forced = std::getenv(name);
    if (!forced || !*forced) return device_value;
    char* end = nullptr;
    errno = 0;
    const unsigned long long value = std::strtoull(forced, &end, 10);
    if (*end != '\0' || errno != 0 || value == 0 || forced[0] == '-')
        throw UsageError(std::string(name) + "='" + forced + "': expected a positive number of " +
                         units);
    return std::min<std::uint64_t>(device_value, value);
}

}  // namespace

DeviceLimits device_limits(const cl::Device& device)
{
    DeviceLimits limits;
    while_doing("querying the device's limits", [&] {
        limits.max_allocation_bytes = device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
        limits.local_memory_bytes = device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
        limits.max_work_group_size = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
        limits.max_work_item_sizes = device.getInfo<CL_DEVICE_MAX_WORK_ITEM_SIZES>();
    });
    limits.max_allocation_bytes =
        lowered_by("SDK_MAX_ALLOC_BYTES", "bytes", limits.max_allocation_bytes);
    limits.local_memory_bytes =
        lowered_by("SDK_MAX_LOCAL_MEM_BYTES", "bytes", limits.local_memory_bytes);
    limits.max_work_group_size = static_cast<std::size_t>(
        lowered_by("SDK_MAX_WORK_GROUP_SIZE", "work-items", limits.max_work_group_size));
    for (auto& size : limits.max_work_item_sizes) size = std::min(size, limits.max_work_group_size);
    limits.max_kernel_work_group_size = static_cast<std::size_t>(
        lowered_by("SDK_MAX_KERNEL_WORK_GROUP_SIZE", "work-items", limits.max_work_group_size));
    return limits;
}

std::string limit_setting(const char* variable)
{
    const char* value = std::getenv(variable);
    if (!value || !*value) return "";
    return std::string(" (") + variable + "=" + value + ")";
}

std::uint64_t OpenClContext::max_allocation_bytes() const
{
    return device_limits(device).max_allocation_bytes;
}

OpenClContext make_context(const DeviceSelection& selection)
{
    return make_context(select_device(selection));
}

namespace {
// The contexts a batch shares, one per device; reuse_contexts() turns the sharing on.
struct SharedContexts {
    std::mutex lock;
    bool on = false;
    std::vector<std::pair<cl::Device, cl::Context>> made;
};
SharedContexts& shared_contexts()
{
    // Never destroyed: releasing contexts after main() returns would race the driver's own exit.
    static SharedContexts* contexts = new SharedContexts;
    return *contexts;
}

cl::Context context_for(const cl::Device& device)
{
    SharedContexts& shared = shared_contexts();
    const std::lock_guard<std::mutex> hold(shared.lock);
    if (!shared.on) return cl::Context(device);
    for (const auto& [known, context] : shared.made) {
        if (known() == device()) return context;
    }
    shared.made.emplace_back(device, cl::Context(device));
    return shared.made.back().second;
}
}  // namespace

void reuse_contexts()
{
    SharedContexts& shared = shared_contexts();
    const std::lock_guard<std::mutex> hold(shared.lock);
    shared.on = true;
}

bool reusing_contexts()
{
    SharedContexts& shared = shared_contexts();
    const std::lock_guard<std::mutex> hold(shared.lock);
    return shared.on;
}

OpenClContext make_context(const cl::Device& device)
{
    OpenClContext cl;
    cl.device = device;
    while_doing("creating a context and a profiling queue", [&] {
        cl.context = context_for(cl.device);
        cl.queue = cl::CommandQueue(cl.context, cl.device, CL_QUEUE_PROFILING_ENABLE);
    });
    if (logging_commands_of_new_contexts()) {
        cl.commands = std::make_shared<CommandLog>();
        cl.commands->calibrate(cl.device, cl.queue);
    }
    return cl;
}

void check_fits_device(const OpenClContext& cl, std::uint64_t bytes, const std::string& what)
{
    const std::uint64_t limit = cl.max_allocation_bytes();
    const char* forced = std::getenv("SDK_MAX_ALLOC_BYTES");
    if (bytes > limit)
        throw std::runtime_error(what + " needs a buffer of " + std::to_string(bytes) +
                                 " bytes, more than the device's maximum allocation of " +
                                 std::to_string(limit) + " bytes (CL_DEVICE_MAX_MEM_ALLOC_SIZE" +
                                 (forced && *forced ? " or SDK_MAX_ALLOC_BYTES)" : ")"));
}

namespace {

// This process's children still running (their zombies, exited and not yet reaped by whoever
// started them, left out), read from /proc: the driver does not say what it started.
std::vector<pid_t> running_children()
{
    std::vector<pid_t> children;
    const pid_t self = ::getpid();
    std::error_code error;
    for (std::filesystem::directory_iterator entry("/proc", error), end; !error && entry != end;
         entry.increment(error)) {
        const std::string name = entry->path().filename().string();
        if (name.empty() || !std::isdigit(static_cast<unsigned char>(name[0]))) continue;
        std::ifstream stat(entry->path() / "stat");
        std::string line;
        if (!std::getline(stat, line)) continue;
        // "pid (command) state parent ...": the command may hold spaces and parentheses.
        const std::size_t command_end = line.rfind(')');
        if (command_end == std::string::npos) continue;
        std::istringstream fields(line.substr(command_end + 1));
        char state = 0;
        long parent = 0;
        if (fields >> state >> parent && parent == self && state != 'Z')
            children.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return children;
}

// Whether this process has a child at all, running or exited and not yet reaped: one call, which
// reaps nothing (WNOWAIT), where running_children reads every process's record in /proc.
bool may_have_children()
{
    siginfo_t info{};
    return ::waitid(P_ALL, 0, &info, WEXITED | WNOHANG | WNOWAIT) == 0 || errno != ECHILD;
}

}  // namespace

void wait_for_driver_processes()
{
    // The driver's own thread reaps each child: this only watches until none is running, so
    // that the driver's waitpid still finds its child.
    if (!may_have_children()) return;  // the usual case: the driver started none
    constexpr auto kLongest = std::chrono::seconds(10);
    const auto until = std::chrono::steady_clock::now() + kLongest;
    for (std::vector<pid_t> children = running_children(); !children.empty();
         children = running_children()) {
        if (std::chrono::steady_clock::now() >= until) {
            for (const pid_t child : children) ::kill(child, SIGTERM);  // stuck: ended, not left
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

}  // namespace sdk
