// SPDX-License-Identifier: Apache-2.0
// End to end: the real sample executables, run as child processes with settings in the
// environment that they cannot use (SDK_MAX_*, SDK_PNG_DEFLATE, SDK_JPEG_IDCT, XDG_CACHE_HOME):
// one stderr line naming the setting, the exit status, nothing written.
#include "bad_input_support.hpp"

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;
using namespace e2etest::bad_input;

// A setting in the environment that is not a value it takes is a usage error, exit status 2, as a
// bad option is: the device's limits (SDK_MAX_*) exited 1 while the codecs' exited 2 (issue 47,
// item 8). Each names the variable and its value on one line, and nothing is written.
TEST_F(BadInput, MistypedSettingsAreUsageErrors)
{
    const auto arguments = reading(write_input("input.bmp", valid_bmp()));
    const std::vector<std::pair<const char*, const char*>> settings{
        {"SDK_MAX_ALLOC_BYTES", "12x"},     {"SDK_MAX_LOCAL_MEM_BYTES", "0"},
        {"SDK_MAX_WORK_GROUP_SIZE", "-64"}, {"SDK_MAX_KERNEL_WORK_GROUP_SIZE", "lots"},
        {"SDK_PNG_DEFLATE", "zlib"},        {"SDK_JPEG_IDCT", "gpu"}};
    for (const auto& [variable, value] : settings) {
        SCOPED_TRACE(std::string(variable) + "=" + value);
        RunOptions options;
        options.environment[variable] = value;
        expect_failure(arguments, kUsageError, std::string(variable) + "='" + value + "'", options);
    }
}

// PoCL lists no device when its cache folder cannot be made; the error says so.
TEST_F(BadInput, CacheHomeThatIsAFileIsNamed)
{
    const fs::path input = write_input("input.bmp", valid_bmp());
    const fs::path not_a_folder = write_input("cache-file", {1});
    const char* previous = std::getenv("XDG_CACHE_HOME");
    const std::string saved = previous ? previous : "";
    ::setenv("XDG_CACHE_HOME", not_a_folder.c_str(), 1);
    const Outcome outcome = run_program(samples_.front(), reading(input), inputs_, logs_);
    if (previous)
        ::setenv("XDG_CACHE_HOME", saved.c_str(), 1);
    else
        ::unsetenv("XDG_CACHE_HOME");
    if (outcome.exited && outcome.status == 0)
        GTEST_SKIP() << "a device other than PoCL ran: nothing to name";
    EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how;
    EXPECT_NE(outcome.err.find("is not a folder"), std::string::npos) << outcome.err;
    EXPECT_EQ(count_lines(outcome.err), 1u) << outcome.err;
}

}  // namespace
