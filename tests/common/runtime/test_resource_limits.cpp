// SPDX-License-Identifier: Apache-2.0
// The process limits named in messages (common/runtime/resource_limits.hpp): each note reads the
// limit as it is now, and says nothing of a limit that is not set. The limits are changed in this
// process and put back; the address-space limit set is far above what any process here uses
// (sanitizers' shadow memory included), so nothing else is affected.
#include "common/runtime/errors.hpp"
#include "common/runtime/resource_limits.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sdk {
namespace {

// Sets a soft limit for the test's lifetime.
class SoftLimit {
public:
    SoftLimit(decltype(RLIMIT_AS) resource, rlim_t value) : resource_(resource)
    {
        ::getrlimit(resource_, &saved_);
        struct rlimit changed = saved_;
        changed.rlim_cur = value;
        set_ = ::setrlimit(resource_, &changed) == 0;
    }
    ~SoftLimit() { ::setrlimit(resource_, &saved_); }
    bool set() const { return set_; }

private:
    decltype(RLIMIT_AS) resource_;
    struct rlimit saved_ {};
    bool set_ = false;
};

bool has(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

TEST(LimitNotes, OpenFilesNoteGivesTheLimitAndWhatIsOpen)
{
    const SoftLimit limit(RLIMIT_NOFILE, 64);
    ASSERT_TRUE(limit.set());
    const std::string note = open_files_limit_note();
    EXPECT_TRUE(has(note, "may have 64 files open at once (ulimit -n) and has ")) << note;
    EXPECT_FALSE(has(note, "has 0 open")) << note;  // stdin, stdout and stderr at least
}

TEST(LimitNotes, MemoryNoteAndMessageGiveTheAddressSpaceLimit)
{
    const rlim_t huge = rlim_t{1} << 60;  // bytes; far above any real use
    {
        const SoftLimit limit(RLIMIT_AS, huge);
        ASSERT_TRUE(limit.set());
        EXPECT_EQ(memory_limit_note(), "this process's address space is limited to " +
                                           std::to_string(huge / 1024) + " KiB (ulimit -v)");
        EXPECT_EQ(out_of_memory_message("the luminance", 4096),
                  "out of memory allocating 4096 bytes for the luminance; " + memory_limit_note());
    }
    struct rlimit now {};
    ::getrlimit(RLIMIT_AS, &now);
    struct rlimit data {};
    ::getrlimit(RLIMIT_DATA, &data);
    if (now.rlim_cur == RLIM_INFINITY && data.rlim_cur == RLIM_INFINITY) {
        EXPECT_EQ(memory_limit_note(), "");
        const std::string message = out_of_memory_message("", 0);
        EXPECT_EQ(message.rfind("out of memory (a host allocation failed)", 0), 0u) << message;
    }
}

// What a batch bounds its photos in flight by (samples/app/photos_in_flight.hpp): the files it
// may still open, each one opened counted.
TEST(LimitNotes, FilesFreeAreTheLimitLessThoseOpen)
{
    const SoftLimit limit(RLIMIT_NOFILE, 64);
    ASSERT_TRUE(limit.set());
    const std::uint64_t before = files_free();
    EXPECT_GT(before, 0u);
    EXPECT_LT(before, 64u);  // stdin, stdout and stderr at least
    const int fd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    ASSERT_GE(fd, 0);
    EXPECT_EQ(files_free(), before - 1);
    ::close(fd);
}

// The host memory a batch's photos may take: what the machine has available, or less where an
// address-space limit leaves less, and then named so. The limit is set in a child process: it
// is tight, and this process's other tests must not meet it.
TEST(LimitNotes, MemoryRoomIsTheLeastOfWhatIsAvailableAndWhatUlimitLeaves)
{
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "a sanitizer maps its own memory as it goes: no tight limit for it";
#endif
    const MemoryRoom machine = memory_room();
    ASSERT_GT(machine.bytes, 0u) << "Linux says how much memory is available";
    constexpr std::uint64_t kRoom = std::uint64_t{256} << 20;
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::ifstream statm("/proc/self/statm");
        std::uint64_t pages = 0;
        statm >> pages;
        const std::uint64_t mapped = pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
        struct rlimit tight {};
        ::getrlimit(RLIMIT_AS, &tight);
        tight.rlim_cur = mapped + kRoom;
        if (::setrlimit(RLIMIT_AS, &tight) != 0) ::_exit(2);
        const MemoryRoom room = memory_room();
        // Less than the 256 MiB given (the reading maps a little), and most of it.
        const bool named = room.set_by == "left under ulimit -v";
        ::_exit(named && room.bytes <= kRoom && room.bytes > kRoom / 2 ? 0 : 1);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    if (machine.bytes <= kRoom) GTEST_SKIP() << "the machine has less than 256 MiB available";
    EXPECT_EQ(WEXITSTATUS(status), 0) << "the room under ulimit -v was not its own";
}

// A container's memory limit (its cgroup's), read from a made-up /proc/self/cgroup and cgroup
// folder: the least left of the cgroup and those above it, the inactive page cache counted as
// left; no limit, or v1's huge number for none, is no bound.
TEST(LimitNotes, WhatACgroupHasLeftIsItsLimitLessWhatItUses)
{
    namespace fs = std::filesystem;
    std::string pattern = (fs::temp_directory_path() / "sdk-cgroup-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    const fs::path root = pattern;
    const auto put = [&](const fs::path& file, const std::string& text) {
        fs::create_directories((root / file).parent_path());
        std::ofstream(root / file) << text;
    };
    constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
    // v2: the container has 1024 MiB, uses 600 of which 100 are inactive cache: 524 left; the
    // service inside it has no limit of its own ("max").
    put("v2/cgroup", "0::/box/service\n");
    put("v2/sys/box/memory.max", std::to_string(1024 * kMiB) + "\n");
    put("v2/sys/box/memory.current", std::to_string(600 * kMiB) + "\n");
    put("v2/sys/box/memory.stat", "anon 1\ninactive_file " + std::to_string(100 * kMiB) + "\n");
    put("v2/sys/box/service/memory.max", "max\n");
    put("v2/sys/box/service/memory.current", std::to_string(500 * kMiB) + "\n");
    EXPECT_EQ(left_in_cgroup((root / "v2/cgroup").string(), (root / "v2/sys").string()),
              524 * kMiB);
    // v1: the memory controller's line; its folder under memory/; 2048 MiB less 1500 used.
    put("v1/cgroup", "5:cpu:/x\n4:memory:/box\n0::/\n");
    put("v1/sys/memory/box/memory.limit_in_bytes", std::to_string(2048 * kMiB) + "\n");
    put("v1/sys/memory/box/memory.usage_in_bytes", std::to_string(1500 * kMiB) + "\n");
    put("v1/sys/memory/memory.limit_in_bytes", "9223372036854771712\n");  // no limit
    put("v1/sys/memory/memory.usage_in_bytes", std::to_string(9000 * kMiB) + "\n");
    EXPECT_EQ(left_in_cgroup((root / "v1/cgroup").string(), (root / "v1/sys").string()),
              548 * kMiB);
    // No limit anywhere: nothing.
    put("none/cgroup", "0::/\n");
    EXPECT_EQ(left_in_cgroup((root / "none/cgroup").string(), (root / "none/sys").string()),
              std::nullopt);
    std::error_code ignored;
    fs::remove_all(root, ignored);
}

TEST(LimitNotes, WhileAllocatingNamesTheBytesAndWhatFor)
{
    try {
        while_allocating(123, "the test's rows", []() -> int { throw std::bad_alloc(); });
        ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& error) {
        EXPECT_EQ(std::string(error.what())
                      .rfind("out of memory allocating 123 bytes for the test's rows", 0),
                  0u)
            << error.what();
    }
    EXPECT_EQ(while_allocating(1, "one", [] { return 7; }), 7);
}

}  // namespace
}  // namespace sdk
