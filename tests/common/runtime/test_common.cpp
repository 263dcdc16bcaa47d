// SPDX-License-Identifier: Apache-2.0
// The small pieces of common/runtime: work sizes, statistics, the step table, the process's start.
// (The border modes and names, of kernels/, are tested in tests/kernels/test_border_reference.cpp.)
#include "common/runtime/errors.hpp"
#include "common/runtime/pipeline_timer.hpp"
#include "common/runtime/process_start.hpp"
#include "common/runtime/profiling.hpp"
#include "common/runtime/program.hpp"
#include "common/runtime/work_size.hpp"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace sdk {
namespace {

// Set while this binary's statics are, before main(): the process had started by then.
const std::chrono::steady_clock::time_point kStaticsSetUp = std::chrono::steady_clock::now();

// process_start() is the kernel's record of the start: before anything in the process ran, this
// file's statics included, and not long before them (not the machine's boot, say).
TEST(ProcessStart, IsBeforeAnythingInTheProcessRan)
{
    EXPECT_LE(process_start(), kStaticsSetUp);
    EXPECT_GT(process_start(), kStaticsSetUp - std::chrono::seconds(10));
    EXPECT_EQ(process_start(), process_start());  // asked once
}

// The table's total is its span, from the origin to the last step's end: the steps, and on a line
// of its own what lies between them.
TEST(PipelineTimer, TheTotalIsTheSpanAndTheGapsAreALine)
{
    using std::chrono::milliseconds;
    const auto origin = std::chrono::steady_clock::now() - milliseconds(100);
    PipelineTimer pipeline(origin);
    pipeline.add("start the program", 0, origin, origin + milliseconds(10));
    pipeline.add("kernel", 3000000, origin + milliseconds(30), origin + milliseconds(50));
    pipeline.add("kernel", 3000000, origin + milliseconds(60), origin + milliseconds(70));
    EXPECT_DOUBLE_EQ(pipeline.total_ms(), 40);
    EXPECT_DOUBLE_EQ(pipeline.span_ms(), 70);
    EXPECT_DOUBLE_EQ(pipeline.step_ms("kernel"), 30);
    std::ostringstream table;
    pipeline.print(table);
    const std::string text = table.str();
    // A repeated step is one line; the 30 ms between the steps (20 + 10) have theirs; 70 in all.
    EXPECT_NE(text.find("  kernel                             30.000       200.0     43%"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("  between the steps                  30.000           -     43%"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find("  total                              70.000"), std::string::npos) << text;
    EXPECT_EQ(PipelineTimer().span_ms(), 0);  // nothing timed yet
}

TEST(IncludeOption, QuotesOnlyAFolderWithSpaces)
{
    EXPECT_EQ(include_option("/opt/sdk/bin"), "-I /opt/sdk/bin");
    EXPECT_EQ(include_option("/home/me/My Kernels"), "-I \"/home/me/My Kernels\"");
}

TEST(Summarize, MedianMinMax)
{
    const Statistics odd = summarize({5, 1, 3});
    EXPECT_DOUBLE_EQ(odd.median, 3);
    EXPECT_DOUBLE_EQ(odd.min, 1);
    EXPECT_DOUBLE_EQ(odd.max, 5);
    EXPECT_DOUBLE_EQ(summarize({4, 1, 3, 2}).median, 2.5);
    EXPECT_DOUBLE_EQ(summarize({}).median, 0);
}

TEST(GigabytesPerSecond, Units)
{
    EXPECT_DOUBLE_EQ(gigabytes_per_second(1'000'000'000, 1000.0), 1.0);
    EXPECT_DOUBLE_EQ(gigabytes_per_second(3'000'000, 1.0), 3.0);
    EXPECT_DOUBLE_EQ(gigabytes_per_second(1, 0.0), 0.0);
}

TEST(StepTable, PrintsRelativeTimesAndBandwidth)
{
    StepTable table;
    table.add("upload", 1000, 3000, 4000);  // 2000 ns, 4000 bytes: 2000 MB/s
    table.add("kernel", 3000, 4000, 1000);  // 1000 ns: 1000 MB/s
    std::ostringstream out;
    table.print(out);
    const std::string text = out.str();
    EXPECT_NE(text.find("upload"), std::string::npos);
    EXPECT_NE(text.find("2000.0"), std::string::npos) << text;
    EXPECT_NE(text.find("1000.0"), std::string::npos) << text;
    EXPECT_NE(text.find("3000"), std::string::npos) << text;  // total of durations
}

TEST(DivideRoundUp, Basics)
{
    EXPECT_EQ(divide_round_up(0, 16), 0u);
    EXPECT_EQ(divide_round_up(1, 16), 1u);
    EXPECT_EQ(divide_round_up(16, 16), 1u);
    EXPECT_EQ(divide_round_up(17, 16), 2u);
}

// A file name in a message (issue 38, item 10): control characters escaped, so "\x1b[2J" cannot
// clear the terminal nor a newline split the line; everything else, UTF-8 included, as it is.
TEST(Printable, EscapesControlCharactersOnly)
{
    EXPECT_EQ(printable("photo \x1b[2J.png"), "photo \\x1b[2J.png");
    EXPECT_EQ(printable("two\nlines\r\t.png"), "two\\nlines\\r\\t.png");
    EXPECT_EQ(printable(std::string("nul\0", 4) + "\x7f"), "nul\\x00\\x7f");
    EXPECT_EQ(printable("Øresund – été.png"), "Øresund – été.png");
    EXPECT_EQ(printable("plain/path with spaces.bmp"), "plain/path with spaces.bmp");
}

}  // namespace
}  // namespace sdk
