// SPDX-License-Identifier: Apache-2.0
// The options every tuned sample shares (samples/app/tuning_options.hpp): the shape --work-group
// names, and --retune refused beside it.
#include "samples/app/tuning_options.hpp"
#include "common/runtime/errors.hpp"

#include <gtest/gtest.h>

namespace sdk {
namespace {

TEST(TuningOptions, NamedWorkGroupIsTheShapeGivenOrNothing)
{
    TuningOptions options;
    EXPECT_FALSE(named_work_group(options));
    options.work_group = "16x4";
    EXPECT_EQ(named_work_group(options), (WorkGroupShape{16, 4}));
}

TEST(TuningOptions, RetuneBesideANamedWorkGroupIsAUsageError)
{
    TuningOptions options;
    options.retune = true;
    EXPECT_NO_THROW(refuse_retune_with_work_group(options));  // measure again: fine alone
    options.work_group = "32x8";
    EXPECT_THROW(refuse_retune_with_work_group(options), UsageError);
    options.retune = false;
    EXPECT_NO_THROW(refuse_retune_with_work_group(options));  // a shape named: fine alone
}

}  // namespace
}  // namespace sdk
