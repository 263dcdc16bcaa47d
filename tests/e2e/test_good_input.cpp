// SPDX-License-Identifier: Apache-2.0
// End to end, the control: the real sample executables, run as child processes on valid
// images (BMP, PNG, JPEG; --floor; a JPEG cut after its image data), succeed and write their
// outputs, so that the harness the bad-input tests share (bad_input_support.hpp) sees success
// when there is success.
#include "bad_input_support.hpp"

#include <gtest/gtest.h>

#include <sys/prctl.h>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;
using namespace e2etest::bad_input;

class GoodInput : public EndToEnd {
protected:
    // An empty folder for one sample's outputs, named after it.
    fs::path folder_of_its_own(const fs::path& program)
    {
        const fs::path folder = outputs_ / program.filename();
        fs::create_directory(folder);
        return folder;
    }
};

// --- The control: the harness sees success when there is success. ---

TEST_F(GoodInput, ValidImageWritesItsOutputs)
{
    const auto bytes = valid_bmp();
    const fs::path input = write_input("input.bmp", bytes);
    for (const fs::path& program : samples_) {
        SCOPED_TRACE(program.filename().string());
        const fs::path folder = folder_of_its_own(program);
        const Outcome outcome =
            run_program(program, {"-i", input.string(), "-o", (folder / "result.bmp").string()},
                        inputs_, logs_);
        expect_success(outcome);
        EXPECT_TRUE(fs::exists(folder / "result.bmp"));
        // Every file written (sobel adds -dX and -dY) is a whole image of the input's size.
        for (const auto& entry : fs::directory_iterator(folder)) {
            const std::string file = entry.path().filename().string();
            EXPECT_NE(file.front(), '.') << "temporary left behind: " << file;
            if (file.size() > 4 && file.compare(file.size() - 4, 4, ".bmp") == 0) {
                const sdk::Image image = sdk::read_bmp(entry.path());
                EXPECT_EQ(image.width, 19u) << file;
                EXPECT_EQ(image.height, 7u) << file;
            }
        }
        EXPECT_EQ(sdk::read_file(input), bytes) << "the input must not change";
    }
}

// --floor: the floor measured after the run, printed under the step table, its temporary written
// beside the output and removed; the output and the input as without it.
TEST_F(GoodInput, FloorIsPrintedAndLeavesNothingBehind)
{
    const auto bytes = valid_bmp();
    const fs::path input = write_input("input.bmp", bytes);
    for (const fs::path& program : samples_) {
        SCOPED_TRACE(program.filename().string());
        const fs::path folder = folder_of_its_own(program);
        const Outcome outcome = run_program(
            program, {"--floor", "-i", input.string(), "-o", (folder / "result.bmp").string()},
            inputs_, logs_);
        expect_success(outcome);
        const std::size_t floor = outcome.out.find("Floor, measured after the run");
        ASSERT_NE(floor, std::string::npos) << outcome.out;
        EXPECT_GT(floor, outcome.out.find("End to end, on the host's clock")) << outcome.out;
        for (const char* line : {"read input.bmp (page cache, 0 MB)", "beside result.bmp",
                                 "the steps after start-up", "all the steps"})
            EXPECT_NE(outcome.out.find(line, floor), std::string::npos) << line << "\n"
                                                                        << outcome.out;
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(folder))
            names.push_back(entry.path().filename().string());
        EXPECT_TRUE(std::find(names.begin(), names.end(), "result.bmp") != names.end());
        for (const auto& file : names)
            EXPECT_NE(file.front(), '.') << "temporary left behind: " << file;
        EXPECT_EQ(sdk::read_bmp(folder / "result.bmp").width, 19u);
        EXPECT_EQ(sdk::read_file(input), bytes) << "the input must not change";
    }
}

// A JPEG cut only after its image data, its end marker (the last 2 bytes) missing, as cameras
// and downloads cut them: the run writes its result and says, in one line naming the file, what
// was missing (issue 38, item 16).
TEST_F(GoodInput, AJpegWithoutItsEndMarkerRunsAndSaysSo)
{
    codectest::JpegSpec jpeg;
    jpeg.width = 21;
    jpeg.height = 9;
    jpeg.pixels = std::vector<std::uint8_t>(21 * 9 * 3, 90);
    std::vector<std::uint8_t> bytes = codectest::build_jpeg(jpeg);
    bytes.resize(bytes.size() - 2);
    const fs::path input = write_input("cut.jpg", bytes);
    const Outcome outcome = run_program(
        program("sobel"), {"-i", input.string(), "-o", (outputs_ / "edges.png").string(), "-q"},
        inputs_, logs_);
    EXPECT_TRUE(outcome.exited && outcome.status == 0) << outcome.how << ": " << outcome.err;
    EXPECT_TRUE(fs::exists(outputs_ / "edges.png"));
    EXPECT_NE(outcome.err.find("sobel: " + input.string() + ": the file has no end marker"),
              std::string::npos)
        << outcome.err;
}

// Your own photo as it is: a PNG or JPEG in, a PNG out (chosen by the extension), every sample.
TEST_F(GoodInput, PngAndJpegInPngOut)
{
    // The valid BMP's pixels, as an RGB PNG and as a 4:2:0 JPEG.
    const std::vector<std::uint8_t> bmp = valid_bmp();
    const sdk::Image picture = sdk::decode_bmp(bmp.data(), bmp.size(), "valid");
    codectest::JpegSpec jpeg;
    jpeg.width = 19;
    jpeg.height = 7;
    jpeg.subsampled = true;
    jpeg.pixels = picture.pixels;
    const fs::path inputs[] = {write_input("photo.png", sdk::encode_png(picture)),
                               write_input("photo.jpg", codectest::build_jpeg(jpeg))};
    for (const fs::path& program : samples_) {
        for (const fs::path& input : inputs) {
            const std::string name = program.filename().string();
            SCOPED_TRACE(name + " " + input.filename().string());
            const fs::path folder = outputs_ / (name + "-" + input.extension().string().substr(1));
            fs::create_directory(folder);
            std::vector<std::string> arguments{"-i", input.string(), "-o",
                                               (folder / "edges.png").string()};
            if (name.rfind("sobel", 0) == 0) arguments.push_back("--save-gradients");
            const Outcome outcome = run_program(program, arguments, inputs_, logs_);
            expect_success(outcome);
            ASSERT_TRUE(fs::exists(folder / "edges.png"));
            // Every file written (the Sobel samples add -dX.png and -dY.png) is a whole grey PNG
            // of the input's size.
            for (const auto& entry : fs::directory_iterator(folder)) {
                const std::string file = entry.path().filename().string();
                EXPECT_NE(file.front(), '.') << "temporary left behind: " << file;
                const std::vector<std::uint8_t> bytes = sdk::read_file(entry.path());
                EXPECT_TRUE(sdk::has_png_signature(bytes.data(), bytes.size())) << file;
                const sdk::Image image = sdk::read_image(entry.path());
                EXPECT_EQ(image.width, 19u) << file;
                EXPECT_EQ(image.height, 7u) << file;
                EXPECT_EQ(image.channels, 1) << file;
            }
        }
    }
}

// --- The process's end: what it leaves is freed by an heir (end_process, messages.cpp). ---

// The children of this process that it did not start: a sample's heir becomes one when the
// sample ends, this process being a subreaper. Reaps them until none is left or `limit` passes;
// their wait statuses, and whether one was still running then.
struct Heirs {
    std::vector<int> statuses;
    bool one_still_running = false;
};
Heirs reap_heirs(std::chrono::seconds limit)
{
    Heirs heirs;
    const auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, WNOHANG);
        if (pid > 0) {
            heirs.statuses.push_back(status);
        } else if (pid < 0 && errno == ECHILD) {
            return heirs;
        } else if (std::chrono::steady_clock::now() > deadline) {
            heirs.one_still_running = true;
            return heirs;
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }
}

// Every sample ends once its outputs are in place, leaving one heir that ends right after it
// (the freeing of its memory and its drivers' device files happens there); with
// SDK_WAIT_FOR_TEARDOWN=1 the process frees its own and leaves none.
TEST_F(GoodInput, EachSampleLeavesTheFreeingToOneHeirThatEndsAfterIt)
{
    if (kSanitized)
        GTEST_SKIP() << "under a sanitizer a sample exits normally, so that the leak check runs";
    ASSERT_EQ(::prctl(PR_SET_CHILD_SUBREAPER, 1), 0) << std::strerror(errno);
    const fs::path input = write_input("input.bmp", valid_bmp());
    for (const fs::path& program : samples_) {
        for (const bool wait : {false, true}) {
            SCOPED_TRACE(program.filename().string() + (wait ? " SDK_WAIT_FOR_TEARDOWN=1" : ""));
            const fs::path folder =
                outputs_ / (program.filename().string() + (wait ? "-waits" : ""));
            fs::create_directory(folder);
            RunOptions options;
            options.environment["SDK_WAIT_FOR_TEARDOWN"] = wait ? "1" : "0";
            const Outcome outcome =
                run_program(program, {"-i", input.string(), "-o", (folder / "result.bmp").string()},
                            inputs_, logs_, options);
            expect_success(outcome);
            EXPECT_TRUE(fs::exists(folder / "result.bmp"));
            const Heirs heirs = reap_heirs(std::chrono::seconds(20));
            EXPECT_FALSE(heirs.one_still_running) << "an heir outlived its process by 20 s";
            ASSERT_EQ(heirs.statuses.size(), wait ? 0u : 1u);
            for (const int status : heirs.statuses)
                EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
        }
    }
    ::prctl(PR_SET_CHILD_SUBREAPER, 0);
}

}  // namespace
