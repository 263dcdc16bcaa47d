// SPDX-License-Identifier: Apache-2.0
// fir_float's weights from its options: parsed for --size, and a warning on the standard error
// (not a refusal) when they sum above 1, naming the output that may saturate.
#include "samples/fir_float/fir_options.hpp"
#include "samples/fir_float/coefficients_file.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

namespace sdk {
namespace {

TEST(FirOptions, CheckedCoefficientsWarnOnlyWhenTheWeightsSumAboveOne)
{
    FirOptions options;  // the tutorial's 3x3 weights over 256: they sum to 159/256
    testing::internal::CaptureStderr();
    const FirCoefficients tutorial = checked_coefficients(options, "out.bmp");
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(tutorial.radius(), 1);

    options.numerators = "1,1,1,1,1,1,1,1,1";
    options.divisor = 8;
    testing::internal::CaptureStderr();
    const FirCoefficients bright = checked_coefficients(options, "bright.png");
    const std::string warning = testing::internal::GetCapturedStderr();
    EXPECT_NE(warning.find("fir_float: warning: the weights sum to 1.125"), std::string::npos)
        << warning;
    EXPECT_NE(warning.find("saturate in bright.png"), std::string::npos) << warning;
    EXPECT_EQ(bright.radius(), 1);
}

TEST(FirOptions, CheckedCoefficientsRefuseAWrongCount)
{
    FirOptions options;
    options.size = 5;  // 25 numerators wanted, the default has 9
    EXPECT_THROW(checked_coefficients(options, "out.bmp"), UsageError);
}

// --coefficients @FILE: a folder of weight files of the test's own.
class CoefficientsFile : public ::testing::Test {
protected:
    void SetUp() override
    {
        folder_ = std::filesystem::temp_directory_path() /
                  ("sdk-coefficients-" + std::to_string(getpid()));
        std::filesystem::create_directories(folder_ / "beside" / "weights");
    }
    void TearDown() override { std::filesystem::remove_all(folder_); }
    std::string write(const std::string& name, const std::string& text)
    {
        std::ofstream(folder_ / name) << text;
        return "@" + (folder_ / name).string();
    }
    // The one-line UsageError coefficients_text throws, or "" when it throws none.
    std::string refusal(const std::string& option, int size)
    {
        try {
            coefficients_text(option, size, folder_ / "beside");
        } catch (const UsageError& error) {
            return error.what();
        }
        return "";
    }
    std::filesystem::path folder_;
};

TEST_F(CoefficientsFile, ATextWithoutAtIsTheNumbersThemselves)
{
    EXPECT_EQ(coefficients_text("1,2,1,2,4,2,1,2,1", 3, folder_), "1,2,1,2,4,2,1,2,1");
}

TEST_F(CoefficientsFile, NumbersByCommasSpacesAndLinesWithComments)
{
    const std::string file = write("tent.txt",
                                   "# a 3x3 tent\n1, 2,1\n2\t4 2  # the middle row\n"
                                   "\n1,2,-1.5\r\n");
    EXPECT_EQ(coefficients_text(file, 3, folder_), "1,2,1,2,4,2,1,2,-1.5");
}

TEST_F(CoefficientsFile, ARelativeNameMissingHereIsLookedForBesideTheExecutable)
{
    std::ofstream(folder_ / "beside" / "weights" / "box.txt") << "1 1 1 1 1 1 1 1 1\n";
    EXPECT_EQ(coefficients_text("@weights/box.txt", 3, folder_ / "beside"), "1,1,1,1,1,1,1,1,1");
}

TEST_F(CoefficientsFile, AMissingFileIsOneLine)
{
    const std::string message = refusal("@" + (folder_ / "absent.txt").string(), 3);
    EXPECT_NE(message.find("absent.txt: cannot read it (No such file or directory)"),
              std::string::npos)
        << message;
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    EXPECT_NE(refusal("@", 3).find("no file named after the @"), std::string::npos);
    EXPECT_NE(refusal("@" + folder_.string(), 3).find("a folder, not a file"), std::string::npos);
}

TEST_F(CoefficientsFile, AWordThatIsNotANumberIsNamedWithItsLine)
{
    for (const char* word : {"x", "1e999", "nan", "inf", "0x10", "2..5", "3;4"}) {
        const std::string message =
            refusal(write("bad.txt", "1 2 3\n4 5 6\n7 8 " + std::string(word) + "\n"), 3);
        EXPECT_NE(message.find("line 3: '" + std::string(word) + "' is not a number"),
                  std::string::npos)
            << message;
    }
}

TEST_F(CoefficientsFile, AWrongCountNamesBoth)
{
    const std::string eight = write("eight.txt", "1 2 3 4 5 6 7 8\n");
    EXPECT_NE(refusal(eight, 3).find("eight.txt: 8 numbers, and --size 3 takes 9"),
              std::string::npos);
    EXPECT_NE(
        refusal(write("empty.txt", "# nothing\n"), 5).find("0 numbers, and --size 5 takes 25"),
        std::string::npos);
}

TEST_F(CoefficientsFile, TheBundledWindowsHaveTheirCounts)
{
    // assets/fir/, next to the executable as the bundled image is (a link in the build tree).
    for (const auto& [file, size] : {std::pair<std::string, int>{"tent7x7.txt", 7},
                                     {"ramp15x15.txt", 15},
                                     {"box15x15.txt", 15}}) {
        const std::string text =
            coefficients_text("@assets/fir/" + file, size, executable_directory());
        EXPECT_EQ(std::count(text.begin(), text.end(), ',') + 1, size * size) << file;
    }
}

}  // namespace
}  // namespace sdk
