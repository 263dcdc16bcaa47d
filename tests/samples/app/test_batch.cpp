// SPDX-License-Identifier: Apache-2.0
// A batch's plan (samples/app/batch.hpp): which inputs make a batch, which files of a folder are
// its photos and in what order, each photo's result, and what is refused before any work.
#include "samples/app/batch.hpp"
#include "samples/app/cli.hpp"
#include "common/imageio/file_io.hpp"
#include "common/runtime/errors.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace sdk {
namespace {

namespace fs = std::filesystem;

class BatchPlan : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "sdk-batch-plan-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        root_ = pattern;
    }
    void TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(root_, ignored);
    }

    fs::path file(const std::string& name, const std::string& bytes)
    {
        const fs::path path = root_ / name;
        fs::create_directories(path.parent_path());
        write_file_atomically(path, reinterpret_cast<const std::uint8_t*>(bytes.data()),
                              bytes.size());
        return path;
    }

    // Enough of each format's signature for its first bytes to be known.
    static std::string bmp() { return "BM and the rest"; }
    static std::string png() { return "\x89PNG\r\n\x1a\n and the rest"; }
    static std::string jpeg() { return "\xff\xd8\xff and the rest"; }

    fs::path root_;
};

TEST_F(BatchPlan, SeveralInputsOrAFolderMakeABatch)
{
    const fs::path one = file("one.bmp", bmp());
    EXPECT_FALSE(is_batch({one}));
    EXPECT_FALSE(is_batch({root_ / "missing.bmp"}));
    EXPECT_TRUE(is_batch({one, one}));
    EXPECT_TRUE(is_batch({root_}));
}

TEST_F(BatchPlan, AFoldersPhotosAreItsImagesSortedByName)
{
    file("photos/c.jpg", jpeg());
    file("photos/a.png", png());
    file("photos/B.bmp", bmp());
    file("photos/readme.txt", "not an image");
    file("photos/.hidden.png", png());
    file("photos/.b.png.tmp-123456", png());  // a run's temporary
    file("photos/inner/d.bmp", bmp());
    const fs::path listed = file("x.bmp", bmp());
    const auto photos = photos_of({listed, root_ / "photos"});
    const std::vector<fs::path> expected{listed, root_ / "photos/B.bmp", root_ / "photos/a.png",
                                         root_ / "photos/c.jpg"};
    EXPECT_EQ(photos, expected);
    // A listed file is kept whatever it holds: it fails by name when read.
    EXPECT_EQ(photos_of({root_ / "photos/readme.txt"}),
              std::vector<fs::path>{root_ / "photos/readme.txt"});
}

// A folder with a link to one of its own photos (latest.png -> IMG_0001.png): the link is left
// out, saying so, and the batch goes on (issue 38, item 7: refused whole as "in the batch twice").
// Listed by the user, a file and a link to it are still the same photo twice.
TEST_F(BatchPlan, AFoldersLinkToItsOwnPhotoIsLeftOutSayingSo)
{
    const fs::path first = file("photos/IMG_0001.png", png());
    const fs::path second = file("photos/IMG_0002.png", png());
    fs::create_symlink("IMG_0001.png", root_ / "photos/latest.png");
    std::vector<std::string> skipped;
    const auto photos = photos_of({root_ / "photos"}, &skipped);
    EXPECT_EQ(photos, (std::vector<fs::path>{first, second}));
    ASSERT_EQ(skipped.size(), 1u);
    EXPECT_EQ(skipped.front(), "Skipped " + (root_ / "photos/latest.png").string() +
                                   ": a link to IMG_0001.png, which the batch reads already");
    EXPECT_EQ(plan_batch(photos, root_ / "out", "png").size(), 2u);
    EXPECT_THROW(plan_batch({first, root_ / "photos/latest.png"}, root_ / "out", "png"),
                 UsageError);
}

TEST_F(BatchPlan, AFolderWithoutImagesIsOneLineNamingIt)
{
    file("empty/readme.txt", "not an image");
    try {
        photos_of({root_ / "empty"});
        FAIL() << "a folder without images must be refused";
    } catch (const FileError& error) {
        EXPECT_NE(std::string(error.what()).find((root_ / "empty").string()), std::string::npos)
            << error.what();
        EXPECT_NE(std::string(error.what()).find("no BMP, PNG or JPEG"), std::string::npos)
            << error.what();
    }
}

TEST_F(BatchPlan, EachResultIsNamedAfterItsInputsStem)
{
    const auto plan =
        plan_batch({root_ / "in/a.jpg", root_ / "in/b.photo.png"}, root_ / "out", "png");
    ASSERT_EQ(plan.size(), 2u);
    EXPECT_EQ(plan[0].input, root_ / "in/a.jpg");
    EXPECT_EQ(plan[0].output, root_ / "out/a.png");
    EXPECT_EQ(plan[1].output, root_ / "out/b.photo.png");
    EXPECT_EQ(plan_batch({root_ / "in/a.jpg"}, root_ / "out", "bmp").at(0).output,
              root_ / "out/a.bmp");
}

void expect_usage_error(const std::function<void()>& plan, const std::string& phrase)
{
    try {
        plan();
        ADD_FAILURE() << "expected a refusal saying \"" << phrase << "\"";
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find(phrase), std::string::npos) << error.what();
    }
}

TEST_F(BatchPlan, WhatCannotMakeABatchIsRefused)
{
    const fs::path a = file("in/a.jpg", jpeg());
    const fs::path out = root_ / "out";
    expect_usage_error(
        [&] {
            plan_batch({a, root_ / "in/b.bmp", a}, out, "png");
        },
        "in the batch twice");
    expect_usage_error(
        [&] {
            plan_batch({a, root_ / "in/../in/a.jpg"}, out, "png");
        },
        "in the batch twice");
    expect_usage_error(
        [&] {
            plan_batch({a, root_ / "other/a.bmp"}, out, "png");
        },
        "would both be written as");
    expect_usage_error(
        [&] {
            plan_batch({a, root_ / "in/b.png"}, root_ / "in", "png");
        },
        "would replace the input");
    const fs::path not_a_folder = file("results", "a file");
    expect_usage_error([&] { plan_batch({a}, not_a_folder, "png"); }, "this is a file");
}

// run_sample with several inputs: the body once per photo, each with its own input, output and
// quiet, whatever --jobs; the body's failure for one photo is that photo's line and exit 1.
TEST_F(BatchPlan, TheBodyRunsOncePerPhotoWithItsOwnOptions)
{
    const fs::path a = file("in/a.bmp", bmp()), b = file("in/b.png", png()),
                   c = file("in/c.jpg", jpeg());
    for (const char* jobs : {"1", "3"}) {
        CLI::App app{"test", "sample"};
        CommonOptions options;
        add_common_options(app, options);
        std::vector<std::string> words{"sample",
                                       "-i",
                                       a.string(),
                                       b.string(),
                                       c.string(),
                                       "-o",
                                       (root_ / "out").string(),
                                       "--output-format",
                                       "bmp",
                                       "-j",
                                       jobs};
        std::vector<char*> argv;
        for (auto& word : words) argv.push_back(word.data());
        std::mutex lock;
        std::map<fs::path, fs::path> ran;
        testing::internal::CaptureStdout();
        testing::internal::CaptureStderr();
        const int status = run_sample(app, static_cast<int>(argv.size()), argv.data(), options,
                                      [&](const CommonOptions& photo) {
                                          EXPECT_TRUE(photo.quiet);
                                          EXPECT_EQ(photo.output_format, "bmp");
                                          const std::lock_guard<std::mutex> hold(lock);
                                          ran[photo.input] = photo.output;
                                          if (photo.input == b) throw std::runtime_error("broken");
                                      });
        const std::string out = testing::internal::GetCapturedStdout();
        EXPECT_EQ(testing::internal::GetCapturedStderr(), "sample: " + b.string() + ": broken\n");
        EXPECT_EQ(status, 1);
        const std::map<fs::path, fs::path> expected{
            {a, root_ / "out/a.bmp"}, {b, root_ / "out/b.bmp"}, {c, root_ / "out/c.bmp"}};
        EXPECT_EQ(ran, expected);
        EXPECT_NE(out.find("Batch: 2 of 3 photos written"), std::string::npos) << out;
        EXPECT_NE(out.find("1 failed"), std::string::npos) << out;
    }
}

// Runs run_sample on `words` (after the program's name) with a body that writes nothing and
// fails for no photo; returns the exit status, with stdout and stderr in `out` and `err`.
int run_fake_batch(std::vector<std::string> words, std::string& out, std::string& err)
{
    CLI::App app{"test", "sample"};
    CommonOptions options;
    add_common_options(app, options);
    words.insert(words.begin(), "sample");
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    testing::internal::CaptureStdout();
    testing::internal::CaptureStderr();
    const int status = run_sample(app, static_cast<int>(argv.size()), argv.data(), options,
                                  [](const CommonOptions&) {});
    out = testing::internal::GetCapturedStdout();
    err = testing::internal::GetCapturedStderr();
    return status;
}

// --jobs has no fixed ceiling (it was 32: "Value 64 not in range 1 to 32"): 64 photos in flight
// are taken where the machine holds them, and those this batch cannot use are simply not started.
TEST_F(BatchPlan, JobsAboveThirtyTwoAreTaken)
{
    const fs::path a = file("in/a.bmp", bmp()), b = file("in/b.png", png()),
                   c = file("in/c.jpg", jpeg());
    std::string out, err;
    const int status = run_fake_batch(
        {"-i", a.string(), b.string(), c.string(), "-o", (root_ / "out").string(), "-j", "64"}, out,
        err);
    EXPECT_EQ(status, 0) << err;
    EXPECT_EQ(err.find("range"), std::string::npos) << err;
    EXPECT_NE(out.find("Batch: 3 of 3 photos written"), std::string::npos) << out;
    // The first photo alone, then the other two at once: never more than the batch has left.
    EXPECT_NE(out.find(", 2 in flight at once"), std::string::npos) << out;
}

// 0, or not a count, is refused on one line that says what to give.
TEST_F(BatchPlan, JobsZeroIsRefusedSayingWhatToGive)
{
    const fs::path a = file("in/a.bmp", bmp()), b = file("in/b.png", png());
    for (const char* jobs : {"0", "-1", "many"}) {
        SCOPED_TRACE(jobs);
        std::string out, err;
        const int status = run_fake_batch(
            {"-i", a.string(), b.string(), "-o", (root_ / "out").string(), "-j", jobs}, out, err);
        EXPECT_EQ(status, 2);
        EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
        EXPECT_NE(err.find("--jobs"), std::string::npos) << err;
        EXPECT_NE(err.find("give 1 or more"), std::string::npos) << err;
        EXPECT_FALSE(fs::exists(root_ / "out"));
    }
}

// The summary's time is the whole process's, from its start (its device's start, and whatever
// came before the batch, included), not the batch loop's: here the process had run half a second
// before the batch began, and the photos took next to nothing.
TEST_F(BatchPlan, TheSummaryCountsFromTheProcessStart)
{
    const fs::path a = file("in/a.bmp", bmp()), b = file("in/b.png", png());
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    std::string out, err;
    ASSERT_EQ(
        run_fake_batch({"-i", a.string(), b.string(), "-o", (root_ / "out").string()}, out, err), 0)
        << err;
    const std::string before = "photos written in ";
    const std::size_t at = out.find(before);
    ASSERT_NE(at, std::string::npos) << out;
    EXPECT_GE(std::stod(out.substr(at + before.size())), 0.5) << out;
    EXPECT_NE(out.find(" s from the process's start, device start included, "), std::string::npos)
        << out;
}

}  // namespace
}  // namespace sdk
