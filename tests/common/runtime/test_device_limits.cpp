// SPDX-License-Identifier: Apache-2.0
// The limits launches and buffers are sized by (device_limits), and the environment's SDK_MAX_*
// lowering them: what the embedded-limits end-to-end tests rely on.
#include "common/runtime/device.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/work_size.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sdk {
namespace {
using test::test_context;

// Sets the variables for one test and removes them after it.
class LimitSettings {
public:
    LimitSettings(std::initializer_list<std::pair<const char*, std::string>> settings)
    {
        for (const auto& [name, value] : settings) {
            ::setenv(name, value.c_str(), 1);
            names_.push_back(name);
        }
    }
    ~LimitSettings()
    {
        for (const char* name : names_) ::unsetenv(name);
    }

private:
    std::vector<const char*> names_;
};

TEST(DeviceLimits, AreTheDevicesOwnWithoutSettings)
{
    const cl::Device& device = test_context().device;
    const DeviceLimits limits = device_limits(device);
    EXPECT_EQ(limits.max_allocation_bytes, device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>());
    EXPECT_EQ(limits.local_memory_bytes, device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>());
    EXPECT_EQ(limits.max_work_group_size, device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>());
    EXPECT_EQ(test_context().max_allocation_bytes(), limits.max_allocation_bytes);
}

TEST(DeviceLimits, TheEnvironmentLowersThemAndTheChecksFollow)
{
    const cl::Device& device = test_context().device;
    const DeviceLimits own = device_limits(device);
    ASSERT_GT(own.max_work_group_size, 16u) << "a device too small for this test";
    const LimitSettings settings{{"SDK_MAX_WORK_GROUP_SIZE", "16"},
                                 {"SDK_MAX_LOCAL_MEM_BYTES", "1000"},
                                 {"SDK_MAX_ALLOC_BYTES", "4096"}};
    const DeviceLimits lowered = device_limits(device);
    EXPECT_EQ(lowered.max_work_group_size, 16u);
    EXPECT_EQ(lowered.local_memory_bytes, std::min<std::uint64_t>(1000, own.local_memory_bytes));
    EXPECT_EQ(lowered.max_allocation_bytes, 4096u);
    EXPECT_EQ(test_context().max_allocation_bytes(), 4096u);
    for (const std::size_t size : lowered.max_work_item_sizes) EXPECT_LE(size, 16u);

    EXPECT_NO_THROW(check_work_group_within_device(device, 4, 4));
    try {
        check_work_group_within_device(device, 8, 4);
        ADD_FAILURE() << "accepted 32 work-items over a limit of 16";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("(SDK_MAX_WORK_GROUP_SIZE=16)"), std::string::npos)
            << error.what();
    }
    EXPECT_THROW(check_work_group_within_device(device, 32, 1), UsageError);  // wider than 16
    EXPECT_NO_THROW(check_local_memory(device, 4, 4, 1000));
    try {
        check_local_memory(device, 4, 4, 1001);
        ADD_FAILURE() << "accepted a tile over the lowered local memory";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("(SDK_MAX_LOCAL_MEM_BYTES=1000)"),
                  std::string::npos)
            << error.what();
    }
}

TEST(DeviceLimits, TheEnvironmentNeverRaisesThem)
{
    const cl::Device& device = test_context().device;
    const DeviceLimits own = device_limits(device);
    const LimitSettings settings{
        {"SDK_MAX_WORK_GROUP_SIZE", std::to_string(own.max_work_group_size * 2)},
        {"SDK_MAX_LOCAL_MEM_BYTES", std::to_string(own.local_memory_bytes * 2)}};
    const DeviceLimits same = device_limits(device);
    EXPECT_EQ(same.max_work_group_size, own.max_work_group_size);
    EXPECT_EQ(same.local_memory_bytes, own.local_memory_bytes);
    EXPECT_EQ(same.max_work_item_sizes, own.max_work_item_sizes);
}

TEST(DeviceLimits, AMistypedSettingIsAnErrorNamingIt)
{
    for (const char* name :
         {"SDK_MAX_WORK_GROUP_SIZE", "SDK_MAX_LOCAL_MEM_BYTES", "SDK_MAX_ALLOC_BYTES"}) {
        for (const char* value : {"0", "-5", "32k", "lots"}) {
            const LimitSettings settings{{name, value}};
            try {
                device_limits(test_context().device);
                ADD_FAILURE() << name << "=" << value << " accepted";
            } catch (const UsageError& error) {  // exit status 2, as a bad option's
                EXPECT_NE(std::string(error.what()).find(std::string(name) + "='" + value + "'"),
                          std::string::npos)
                    << error.what();
            }
        }
    }
}

// A child the driver started (PoCL's `ld`) still running when the sample is about to exit: the
// sample waits for it, and leaves it for the driver to reap (issue 47, item 8).
TEST(DriverProcesses, ASampleWaitsForThemAndLeavesThemToTheDriver)
{
    const std::string marker = ::testing::TempDir() + "driver-child-" + std::to_string(::getpid());
    std::remove(marker.c_str());
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::usleep(300000);  // linking a kernel; then only calls safe after a fork
        const int made = ::open(marker.c_str(), O_CREAT | O_WRONLY, 0644);
        if (made >= 0) ::close(made);
        ::_exit(0);
    }
    wait_for_driver_processes();
    FILE* file = std::fopen(marker.c_str(), "r");
    EXPECT_NE(file, nullptr) << "the sample would have exited with the child still running";
    if (file) std::fclose(file);
    int status = -1;
    EXPECT_EQ(::waitpid(child, &status, 0), child) << "the driver's child was reaped for it";
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    std::remove(marker.c_str());
}

}  // namespace
}  // namespace sdk
