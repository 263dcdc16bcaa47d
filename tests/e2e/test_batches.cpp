// SPDX-License-Identifier: Apache-2.0
// End to end: a folder of photos in one run (samples/app/batch.hpp), every sample as a child
// process. A batch's results must be the very bytes single runs write; what makes no sense as a
// batch is refused before anything is written; a bad photo costs only itself; a signal keeps
// what was written and leaves no temporary.
#include "bmp_builder.hpp"
#include "child_process.hpp"
#include "codec_builders.hpp"
#include "common/imageio/file_io.hpp"
#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

fs::path program(const std::string& name)
{
    return sdk::executable_directory() / name;
}

// Noise, different for each seed: no two photos alike, every pixel value met.
std::vector<std::uint8_t> noise(std::size_t count, unsigned seed)
{
    std::vector<std::uint8_t> bytes(count);
    std::uint32_t state = seed * 2654435761u + 1;
    for (auto& byte : bytes) {
        state = state * 1664525u + 1013904223u;
        byte = static_cast<std::uint8_t>(state >> 24);
    }
    return bytes;
}

std::vector<std::uint8_t> bmp_photo(int width, int height, unsigned seed)
{
    bmptest::BmpSpec spec;
    spec.width = width;
    spec.height = height;
    const auto bytes = noise(static_cast<std::size_t>(width) * height * 3, seed);
    for (std::size_t i = 0; i < bytes.size(); i += 3)
        spec.values.push_back(std::uint32_t{bytes[i]} << 16 | std::uint32_t{bytes[i + 1]} << 8 |
                              bytes[i + 2]);
    return bmptest::build_bmp(spec);
}

std::vector<std::uint8_t> png_photo(std::uint32_t width, std::uint32_t height, int colour_type,
                                    unsigned seed)
{
    codectest::PngSpec spec;
    spec.width = width;
    spec.height = height;
    spec.colour_type = colour_type;
    const auto channels = static_cast<std::size_t>(codectest::stored_channels(colour_type));
    for (const std::uint8_t value : noise(width * height * channels, seed))
        spec.samples.push_back(value);
    return codectest::build_png(spec);
}

std::vector<std::uint8_t> jpeg_photo(int width, int height, unsigned seed)
{
    codectest::JpegSpec spec;
    spec.width = width;
    spec.height = height;
    spec.subsampled = true;
    spec.pixels = noise(static_cast<std::size_t>(width) * height * 3, seed);
    return codectest::build_jpeg(spec);
}

// Every file under `folder` by relative path, with its bytes ("<folder>" for a folder).
std::map<std::string, std::string> files_under(const fs::path& folder)
{
    std::map<std::string, std::string> files;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        const std::string name = entry.path().lexically_relative(folder).string();
        files[name] = entry.is_directory() ? "<folder>" : read_text(entry.path());
    }
    return files;
}

std::string temporaries_in(const fs::path& folder)
{
    std::string names;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (name.find(".tmp-") != std::string::npos) names += name + " ";
    }
    return names;
}

// Waits, polling, until `folder` holds a result renamed into place (a file that is not a
// temporary) or `longest` has passed; true if one came.
bool first_result_appears(const fs::path& folder, std::chrono::steady_clock::duration longest)
{
    const auto until = std::chrono::steady_clock::now() + longest;
    while (std::chrono::steady_clock::now() < until) {
        std::error_code error;  // the folder changes while it is read: an error is a retry
        for (fs::directory_iterator entry(folder, error), end; !error && entry != end;
             entry.increment(error))
            if (entry->path().filename().string().find(".tmp-") == std::string::npos &&
                entry->is_regular_file(error))
                return true;
        std::this_thread::sleep_for(std::chrono::microseconds(500));
    }
    return false;
}

class Batches : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "sdk-batch-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr) << std::strerror(errno);
        root_ = pattern;
        photos_ = root_ / "photos";
        logs_ = root_ / "logs";
        fs::create_directory(photos_);
        fs::create_directory(logs_);
    }
    void TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(root_, ignored);
    }

    fs::path add_photo(const fs::path& folder, const std::string& name,
                       const std::vector<std::uint8_t>& bytes)
    {
        fs::create_directories(folder);
        sdk::write_file_atomically(folder / name, bytes.data(), bytes.size());
        return folder / name;
    }

    // Photos of awkward sizes in every format the samples read: 1x1, 2x3, 17x5, a width not a
    // multiple of 8 or 16, tall and thin, wide and short; grey and colour.
    void add_awkward_photos(const fs::path& folder)
    {
        add_photo(folder, "a-1x1.bmp", bmp_photo(1, 1, 1));
        add_photo(folder, "b-2x3.png", png_photo(2, 3, PNG_COLOR_TYPE_GRAY, 2));
        add_photo(folder, "c-17x5.jpg", jpeg_photo(17, 5, 3));
        add_photo(folder, "d-37x29.png", png_photo(37, 29, PNG_COLOR_TYPE_RGB, 4));
        add_photo(folder, "e-1x40.bmp", bmp_photo(1, 40, 5));
        add_photo(folder, "f-70x2.jpg", jpeg_photo(70, 2, 6));
        add_photo(folder, "g-130x67.bmp", bmp_photo(130, 67, 7));
        add_photo(folder, "notes.txt",
                  {'n', 'o', 't', ' ', 'a', 'n', ' ', 'i', 'm', 'a', 'g', 'e'});
    }

    Outcome run(const std::string& sample, const std::vector<std::string>& arguments,
                const RunOptions& options = {})
    {
        return run_program(program(sample), arguments, root_, logs_, options);
    }

    // What a single run of `sample` writes for `photo` as `name`.
    std::string single_result(const std::string& sample, const fs::path& photo,
                              const std::string& name, const std::vector<std::string>& extra = {})
    {
        const fs::path output = root_ / "single" / name;
        fs::create_directories(output.parent_path());
        std::vector<std::string> arguments{"-q", "-i", photo.string(), "-o", output.string()};
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        const Outcome outcome = run(sample, arguments);
        EXPECT_TRUE(outcome.exited && outcome.status == 0)
            << sample << " " << photo << ": " << outcome.err;
        const std::string bytes = fs::exists(output) ? read_text(output) : "<none>";
        fs::remove(output);
        return bytes;
    }

    // Runs `arguments` and checks that it is refused: exit status 2, one line naming `phrase`,
    // and not a file changed (the output folder not made).
    void expect_refused(const std::string& sample, const std::vector<std::string>& arguments,
                        const std::string& phrase)
    {
        SCOPED_TRACE(sample + " " + phrase);
        const auto before = files_under(root_ / "photos");
        const bool had_results = fs::exists(root_ / "results");
        const Outcome outcome = run(sample, arguments);
        EXPECT_TRUE(outcome.exited && outcome.status == kUsageError)
            << outcome.how << ": " << outcome.err;
        EXPECT_EQ(count_lines(outcome.err), 1u) << outcome.err;
        EXPECT_EQ(outcome.err.rfind(sample + ": ", 0), 0u) << outcome.err;
        EXPECT_NE(outcome.err.find(phrase), std::string::npos) << outcome.err;
        EXPECT_EQ(files_under(root_ / "photos"), before);
        EXPECT_EQ(fs::exists(root_ / "results"), had_results);
    }

    fs::path root_;
    fs::path photos_;
    fs::path logs_;
};

// A batch writes for each photo the bytes a single run writes: PNG by default, BMP with
// --output-format bmp, one photo at a time (-j 1) or several at once; files not images are left
// out of a folder, and a list of files is a batch as a folder is.
TEST_F(Batches, EveryResultIsTheSingleRunsBytes)
{
    add_awkward_photos(photos_);
    const std::vector<std::string> stems{"a-1x1",  "b-2x3",  "c-17x5",  "d-37x29",
                                         "e-1x40", "f-70x2", "g-130x67"};
    for (const std::string& sample : sample_names()) {
        SCOPED_TRACE(sample);
        std::map<std::string, std::string> expected;
        for (const auto& entry : fs::directory_iterator(photos_)) {
            if (entry.path().extension() == ".txt") continue;
            const std::string stem = entry.path().stem().string();
            expected[stem + ".png"] = single_result(sample, entry.path(), stem + ".png");
            if (stem == "c-17x5" || stem == "g-130x67")
                expected["bmp/" + stem + ".bmp"] =
                    single_result(sample, entry.path(), stem + ".bmp");
        }
        ASSERT_EQ(expected.size(), stems.size() + 2);
        for (const char* jobs : {"1", "3"}) {
            SCOPED_TRACE(std::string("-j ") + jobs);
            const fs::path results = root_ / "results";
            const Outcome folder =
                run(sample, {"-i", photos_.string(), "-o", results.string(), "-j", jobs});
            EXPECT_TRUE(folder.exited && folder.status == 0) << folder.how << ": " << folder.err;
            EXPECT_EQ(folder.err, "");
            for (const std::string& stem : stems)
                EXPECT_NE(folder.out.find("Wrote " + (results / (stem + ".png")).string()),
                          std::string::npos)
                    << folder.out;
            EXPECT_NE(folder.out.find("Batch: 7 of 7 photos written"), std::string::npos)
                << folder.out;
            const Outcome listed =
                run(sample,
                    {"-i", (photos_ / "c-17x5.jpg").string(), (photos_ / "g-130x67.bmp").string(),
                     "-o", (results / "bmp").string(), "--output-format", "bmp", "-q", "-j", jobs});
            EXPECT_TRUE(listed.exited && listed.status == 0) << listed.how << ": " << listed.err;
            EXPECT_EQ(listed.out, "");  // -q: nothing but errors
            auto written = files_under(results);
            EXPECT_EQ(written.erase("bmp"), 1u);
            EXPECT_EQ(written, expected);
            fs::remove_all(results);
        }
    }
}

// A photo that cannot be read, in the middle: named on one line, the others written as single
// runs write them, nothing of its own left, exit status 1.
TEST_F(Batches, ABadPhotoInTheMiddleCostsOnlyItself)
{
    add_photo(photos_, "1-first.bmp", bmp_photo(40, 30, 11));
    auto truncated = jpeg_photo(40, 30, 12);
    truncated.resize(truncated.size() / 2);
    add_photo(photos_, "2-broken.jpg", truncated);
    add_photo(photos_, "3-last.png", png_photo(41, 31, PNG_COLOR_TYPE_RGB, 13));
    for (const std::string& sample : sample_names()) {
        SCOPED_TRACE(sample);
        const std::map<std::string, std::string> expected{
            {"1-first.png", single_result(sample, photos_ / "1-first.bmp", "1.png")},
            {"3-last.png", single_result(sample, photos_ / "3-last.png", "3.png")}};
        const fs::path results = root_ / "results";
        const Outcome outcome =
            run(sample, {"-i", photos_.string(), "-o", results.string(), "-j", "1"});
        EXPECT_TRUE(outcome.exited && outcome.status == kFailure)
            << outcome.how << ": " << outcome.err;
        EXPECT_EQ(count_lines(outcome.err), 1u) << outcome.err;
        EXPECT_EQ(outcome.err.rfind(sample + ": ", 0), 0u) << outcome.err;
        EXPECT_NE(outcome.err.find("2-broken.jpg"), std::string::npos) << outcome.err;
        EXPECT_NE(outcome.out.find("2 of 3 photos written"), std::string::npos) << outcome.out;
        EXPECT_NE(outcome.out.find("1 failed"), std::string::npos) << outcome.out;
        EXPECT_EQ(files_under(results), expected);
        fs::remove_all(results);
    }
}

// The first photo by name refused at its header starts nothing: the next photo still starts the
// device alone, so the driver never starts on two threads at once (PoCL then crashed, or good
// photos failed), and no temporary is left (issue 47, item 1). The batch's trace shows each
// photo's driver start after the one before it ended. --trace itself starts the drivers before
// the first photo, so this cannot see two threads start one: the next test runs without it.
TEST_F(Batches, AFirstPhotoRefusedAtItsHeaderStillStartsTheDeviceOnce)
{
    auto cut = png_photo(40, 30, PNG_COLOR_TYPE_GRAY, 21);
    cut.resize(20);  // inside the header
    add_photo(photos_, "a.png", cut);
    add_photo(photos_, "b.png", png_photo(41, 31, PNG_COLOR_TYPE_RGB, 22));
    add_photo(photos_, "c.png", png_photo(39, 29, PNG_COLOR_TYPE_RGB, 23));
    add_photo(photos_, "d.png", png_photo(38, 28, PNG_COLOR_TYPE_GRAY, 24));
    const fs::path results = root_ / "results";
    const fs::path trace = root_ / "trace.json";
    const Outcome outcome = run("sobel", {"-i", photos_.string(), "-o", results.string(), "-j", "2",
                                          "--trace", trace.string()});
    EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how << ": " << outcome.err;
    EXPECT_EQ(count_lines(outcome.err), 1u) << outcome.err;
    EXPECT_NE(outcome.err.find("a.png"), std::string::npos) << outcome.err;
    EXPECT_NE(outcome.out.find("3 of 4 photos written"), std::string::npos) << outcome.out;
    EXPECT_EQ(temporaries_in(results), "");
    // Each "<photo>: start the OpenCL driver" bar: its start and end, in microseconds.
    std::vector<std::pair<double, double>> starts;
    const std::string json = read_text(trace);
    for (std::size_t at = json.find(": start the OpenCL driver\""); at != std::string::npos;
         at = json.find(": start the OpenCL driver\"", at + 1)) {
        const std::size_t ts = json.find("\"ts\": ", at);
        const std::size_t dur = json.find("\"dur\": ", at);
        ASSERT_NE(dur, std::string::npos) << json;
        const double begin = std::stod(json.substr(ts + 6));
        starts.emplace_back(begin, begin + std::stod(json.substr(dur + 7)));
    }
    ASSERT_EQ(starts.size(), 3u) << json;
    std::sort(starts.begin(), starts.end());
    EXPECT_LE(starts[0].second, starts[1].first) << "two photos started the driver at once";
}

// The same batch without --trace, as the issue ran it: the first photo to reach the device starts
// the driver on its own thread, alone. With the first photo run alone once and the workers
// started straight after it (as before the fix), two threads started PoCL at once in most runs on
// 2 cores: good photos failed ("the image is too wide for the device ... 0 bytes",
// CL_INVALID_BUFFER_SIZE) or it crashed in libpocl. Run a few times, as the race is one.
TEST_F(Batches, AFirstPhotoRefusedAtItsHeaderWithoutTraceWritesEveryGoodPhoto)
{
    auto cut = png_photo(40, 30, PNG_COLOR_TYPE_GRAY, 31);
    cut.resize(20);  // inside the header
    add_photo(photos_, "a.png", cut);
    add_photo(photos_, "b.png", png_photo(64, 48, PNG_COLOR_TYPE_GRAY, 32));
    add_photo(photos_, "c.png", png_photo(64, 48, PNG_COLOR_TYPE_RGB, 33));
    add_photo(photos_, "d.png", png_photo(63, 47, PNG_COLOR_TYPE_GRAY, 34));
    const fs::path results = root_ / "results";
    for (int attempt = 1; attempt <= 4; ++attempt) {
        SCOPED_TRACE("attempt " + std::to_string(attempt));
        const Outcome outcome =
            run("sobel", {"-i", photos_.string(), "-o", results.string(), "-j", "2"});
        EXPECT_TRUE(outcome.exited && outcome.status == kFailure)
            << outcome.how << ": " << outcome.err;
        EXPECT_EQ(count_lines(outcome.err), 1u) << outcome.err;
        EXPECT_NE(outcome.err.find("a.png"), std::string::npos) << outcome.err;
        EXPECT_NE(outcome.out.find("3 of 4 photos written"), std::string::npos) << outcome.out;
        for (const char* result : {"b.png", "c.png", "d.png"})
            EXPECT_TRUE(fs::is_regular_file(results / result)) << result << " not written";
        if (fs::exists(results)) {
            EXPECT_EQ(temporaries_in(results), "");
        }
        if (::testing::Test::HasFailure()) break;  // one attempt's failures say it all
        fs::remove_all(results);
    }
}

// Every photo bad: the exit status says so, and the folder the batch made is not left empty.
TEST_F(Batches, NoPhotoWrittenLeavesNoFolder)
{
    add_photo(photos_, "x.bmp", {'B', 'M', 0, 0});
    add_photo(photos_, "y.bmp", {'B', 'M', 1, 1});
    const Outcome outcome =
        run("sobel", {"-i", photos_.string(), "-o", (root_ / "results").string()});
    EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how << ": " << outcome.err;
    EXPECT_EQ(count_lines(outcome.err), 2u) << outcome.err;
    EXPECT_FALSE(fs::exists(root_ / "results"));
}

// A mistyped SDK_MAX_* setting in a batch: the first photo's usage error stops it, exit status 2
// as in a single run (it exited 1: issue 47, item 8), and the folder it made is not left.
TEST_F(Batches, AMistypedLimitSettingStopsTheBatchAsAUsageError)
{
    add_photo(photos_, "a.bmp", bmp_photo(8, 8, 41));
    add_photo(photos_, "b.png", png_photo(9, 7, PNG_COLOR_TYPE_RGB, 42));
    RunOptions options;
    options.environment["SDK_MAX_WORK_GROUP_SIZE"] = "many";
    const Outcome outcome =
        run("sobel", {"-i", photos_.string(), "-o", (root_ / "results").string()}, options);
    EXPECT_TRUE(outcome.exited && outcome.status == kUsageError)
        << outcome.how << ": " << outcome.err;
    EXPECT_EQ(count_lines(outcome.err), 1u) << outcome.err;
    EXPECT_NE(outcome.err.find("SDK_MAX_WORK_GROUP_SIZE='many'"), std::string::npos) << outcome.err;
    EXPECT_FALSE(fs::exists(root_ / "results"));
}

// What cannot make a sensible batch is refused before any work: one line, exit status 2,
// nothing written, not even the output folder.
TEST_F(Batches, RefusedUpFront)
{
    const fs::path a = add_photo(photos_, "a.bmp", bmp_photo(8, 8, 21));
    const fs::path b = add_photo(photos_, "b.png", png_photo(8, 8, PNG_COLOR_TYPE_RGB, 22));
    const fs::path other_a = add_photo(root_ / "elsewhere", "a.jpg", jpeg_photo(8, 8, 23));
    const std::string results = (root_ / "results").string();
    for (const std::string& sample : sample_names()) {
        expect_refused(sample, {"-i", a.string(), other_a.string(), "-o", results},
                       "would both be written as");
        expect_refused(sample, {"-i", a.string(), b.string(), a.string(), "-o", results},
                       "is in the batch twice");
        expect_refused(sample,
                       {"-i", photos_.string(), (photos_ / "." / "b.png").string(), "-o", results},
                       "is in the batch twice");
        expect_refused(sample, {"-i", a.string(), b.string()}, "a batch needs -o FOLDER");
        expect_refused(sample, {"-i", photos_.string(), "-o", photos_.string()},
                       "would replace the input");
        for (const std::vector<std::string>& single_run : std::vector<std::vector<std::string>>{
                 {"--save-raw", (root_ / "raw").string()}, {"--floor"}, {"-n", "3"}}) {
            std::vector<std::string> arguments{"-i", photos_.string(), "-o", results};
            arguments.insert(arguments.end(), single_run.begin(), single_run.end());
            expect_refused(sample, arguments, "is not for a batch");
        }
        expect_refused(sample, {"-i", a.string(), b.string(), "-o", results, "--trace", b.string()},
                       "is one of the batch's photos or results");
        expect_refused(
            sample,
            {"-i", a.string(), "-o", (root_ / "one.bmp").string(), "--output-format", "png"},
            "--output-format: a batch's option");
        expect_refused(sample, {"-i", a.string(), "-o", (root_ / "one.bmp").string(), "-j", "2"},
                       "--jobs: a batch's option");
        expect_refused(sample,
                       {"-i", a.string(), "-o", (root_ / "one.bmp").string(), "--devices", "all"},
                       "--devices: a batch's option");
    }
    expect_refused("sobel", {"-i", photos_.string(), "-o", results, "--save-gradients"},
                   "is not for a batch");
    expect_refused("fir_float", {"-i", photos_.string(), "-o", results, "--retune"},
                   "is not for a batch");
    // An output folder that is a file: refused, and the file left as it was.
    sdk::write_file_atomically(root_ / "results", reinterpret_cast<const std::uint8_t*>("file"), 4);
    for (const std::string& sample : sample_names()) {
        expect_refused(sample, {"-i", photos_.string(), "-o", results}, "this is a file");
        EXPECT_EQ(read_text(root_ / "results"), "file");
    }
}

// A batch's --trace is an output like a single run's, checked before any photo (issue 38, items
// 1 and 5): a FIFO, a folder or a missing folder refused with one line and nothing written (no
// result, no folder made); a symbolic link followed, the link kept.
TEST_F(Batches, TraceIsCheckedAsASingleRunsOutputBeforeAnyPhoto)
{
    add_photo(photos_, "a.bmp", bmp_photo(8, 8, 24));
    add_photo(photos_, "b.bmp", bmp_photo(9, 7, 25));
    const fs::path results = root_ / "results";
    const fs::path fifo = root_ / "fifo", folder = root_ / "folder";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    fs::create_directory(folder);
    for (const fs::path& trace : {fifo, folder, root_ / "no-such-folder" / "t.json"}) {
        SCOPED_TRACE(trace);
        const Outcome outcome = run("sobel", {"-q", "-i", photos_.string(), "-o", results.string(),
                                              "--trace", trace.string()});
        EXPECT_TRUE(outcome.exited && outcome.status == kFailure)
            << outcome.how << ": " << outcome.err;
        EXPECT_EQ(count_lines(outcome.err), 1u) << outcome.err;
        EXPECT_NE(outcome.err.find(trace.string()), std::string::npos) << outcome.err;
        EXPECT_FALSE(fs::exists(results)) << "a photo was written before the trace was checked";
    }
    EXPECT_TRUE(fs::is_fifo(fifo));
    EXPECT_TRUE(fs::is_directory(folder));
    EXPECT_TRUE(fs::is_empty(folder));

    const fs::path target = root_ / "target.json", link = root_ / "link.json";
    sdk::write_file_atomically(target, reinterpret_cast<const std::uint8_t*>("old"), 3);
    fs::create_symlink(target, link);
    const Outcome outcome = run(
        "sobel", {"-q", "-i", photos_.string(), "-o", results.string(), "--trace", link.string()});
    EXPECT_TRUE(outcome.exited && outcome.status == 0) << outcome.how << ": " << outcome.err;
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(read_text(target).rfind("{\"traceEvents\": [", 0), 0u);
    EXPECT_EQ(files_under(results).size(), 2u);
}

// A batch that writes nothing into `-o new/deeper/results` leaves none of the three folders it
// made (issue 38, item 6); a folder that was there before stays.
TEST_F(Batches, NoPhotoWrittenLeavesNoneOfTheFoldersItMade)
{
    add_photo(photos_, "x.bmp", {'B', 'M', 0, 0});
    fs::create_directory(root_ / "kept");
    const Outcome outcome =
        run("sobel", {"-q", "-i", photos_.string(), "-o",
                      (root_ / "kept" / "new" / "deeper" / "results").string()});
    EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how << ": " << outcome.err;
    EXPECT_TRUE(fs::is_directory(root_ / "kept"));
    EXPECT_FALSE(fs::exists(root_ / "kept" / "new"));
}

// A usage error on photo 2 of 4 stops the batch; the summary counts the two never started
// (issue 38, item 9) so that its numbers add up.
TEST_F(Batches, TheSummaryOfAStoppedBatchCountsThePhotosNotStarted)
{
    add_photo(photos_, "1.bmp", bmp_photo(40, 30, 26));
    add_photo(photos_, "2.bmp", bmp_photo(8, 8, 27));  // --roi below does not fit in it
    add_photo(photos_, "3.bmp", bmp_photo(40, 30, 28));
    add_photo(photos_, "4.bmp", bmp_photo(40, 30, 29));
    const Outcome outcome =
        run("morphology_packed", {"-i", photos_.string(), "-o", (root_ / "results").string(), "-j",
                                  "1", "--roi", "0,0,16,16"});
    EXPECT_TRUE(outcome.exited && outcome.status == kUsageError)
        << outcome.how << ": " << outcome.err;
    EXPECT_NE(outcome.out.find("1 of 4 photos written"), std::string::npos) << outcome.out;
    EXPECT_NE(outcome.out.find("1 failed; 2 not started"), std::string::npos) << outcome.out;
}

// `-o dang`, a symbolic link to nothing: refused saying so (issue 38, item 11), not "cannot
// create the folder: File exists"; the link left as it was.
TEST_F(Batches, ADanglingLinkAsTheOutputFolderIsRefusedSayingSo)
{
    add_photo(photos_, "a.bmp", bmp_photo(8, 8, 30));
    add_photo(photos_, "b.bmp", bmp_photo(8, 8, 31));
    const fs::path dangling = root_ / "dang";
    fs::create_symlink(root_ / "nowhere", dangling);
    expect_refused(
        "sobel", {"-i", photos_.string(), "-o", dangling.string()},
        "a symbolic link to '" + (root_ / "nowhere").string() + "', which does not exist");
    EXPECT_TRUE(fs::is_symlink(dangling));
    EXPECT_FALSE(fs::exists(root_ / "nowhere"));
}

// morphology_packed's --roi '' and --size '' ran as if left out, exit 0 (issue 38, item 8): usage
// errors now, as the empty values of the other options are.
TEST_F(Batches, MorphologysEmptyRegionAndSizeAreUsageErrors)
{
    const fs::path photo = add_photo(photos_, "a.bmp", bmp_photo(8, 8, 32));
    for (const char* option : {"--roi", "--size"}) {
        SCOPED_TRACE(option);
        const Outcome outcome =
            run("morphology_packed",
                {"-i", photo.string(), "-o", (root_ / "out.bmp").string(), option, ""});
        EXPECT_TRUE(outcome.exited && outcome.status == kUsageError)
            << outcome.how << ": " << outcome.err;
        EXPECT_NE(outcome.err.find(option), std::string::npos) << outcome.err;
        EXPECT_FALSE(fs::exists(root_ / "out.bmp"));
    }
}

// Photos named with an escape sequence and a newline (issue 38, item 10): "Wrote ..." and a
// failed photo's line show the names escaped, so nothing reaches the terminal raw and each
// message stays one line.
TEST_F(Batches, ControlCharactersInNamesArePrintedEscaped)
{
    add_photo(photos_, "clear\x1b[2J.bmp", bmp_photo(8, 8, 33));
    add_photo(photos_, "two\nlines.bmp", bmp_photo(8, 8, 34));
    add_photo(photos_, "bad\x1b[31m.bmp", {'B', 'M', 0, 0});
    const Outcome outcome =
        run("sobel", {"-i", photos_.string(), "-o", (root_ / "results").string(), "-j", "1"});
    EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how << ": " << outcome.err;
    EXPECT_EQ(outcome.out.find('\x1b'), std::string::npos) << outcome.out;
    EXPECT_EQ(outcome.err.find('\x1b'), std::string::npos) << outcome.err;
    EXPECT_NE(outcome.out.find("clear\\x1b[2J.png\n"), std::string::npos) << outcome.out;
    EXPECT_NE(outcome.out.find("two\\nlines.png\n"), std::string::npos) << outcome.out;
    EXPECT_EQ(count_lines(outcome.err), 1u) << outcome.err;
    EXPECT_NE(outcome.err.find("bad\\x1b[31m.bmp"), std::string::npos) << outcome.err;
    EXPECT_TRUE(fs::exists(root_ / "results" / "two\nlines.png"));
}

// --jobs 64, above the old ceiling of 32: taken (the machine holds 64 of these small photos in
// flight), and the batch has the first photo alone, then the other 6 at once.
TEST_F(Batches, SixtyFourJobsAreTaken)
{
    add_awkward_photos(photos_);
    const Outcome outcome =
        run("sobel", {"-i", photos_.string(), "-o", (root_ / "results").string(), "-j", "64"});
    ASSERT_TRUE(outcome.exited && outcome.status == 0) << outcome.how << ": " << outcome.err;
    EXPECT_EQ(outcome.err, "");
    EXPECT_NE(outcome.out.find("Batch: 7 of 7 photos written"), std::string::npos) << outcome.out;
    EXPECT_NE(outcome.out.find(", 6 in flight at once"), std::string::npos) << outcome.out;
    EXPECT_EQ(files_under(root_ / "results").size(), 7u);
}

// --devices all spreads the photos over every device like the chosen one (here the one device
// there is, or every GPU of its platform): the results are the bytes of the one-device batch.
TEST_F(Batches, DevicesAllWritesTheSameResults)
{
    add_awkward_photos(photos_);
    const fs::path one = root_ / "one", all = root_ / "all";
    const Outcome alone =
        run("sobel", {"-i", photos_.string(), "-o", one.string(), "-q", "-j", "3"});
    ASSERT_TRUE(alone.exited && alone.status == 0) << alone.how << ": " << alone.err;
    const Outcome spread =
        run("sobel", {"-i", photos_.string(), "-o", all.string(), "-j", "3", "--devices", "all"});
    ASSERT_TRUE(spread.exited && spread.status == 0) << spread.how << ": " << spread.err;
    EXPECT_NE(spread.out.find("Batch: 7 of 7 photos written"), std::string::npos) << spread.out;
    EXPECT_EQ(files_under(all), files_under(one));
    EXPECT_EQ(files_under(all).size(), 7u);
}

// --trace: one timeline of the whole batch, every photo's stages on the track of the thread that
// ran it (the first photo alone on thread 1), each bar named after its photo.
TEST_F(Batches, TraceShowsEveryPhotosStages)
{
    add_photo(photos_, "one.bmp", bmp_photo(40, 30, 41));
    add_photo(photos_, "two.jpg", jpeg_photo(33, 17, 42));
    add_photo(photos_, "three.png", png_photo(17, 5, PNG_COLOR_TYPE_RGB, 43));
    const fs::path trace = root_ / "batch-trace.json";
    const Outcome outcome =
        run("sobel", {"-i", photos_.string(), "-o", (root_ / "results").string(), "-j", "2",
                      "--trace", trace.string()});
    ASSERT_TRUE(outcome.exited && outcome.status == 0) << outcome.how << ": " << outcome.err;
    EXPECT_NE(outcome.out.find("Wrote " + trace.string()), std::string::npos) << outcome.out;
    const std::string json = read_text(trace);
    EXPECT_EQ(json.rfind("{\"traceEvents\": [", 0), 0u) << json.substr(0, 80);
    for (const char* photo : {"one.bmp", "two.jpg", "three.png"}) {
        SCOPED_TRACE(photo);
        EXPECT_NE(json.find("\"" + std::string(photo) + ": open "), std::string::npos);
        EXPECT_NE(json.find(std::string(photo) + ": compress and write "), std::string::npos);
    }
    EXPECT_NE(json.find("photos on thread 1"), std::string::npos);
    EXPECT_NE(json.find("\"cat\": \"decode\""), std::string::npos);
    EXPECT_NE(json.find("\"cat\": \"encode\""), std::string::npos);
    // The summary splits the device stage: the device's own time, and the rest.
    EXPECT_NE(outcome.out.find("\n    working "), std::string::npos) << outcome.out;
    EXPECT_NE(outcome.out.find("\n    waiting "), std::string::npos) << outcome.out;
    // Only the batch's timeline: no photo wrote one of its own beside its result.
    EXPECT_EQ(files_under(root_ / "results").size(), 3u);
}

// A photo starts decoding before the OpenCL driver starts, so that its decoding runs while the
// driver and the device start: every sample's step table opens the photo first.
TEST_F(Batches, EverySampleOpensItsPhotoBeforeTheDriverStarts)
{
    const fs::path photo = add_photo(photos_, "early.jpg", jpeg_photo(33, 17, 44));
    for (const std::string& sample : sample_names()) {
        SCOPED_TRACE(sample);
        const Outcome outcome =
            run(sample, {"-i", photo.string(), "-o", (root_ / "early.png").string()});
        ASSERT_TRUE(outcome.exited && outcome.status == 0) << outcome.how << ": " << outcome.err;
        const std::size_t opened = outcome.out.find("open early.jpg");
        const std::size_t started = outcome.out.find("start the OpenCL driver");
        ASSERT_NE(opened, std::string::npos) << outcome.out;
        ASSERT_NE(started, std::string::npos) << outcome.out;
        EXPECT_LT(opened, started) << outcome.out;
    }
}

// Stopped by SIGINT or SIGTERM at moments spread over a batch, and just after its first result
// appears: the photos already written stay, each whole (the bytes of the uninterrupted batch),
// and the one in flight leaves no temporary.
TEST_F(Batches, StoppedMidBatchKeepsWhatWasWrittenAndLeavesNoTemporary)
{
    // Enough photos, two at a time, that the photos' part of the batch is not lost beside the
    // device's start: on a GPU a dozen small photos took a few milliseconds of a 300 ms batch, and
    // no signal came while they were written.
    const int photos = 24;
    for (int photo = 0; photo < photos; ++photo)
        add_photo(photos_, "photo-" + std::to_string(10 + photo) + ".bmp",
                  bmp_photo(1024, 768, 30u + photo));
    const fs::path results = root_ / "results";
    const std::vector<std::string> arguments{
        "-i", photos_.string(), "-o", results.string(), "-q", "-j", "2"};
    const auto start = std::chrono::steady_clock::now();
    const Outcome whole = run("sobel", arguments);
    const auto length = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(whole.exited && whole.status == 0) << whole.err;
    const auto complete = files_under(results);
    ASSERT_EQ(complete.size(), static_cast<std::size_t>(photos));
    fs::remove_all(results);

    // Eight moments by the clock, spread over the uninterrupted batch's length; two more when the
    // first result appears, which a batch reaches part-way however fast the device starts (a
    // GPU's batch can be over before a moment by the clock comes).
    int stopped_part_way = 0;
    const int timed_moments = 8;
    for (int moment = 0; moment < timed_moments + 2; ++moment) {
        const int signal_number = moment % 2 ? SIGTERM : SIGINT;
        const bool timed = moment < timed_moments;
        const auto delay = length * 0.9 * (moment + 0.5) / timed_moments;
        SCOPED_TRACE(
            "signal " + std::to_string(signal_number) +
            (timed ? " after " +
                         std::to_string(std::chrono::duration<double, std::milli>(delay).count()) +
                         " ms"
                   : std::string(" after the first result")));
        const Started started = start_program(program("sobel"), arguments, root_, logs_);
        if (timed)
            std::this_thread::sleep_for(delay);
        else
            first_result_appears(results, length * 4);
        ::kill(started.pid, signal_number);
        const Outcome outcome = wait_for(started);
        EXPECT_TRUE(outcome.exited ? outcome.status == 0 : outcome.signal == signal_number)
            << outcome.how;
        if (fs::exists(results)) {
            EXPECT_EQ(temporaries_in(results), "");
            const auto written = files_under(results);
            for (const auto& [name, bytes] : written) {
                const auto expected = complete.find(name);
                EXPECT_TRUE(expected != complete.end() && expected->second == bytes)
                    << name << " is not a whole result";
            }
            if (!outcome.exited && !written.empty() && written.size() < complete.size())
                ++stopped_part_way;
            fs::remove_all(results);
        }
    }
    EXPECT_GE(stopped_part_way, 1) << "no batch was stopped part-way: the test tested nothing";
}

// `sobel -i photos -o results -j 2 | head -1` over earlier results (issue 38, item 2): the reader
// leaves after one line, SIGPIPE stops the batch at its next line, and every earlier result is
// there whole, with no temporary left beside it. Three times: before the fix, each left some.
TEST_F(Batches, AReaderThatLeavesStopsTheBatchKeepingEveryResult)
{
    for (int photo = 0; photo < 12; ++photo)
        add_photo(photos_, "p" + std::to_string(10 + photo) + ".bmp",
                  bmp_photo(512, 384, 60u + photo));
    const fs::path results = root_ / "results";
    const Outcome first = run("sobel", {"-q", "-i", photos_.string(), "-o", results.string()});
    ASSERT_TRUE(first.exited && first.status == 0) << first.err;
    const auto earlier = files_under(results);
    ASSERT_EQ(earlier.size(), 12u);
    const std::string sobel = program("sobel").string();
    std::vector<std::string> words{sobel, "-i", photos_.string(), "-o", results.string(),
                                   "-j",  "2"};
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    for (int attempt = 0; attempt < 3; ++attempt) {
        SCOPED_TRACE("attempt " + std::to_string(attempt));
        int ends[2];
        ASSERT_EQ(::pipe(ends), 0);
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            ::close(ends[0]);
            if (::dup2(ends[1], 1) < 0) ::_exit(126);
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        ::close(ends[1]);
        std::string line;
        char c = 0;
        while (::read(ends[0], &c, 1) == 1 && c != '\n') line += c;
        ::close(ends[0]);  // as head -1 does after its line
        int status = 0;
        ::waitpid(child, &status, 0);
        EXPECT_EQ(line.rfind("Wrote ", 0), 0u) << line;
        EXPECT_TRUE(WIFSIGNALED(status) ? WTERMSIG(status) == SIGPIPE : WEXITSTATUS(status) == 0)
            << status;
        EXPECT_EQ(temporaries_in(results), "");
        const auto now = files_under(results);
        std::string names;  // not their bytes: a failure would print megabytes
        for (const auto& [name, bytes] : now) names += name + " ";
        EXPECT_TRUE(now == earlier) << "not the earlier results, whole: " << names;
    }
}

// SIGQUIT (Ctrl-\\) stops a batch as SIGINT does (issue 38, item 2): before, a handler of the
// OpenCL driver's took it and the batch ran on to its end with exit status 0.
TEST_F(Batches, SigquitStopsTheBatchAndLeavesNoTemporary)
{
    for (int photo = 0; photo < 24; ++photo)
        add_photo(photos_, "p" + std::to_string(10 + photo) + ".bmp",
                  bmp_photo(1024, 768, 80u + photo));
    const fs::path results = root_ / "results";
    // SIGQUIT's default action dumps core: not wanted here (the child inherits the limit).
    struct rlimit core {};
    ::getrlimit(RLIMIT_CORE, &core);
    const struct rlimit no_core {
        0, core.rlim_max
    };
    ::setrlimit(RLIMIT_CORE, &no_core);
    const Started started = start_program(
        program("sobel"), {"-q", "-i", photos_.string(), "-o", results.string(), "-j", "2"}, root_,
        logs_);
    ::setrlimit(RLIMIT_CORE, &core);
    // Once the first result is there: the device started, photos in flight.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    std::error_code ignored;
    while (!fs::exists(results / "p10.png", ignored) && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ::kill(started.pid, SIGQUIT);
    const Outcome outcome = wait_for(started);
    EXPECT_TRUE(!outcome.exited && outcome.signal == SIGQUIT) << outcome.how;
    EXPECT_EQ(temporaries_in(results), "");
    EXPECT_LT(files_under(results).size(), 24u) << "the batch ran on to its end";
}

// On a terminal, a batch that runs longer than a second shows "[k/N photos, x photos/s]" on
// stderr, redrawn in place and cleared at the end; shorter, it shows nothing.
TEST_F(Batches, OnATerminalALongBatchShowsItsProgress)
{
    for (int photo = 0; photo < 20; ++photo)
        add_photo(photos_, "photo-" + std::to_string(10 + photo) + ".bmp",
                  bmp_photo(2048, 1536, 50u + photo));
    int terminal = -1, child_side = -1;
    ASSERT_EQ(::openpty(&terminal, &child_side, nullptr, nullptr, nullptr), 0)
        << std::strerror(errno);
    const std::string sobel = program("sobel_no_vectors").string();  // the slowest kernel
    std::vector<std::string> words{
        sobel, "-i", photos_.string(),  "-o", (root_ / "results").string(), "-q",
        "-j",  "1",  "--output-format", "png"};
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    const auto start = std::chrono::steady_clock::now();
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        ::close(terminal);
        if (::dup2(child_side, 2) < 0) ::_exit(126);
        ::execv(argv[0], argv.data());
        ::_exit(127);
    }
    ::close(child_side);
    std::string shown;
    char piece[256];
    for (ssize_t got; (got = ::read(terminal, piece, sizeof piece)) > 0;)
        shown.append(piece, static_cast<std::size_t>(got));
    int status = 0;
    ::waitpid(child, &status, 0);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ::close(terminal);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << shown;
    if (seconds > 1.5) {
        EXPECT_NE(shown.find(" photos, "), std::string::npos) << seconds << " s: " << shown;
        EXPECT_NE(shown.find("/20 photos"), std::string::npos) << shown;
        EXPECT_EQ(shown.find('\n'), std::string::npos) << "one line, redrawn: " << shown;
        EXPECT_EQ(shown.substr(shown.size() - 4), "\r\033[K") << "cleared at the end: " << shown;
    } else if (seconds < 0.9) {  // a fast machine: the batch must stay silent
        EXPECT_EQ(shown, "") << seconds << " s";
    }  // between the two, too near the second to judge either way
}

}  // namespace
