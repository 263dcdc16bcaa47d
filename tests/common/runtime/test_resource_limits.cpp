// SPDX-License-Identifier: Apache-2.0
// The process limits named in messages (common/runtime/resource_limits.hpp): each note reads the limit
// as it is now, and says nothing of a limit that is not set. The limits are changed in this
// process and put back; the address-space limit set is far above what any process here uses
// (sanitizers' shadow memory included), so nothing else is affected.
#include "common/runtime/errors.hpp"
#include "common/runtime/resource_limits.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/resource.h>

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

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

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

TEST(LimitNotes, WhileAllocatingNamesTheBytesAndWhatFor)
{
    try {
        while_allocating(123, "the test's rows", []() -> int { throw std::bad_alloc(); });
        ADD_FAILURE() << "no error";
    } catch (const std::runtime_error& error) {
        EXPECT_EQ(std::string(error.what()).rfind("out of memory allocating 123 bytes for the test's rows", 0), 0u)
            << error.what();
    }
    EXPECT_EQ(while_allocating(1, "one", [] { return 7; }), 7);
}

}  // namespace
}  // namespace sdk
