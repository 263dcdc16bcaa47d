// SPDX-License-Identifier: Apache-2.0
// End to end: the real sample executables, run as child processes on command lines that must
// fail cleanly (exit status 2, one stderr line naming the option, nothing written): unknown and
// incomplete options, values out of range, --work-group, and the options only one sample takes
// (morphology_packed's --size, fir_float's --size and --coefficients), with the runs those
// options allow verified against the reference.
#include "bad_input_support.hpp"

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;
using namespace e2etest::bad_input;

// --- Command lines. ---

TEST_F(BadInput, UnknownOption)
{
    auto arguments = reading(write_input("input.bmp", valid_bmp()));
    arguments.push_back("--no-such-option");
    expect_failure(arguments, kUsageError, "--no-such-option");
}

TEST_F(BadInput, OptionWithoutItsValue)
{
    expect_failure({"-o", (outputs_ / "result.bmp").string(), "-i"}, kUsageError, "--input");
}

TEST_F(BadInput, IterationsOutOfRange)
{
    auto arguments = reading(write_input("input.bmp", valid_bmp()));
    arguments.insert(arguments.end(), {"-n", "0"});
    expect_failure(arguments, kUsageError, "--iterations");
}

// An empty path names no file. `--trace ''` beside -o was taken as the current folder and hung
// for ever at the end of the run (its folder locked twice under two spellings).
TEST_F(BadInput, EmptyPathsAreUsageErrors)
{
    const auto arguments = reading(write_input("input.bmp", valid_bmp()));
    for (const char* option : {"--input", "--output", "--trace", "--save-raw"}) {
        SCOPED_TRACE(option);
        auto with_empty = arguments;
        with_empty.insert(with_empty.end(), {option, ""});
        expect_failure(with_empty, kUsageError, option);
    }
}

TEST_F(BadInput, UnknownBorder)
{
    auto arguments = reading(write_input("input.bmp", valid_bmp()));
    arguments.insert(arguments.end(), {"--border", "wrap-around"});
    expect_failure(arguments, kUsageError, "--border");
}

// --work-group on the samples whose work-group shape is tuned by default; a shape asked for is
// run as asked or refused, never shrunk, and nothing is measured.
class WorkGroupOption : public EndToEnd {
protected:
    void SetUp() override
    {
        EndToEnd::SetUp();
        std::vector<fs::path> tuned;
        for (const fs::path& program : samples_) {
            const std::string name = program.filename().string();
            if (name == "sobel" || name == "fir_float" || name == "morphology_packed")
                tuned.push_back(program);
        }
        ASSERT_EQ(tuned.size(), 3u);
        samples_ = tuned;
    }

    void expect_work_group_refused(const std::vector<std::string>& extra, int status,
                                   const std::string& phrase, const RunOptions& options = {})
    {
        auto arguments = reading(write_input("input.bmp", valid_bmp()));
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        expect_failure(arguments, status, phrase, options);
    }
};

TEST_F(WorkGroupOption, BeyondTheKernelsLimitNamesTheLimit)
{
    // 4096x2 passes the option's syntax check. Some devices run 8192 work-items a group (Intel's
    // CPU runtime does), so the limit is lowered to 4096 for the test to hold on every device.
    RunOptions options;
    options.environment["SDK_MAX_WORK_GROUP_SIZE"] = "4096";
    expect_work_group_refused({"--work-group", "4096x2"}, kUsageError, "work-items a group",
                              options);
}

TEST_F(WorkGroupOption, MalformedShapes)
{
    for (const char* shape : {"32x", "x8", "0x8", "32*8", "-32x8", "32x8x1", "99999x1"})
        expect_work_group_refused({"--work-group", shape}, kUsageError, "--work-group");
}

TEST_F(WorkGroupOption, RetuneWithAShapeIsRefused)
{
    expect_work_group_refused({"--work-group", "32x8", "--retune"}, kUsageError,
                              "give one of them");
}

// docs/reference.md: with --variant auto (the default) a named shape measures nothing, even on an
// empty tuning cache, and the only shape the run prints is the one named.
TEST_F(WorkGroupOption, ANamedShapeMeasuresNothingAndIsTheShapePrinted)
{
    const fs::path input = write_input("input.bmp", valid_bmp());
    for (const fs::path& program : samples_) {
        SCOPED_TRACE(program.filename().string());
        RunOptions options;
        options.environment["SDK_TUNING_CACHE"] = (root_ / "empty-tuning-cache.txt").string();
        const Outcome outcome = run_program(
            program,
            {"-i", input.string(), "-o", (outputs_ / "result.bmp").string(), "--work-group", "8x4"},
            inputs_, logs_, options);
        expect_success(outcome);
        EXPECT_EQ(outcome.out.find("Tuning for"), std::string::npos) << outcome.out;
        EXPECT_EQ(outcome.out.find("Tuned for"), std::string::npos) << outcome.out;
        std::size_t shapes = 0;  // "work-group WxH" anywhere in the output
        for (std::size_t at = outcome.out.find("work-group "); at != std::string::npos;
             at = outcome.out.find("work-group ", at + 1)) {
            if (!std::isdigit(static_cast<unsigned char>(outcome.out[at + 11]))) continue;
            const std::size_t end = outcome.out.find_first_not_of("0123456789x", at + 11);
            EXPECT_EQ(outcome.out.substr(at + 11, end - (at + 11)), "8x4") << outcome.out;
            ++shapes;
        }
        EXPECT_GE(shapes, 1u) << outcome.out;
    }
}

// One sample's own options: the other samples do not take them.
class OneSampleOptions : public EndToEnd {
protected:
    void only_sample(const std::string& name)
    {
        EndToEnd::SetUp();
        std::vector<fs::path> kept;
        for (const fs::path& program : samples_)
            if (program.filename() == name) kept.push_back(program);
        ASSERT_EQ(kept.size(), 1u) << name;
        samples_ = kept;
    }

    void expect_refused(const std::vector<std::string>& extra, const std::string& phrase)
    {
        auto arguments = reading(write_input("input.bmp", valid_bmp()));
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        expect_failure(arguments, kUsageError, phrase);
    }

    // A run with `extra` that verifies against the C++ reference; its standard output.
    std::string expect_verified(const std::vector<std::string>& extra)
    {
        std::vector<std::string> arguments = reading(write_input("input.bmp", valid_bmp()));
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        arguments.push_back("--verify");
        const Outcome outcome = run_program(samples_.front(), arguments, inputs_, logs_);
        expect_success(outcome);
        return outcome.out;
    }
};

// --size on morphology_packed: odd W and H from 1 to 63 for the rectangle, cross and ellipse,
// nothing for the square and diamond; and runs with the sized shapes verify against the
// reference.
class MorphologySizeOption : public OneSampleOptions {
protected:
    void SetUp() override { only_sample("morphology_packed"); }
};

TEST_F(MorphologySizeOption, SizesNotOddFrom1To63AreRefused)
{
    for (const char* size : {"4x3", "3x4", "0x1", "65x65", "3x", "x3", "31", "3x3x3", "-3x3"})
        expect_refused({"--shape", "ellipse", "--size", size}, "--size takes WxH");
}

// docs/index.md: --border is every sample's but morphology_packed's (outside the image is
// background there, no border mode).
TEST_F(MorphologySizeOption, BorderIsNotAnOption)
{
    expect_refused({"--border", "replicate"}, "--border");
}

TEST_F(MorphologySizeOption, TheSquareAndDiamondTakeNoSize)
{
    expect_refused({"--shape", "square", "--size", "3x3"}, "--size is for the rectangle");
    expect_refused({"--shape", "diamond", "--size", "31x31"}, "--size is for the rectangle");
}

TEST_F(MorphologySizeOption, SizedShapesVerifyAgainstTheReference)
{
    for (std::vector<std::string> extra :
         {std::vector<std::string>{"--shape", "rectangle", "--size", "31x31", "--op", "close"},
          {"--shape", "cross", "--size", "5x63", "--op", "open"},
          {"--shape", "ellipse", "--size", "7x5", "--op", "dilate", "--roi", "2,1,15,5"}}) {
        // A fixed work-group shape: the tuner's contest would take longer than the run.
        extra.insert(extra.end(), {"--work-group", "8x4"});
        const std::string out = expect_verified(extra);
        EXPECT_NE(out.find("the output equals the C++ reference bit for bit"), std::string::npos)
            << out;
        EXPECT_NE(out.find(" with the " + extra[1] + " " + extra[3]), std::string::npos) << out;
    }
}

// --size K and --coefficients on fir_float: K odd from 3 to 15, exactly K*K numbers.
class FirSizeOption : public OneSampleOptions {
protected:
    void SetUp() override { only_sample("fir_float"); }
};

// K*K numerators, each different, so that a misplaced weight changes the output.
std::string numerators_for(int size)
{
    std::string text;
    for (int i = 0; i < size * size; ++i) text += (i ? "," : "") + std::to_string(i % 13 - 6);
    return text;
}

TEST_F(FirSizeOption, SizesNotOddFrom3To15AreRefused)
{
    for (const char* size : {"1", "2", "4", "16", "17", "0", "-3"})
        expect_refused({"--size", size, "--coefficients", numerators_for(3)},
                       "--size must be an odd number from 3 to 15");
    expect_refused({"--size", "x"}, "--size");
}

TEST_F(FirSizeOption, CoefficientsMustNumberTheSizeSquared)
{
    expect_refused({"--size", "5"}, "--coefficients takes 25 numbers");
    expect_refused({"--size", "5", "--coefficients", numerators_for(7)},
                   "--coefficients takes 25 numbers");
}

// --coefficients @FILE (samples/fir_float/coefficients_file.hpp): every way a file can be wrong is
// one line and exit status 2; the pages' windows in assets/fir/ run from any folder.
TEST_F(FirSizeOption, CoefficientsFileThatCannotBeUsedIsRefused)
{
    expect_refused({"--coefficients", "@absent.txt"}, "--coefficients @absent.txt: cannot read it");
    std::ofstream(inputs_ / "letters.txt") << "1,2,3\n4,five,6\n7,8,9\n";
    expect_refused({"--coefficients", "@letters.txt"},
                   "--coefficients @letters.txt: line 2: 'five' is not a number");
    std::ofstream(inputs_ / "eight.txt") << "# one short\n1 2 3\n4 5 6\n7 8\n";
    expect_refused({"--coefficients", "@eight.txt"},
                   "--coefficients @eight.txt: 8 numbers, and --size 3 takes 9");
    expect_refused({"--size", "7", "--coefficients", "@assets/fir/ramp15x15.txt"},
                   "225 numbers, and --size 7 takes 49");
}

TEST_F(FirSizeOption, BundledCoefficientFilesVerifyFromAnyFolder)
{
    for (const std::vector<std::string>& window :
         {std::vector<std::string>{"--size", "7", "--coefficients", "@assets/fir/tent7x7.txt",
                                   "--divisor", "1024"},
          {"--size", "15", "--coefficients", "@assets/fir/ramp15x15.txt", "--divisor", "900"},
          {"--size", "15", "--coefficients", "@assets/fir/box15x15.txt", "--divisor", "225"}}) {
        std::vector<std::string> extra = window;
        extra.insert(extra.end(), {"--variant", "buffer"});
        const std::string out = expect_verified(extra);
        EXPECT_NE(out.find("Verify:"), std::string::npos) << out;
    }
}

TEST_F(FirSizeOption, EveryVariantVerifiesAndSaysWhichPassRan)
{
    for (const char* variant : {"buffer", "local", "image"}) {
        const std::string out =
            expect_verified({"--size", "7", "--coefficients", numerators_for(7), "--divisor", "50",
                             "--variant", variant, "--border", "reflect101"});
        // The image variant may fall back to buffer, with a note, on a device without images.
        EXPECT_TRUE(out.find(std::string(variant) + " 7x7 pass") != std::string::npos ||
                    out.find("runs as buffer") != std::string::npos)
            << out;
    }
    expect_refused({"--variant", "texture"}, "--variant");
    expect_refused({"--variant", "local", "--retune"}, "--retune needs --variant auto");
}

TEST_F(FirSizeOption, AWorkGroupOfAnotherWidthRunsAutosLocalChoiceInItsOwnWidth)
{
    // The local variant's groups are 16 wide. Named with --variant local, another width is
    // refused; chosen by auto (likely at 15x15), it runs the height asked for, saying so.
    const std::vector<std::string> window{"--size",    "15", "--coefficients", numerators_for(15),
                                          "--divisor", "50", "--work-group",   "32x1"};
    // (32 work-items: every kernel runs that many on every implementation we know; Mesa's
    // rusticl runs no more.)
    const std::string out = expect_verified(window);
    if (out.find("local 15x15 pass") != std::string::npos)
        EXPECT_NE(out.find("work-groups are 16 wide: work-group 16x1"), std::string::npos) << out;
    else
        EXPECT_NE(out.find("work-group 32x1"), std::string::npos) << out;
    std::vector<std::string> named = window;
    named.insert(named.end(), {"--variant", "local"});
    expect_refused(named, "the local variant's groups are 16 work-items wide");
}

TEST_F(FirSizeOption, SeparableWeightsTakeTheSeparablePathAndTheVerdictTimesIt)
{
    std::string box = "1";
    for (int i = 1; i < 225; ++i) box += ",1";
    const std::vector<std::string> box_15x15{
        "--size", "15", "--coefficients", box, "--divisor", "225", "--border", "none", "-n", "2"};
    // Two passes with the buffer variant, one kernel with the row sums in local memory with the
    // local one; with auto, whichever the tuner measured faster here.
    std::vector<std::string> arguments = box_15x15;
    arguments.insert(arguments.end(), {"--variant", "buffer"});
    std::string out = expect_verified(arguments);
    EXPECT_NE(out.find("separable: 15x1 row pass then 1x15 column pass"), std::string::npos) << out;
    EXPECT_NE(out.find("verdict on "), std::string::npos) << out;
    EXPECT_NE(out.find("separable passes"), std::string::npos) << out;
    EXPECT_NE(out.find("local memory"), std::string::npos) << out;
    arguments = box_15x15;
    arguments.insert(arguments.end(), {"--variant", "local"});
    out = expect_verified(arguments);
    EXPECT_NE(
        out.find("separable: 15x1 row sums into local memory, then 1x15 column sums, one kernel"),
        std::string::npos)
        << out;
    EXPECT_NE(out.find("separable kernel in local memory"), std::string::npos) << out;
    out = expect_verified(box_15x15);
    EXPECT_NE(out.find("separable: 15x1 row"), std::string::npos) << out;
}

TEST_F(FirSizeOption, SizedWindowsVerifyAgainstTheReference)
{
    for (const int size : {5, 15})
        for (const char* border : {"replicate", "none"})
            expect_verified({"--size", std::to_string(size), "--coefficients", numerators_for(size),
                             "--divisor", "50", "--border", border, "--work-group", "8x4"});
}

}  // namespace
