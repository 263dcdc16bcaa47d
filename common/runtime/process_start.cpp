// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/process_start.hpp"

#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include <time.h>
#include <unistd.h>

namespace sdk {
namespace {

using Clock = std::chrono::steady_clock;

// How long this process had been running when its statics were set up, before main(), by the
// scheduler's count of its main thread's time on a processor and waiting for one
// (/proc/self/schedstat: nanoseconds since the process was made). Time asleep is not in it, so it
// is checked against the coarser record below.
// Only for a process that never slept: one that did (for a page of its program read from disk,
// say) has a voluntary context switch on record, and its count would put the start too late
// (a 16-core machine running tests 8 at a time saw it land after this process's statics).
std::optional<std::chrono::nanoseconds> age_by_the_scheduler()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    bool never_slept = false;
    while (std::getline(status, line))
        if (line.rfind("voluntary_ctxt_switches:", 0) == 0) {
            std::istringstream count(line.substr(line.find(':') + 1));
            unsigned long long switches = 1;
            never_slept = (count >> switches) && switches == 0;
        }
    if (!never_slept) return std::nullopt;
    std::ifstream file("/proc/self/schedstat");
    unsigned long long running = 0, waiting = 0;
    if (!(file >> running >> waiting)) return std::nullopt;
    return std::chrono::nanoseconds(static_cast<long long>(running + waiting));
}

// Set before main(): the moment, and the scheduler's age of the process then. Before any other
// file's statics (GCC's and Clang's init_priority; the order between files is otherwise
// unspecified), so that the start found from them is before everything the process's own code
// ran: were another file's statics set up first, a scheduler's count short by the time the
// process waited for a processor (where the kernel keeps no such count) could put the start
// after them (seen once on a 16-core machine running the tests 8 at a time).
#if defined(__GNUC__)
#define SDK_FIRST_STATIC __attribute__((init_priority(101)))
#else
#define SDK_FIRST_STATIC
#endif
const Clock::time_point statics_set_up SDK_FIRST_STATIC = Clock::now();
const std::optional<std::chrono::nanoseconds> age_at_statics SDK_FIRST_STATIC =
    age_by_the_scheduler();

// How long ago the kernel says this process started: the 22nd field of /proc/self/stat,
// starttime, in clock ticks since boot, against the boot clock now (both count time asleep).
std::optional<std::chrono::nanoseconds> age_by_the_kernel()
{
    std::ifstream file("/proc/self/stat");
    std::string line;
    if (!std::getline(file, line)) return std::nullopt;
    // The second field is the program's name in parentheses, which may itself hold spaces and
    // ')': the fields are counted from after the last ')'. The next is the 3rd, state.
    const std::size_t name_end = line.rfind(')');
    if (name_end == std::string::npos) return std::nullopt;
    std::istringstream fields(line.substr(name_end + 1));
    std::string field;
    for (int number = 3; number < 22; ++number)
        if (!(fields >> field)) return std::nullopt;
    unsigned long long ticks = 0;
    if (!(fields >> ticks)) return std::nullopt;
    const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
    timespec boot{};
    if (ticks_per_second <= 0 || ::clock_gettime(CLOCK_BOOTTIME, &boot) != 0) return std::nullopt;
    const auto since_boot =
        std::chrono::seconds(boot.tv_sec) + std::chrono::nanoseconds(boot.tv_nsec);
    const auto started = std::chrono::nanoseconds(
        static_cast<long long>(ticks / ticks_per_second) * 1'000'000'000LL +
        static_cast<long long>(ticks % ticks_per_second) * 1'000'000'000LL / ticks_per_second);
    if (started > since_boot) return std::nullopt;
    return since_boot - started;
}

}  // namespace

Clock::time_point process_start()
{
    static const Clock::time_point start = [] {
        const Clock::time_point now = Clock::now();
        const std::optional<std::chrono::nanoseconds> age = age_by_the_kernel();
        // The kernel's record is the earlier moment; one later than the statics (a clock that
        // does not agree) is not believed.
        if (!age || now - *age > statics_set_up) return statics_set_up;
        const Clock::time_point by_ticks = now - std::chrono::duration_cast<Clock::duration>(*age);
        // The record counts whole clock ticks (10 ms), rounded down: the start lies at most one
        // tick after it. The scheduler's count is exact where the process never slept before
        // main(); where it lies in that tick, it is the start.
        if (age_at_statics) {
            const Clock::time_point by_scheduler =
                statics_set_up - std::chrono::duration_cast<Clock::duration>(*age_at_statics);
            const long ticks_per_second = ::sysconf(_SC_CLK_TCK);
            const auto tick = std::chrono::nanoseconds(
                1'000'000'000LL / (ticks_per_second > 0 ? ticks_per_second : 100));
            if (by_scheduler >= by_ticks && by_scheduler <= by_ticks + tick + tick / 10)
                return by_scheduler;
        }
        return by_ticks;
    }();
    return start;
}

}  // namespace sdk
