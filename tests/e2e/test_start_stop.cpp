// SPDX-License-Identifier: Apache-2.0
// opencl_start_stop, the driver's start and stop that scripts/whole-run.sh and bench's file/
// benchmarks put beside their floor: it must start the device the samples would, and fail as
// they do, one line and a non-zero status, or the floor it reports would be a failure's time.
#include "child_process.hpp"

#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

class StartStop : public ::testing::Test {
protected:
    void SetUp() override
    {
        logs_ = fs::temp_directory_path() /
                ("sdk-start-stop-" + std::to_string(::getpid()) + "-" +
                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(logs_);
    }
    void TearDown() override { fs::remove_all(logs_); }

    Outcome run(const std::vector<std::string>& arguments)
    {
        return run_program(sdk::executable_directory() / "opencl_start_stop", arguments, logs_,
                           logs_);
    }

    fs::path logs_;
};

TEST_F(StartStop, StartsTheSamplesDeviceQuietly)
{
    const Outcome outcome = run({});
    EXPECT_TRUE(outcome.exited && outcome.status == 0) << outcome.how << "\n" << outcome.err;
    EXPECT_EQ(outcome.err, "");
    EXPECT_EQ(outcome.out, "");
}

TEST_F(StartStop, NoSuchPlatformIsOneLineAndStatus1)
{
    const Outcome outcome = run({"-p", "99"});
    EXPECT_TRUE(outcome.exited && outcome.status == 1) << outcome.how;
    EXPECT_EQ(outcome.err.rfind("opencl_start_stop: no OpenCL platform 99", 0), 0u) << outcome.err;
    EXPECT_EQ(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 1) << outcome.err;
}

TEST_F(StartStop, UnknownOptionIsOneLineAndStatus2)
{
    const Outcome outcome = run({"--bogus"});
    EXPECT_TRUE(outcome.exited && outcome.status == 2) << outcome.how;
    EXPECT_NE(outcome.err.find("--bogus"), std::string::npos) << outcome.err;
    EXPECT_EQ(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 1) << outcome.err;
}

TEST_F(StartStop, ListsDevices)
{
    const Outcome outcome = run({"--list-devices"});
    EXPECT_TRUE(outcome.exited && outcome.status == 0) << outcome.how;
    EXPECT_NE(outcome.out.find("Platform"), std::string::npos) << outcome.out;
}

}  // namespace
