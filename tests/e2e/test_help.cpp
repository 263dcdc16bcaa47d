// SPDX-License-Identifier: Apache-2.0
// End to end: what each sample's --help tells a user. Every option says what it takes in words
// (a FILE, N, WxH, the names to type: "replicate|reflect101|..."), never CLI11's raw type names
// or its enum maps ("ENUM:value in {accelerator->3,...} OR {3,...}"); -i names the formats the
// readers take; an option the sample refuses is not listed; and a wrong name is refused naming
// the names, not the map.
#include "child_process.hpp"
#include "imageio_test_support.hpp"
#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <thread>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

// Each test in a fresh private folder (the samples' working folder, and their logs).
class HelpTest : public decodetest::FolderTest {
protected:
    Outcome run(const std::string& sample, const std::vector<std::string>& arguments) const
    {
        return run_program(sdk::executable_directory() / sample, arguments, folder_, folder_);
    }
};

// The options' column of the help: each line that starts with an option, up to its description
// (two spaces or more further on).
std::vector<std::string> option_specs(const std::string& help)
{
    std::vector<std::string> specs;
    std::stringstream lines(help);
    for (std::string line; std::getline(lines, line);) {
        const std::size_t start = line.find_first_not_of(' ');
        if (start == std::string::npos || line[start] != '-') continue;
        const std::size_t end = line.find("  ", start);
        specs.push_back(line.substr(start, end == std::string::npos ? end : end - start));
    }
    return specs;
}

std::string line_of(const std::string& help, const std::string& option)
{
    const std::size_t at = help.find(option);
    if (at == std::string::npos) return "";
    const std::size_t next = help.find("\n  -", at);  // the description may wrap onto the next line
    return help.substr(at, next == std::string::npos ? next : next - at);
}

// CLI11's raw type names and the marks of its printed maps ("ENUM:value in {a->0} OR {0}"), in
// an option's column. (No std::regex: GCC 12 warns inside it in the sanitizer build.)
bool shows_raw_type(const std::string& spec)
{
    for (const char* mark : {"->", "{", "}", " OR "})
        if (spec.find(mark) != std::string::npos) return true;
    std::string word;
    for (const char c : spec + " ") {
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
            word += c;
            continue;
        }
        for (const char* raw : {"TEXT", "UINT", "INT", "FLOAT", "ENUM", "NONNEGATIVE", "POSITIVE"})
            if (word == raw) return true;
        word.clear();
    }
    return false;
}

TEST_F(HelpTest, EveryOptionSaysWhatItTakesInWords)
{
    for (const std::string& sample : sample_names()) {
        SCOPED_TRACE(sample);
        const Outcome outcome = run(sample, {"--help"});
        ASSERT_TRUE(outcome.exited && outcome.status == 0) << outcome.how << "\n" << outcome.err;
        const std::vector<std::string> specs = option_specs(outcome.out);
        EXPECT_GE(specs.size(), 15u) << outcome.out;
        for (const std::string& spec : specs)
            EXPECT_FALSE(shows_raw_type(spec)) << "option column: " << spec;
        const std::string input = line_of(outcome.out, "-i,--input");
        EXPECT_NE(input.find("PNG"), std::string::npos) << input;
        EXPECT_NE(input.find("JPEG"), std::string::npos) << input;
        EXPECT_NE(line_of(outcome.out, "-o,--output").find("PNG"), std::string::npos);
        // Every sample runs in bands: --band-rows is listed in each one's help.
        EXPECT_NE(outcome.out.find("--band-rows"), std::string::npos) << outcome.out;
    }
}

// --jobs's default is computed on the machine, and the help says what it is here; there is no
// fixed ceiling to name (it was "1 to 32 ... at most 32").
TEST_F(HelpTest, JobsNamesTheDefaultComputedHere)
{
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    for (const std::string& sample : sample_names()) {
        SCOPED_TRACE(sample);
        const Outcome outcome = run(sample, {"--help"});
        ASSERT_TRUE(outcome.exited && outcome.status == 0) << outcome.how << "\n" << outcome.err;
        const std::string jobs = line_of(outcome.out, "-j,--jobs");
        EXPECT_NE(jobs.find("default: one per core, here " + std::to_string(cores) + ";"),
                  std::string::npos)
            << jobs;
        EXPECT_EQ(jobs.find("32"), cores == 32 ? jobs.find("here 32") : std::string::npos) << jobs;
    }
}

TEST_F(HelpTest, AWrongNameIsRefusedNamingTheNames)
{
    for (const std::string& sample : sample_names()) {
        SCOPED_TRACE(sample);
        const Outcome outcome = run(sample, {"--memory", "fast"});
        EXPECT_TRUE(outcome.exited && outcome.status == kUsageError) << outcome.how;
        EXPECT_NE(outcome.err.find("'fast' is not one of auto|copy|map|pinned"), std::string::npos)
            << outcome.err;
        EXPECT_EQ(outcome.err.find("->"), std::string::npos) << outcome.err;
    }
}

}  // namespace
