// SPDX-License-Identifier: Apache-2.0
// End to end: runs in bands (common/runtime/bands.hpp) write exactly the bytes of the whole-image
// run. Every sample on the device pipeline is run as a child process on random images of awkward
// sizes, whole and cut into bands (--band-rows 1 and 7, one band taller than the image, and
// SDK_MAX_ALLOC_BYTES forcing the device's limit down), and the output files are compared byte
// for byte. To keep the launches reasonable (each starts PoCL) the product is covered in
// slices: every variant and operation x every size in one memory mode and border; every
// border x two sizes; every memory mode on one size; PNG and top-down inputs, PNG output.
#include "bmp_builder.hpp"
#include "child_process.hpp"
#include "common/imageio/bmp.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/image_file.hpp"
#include "common/imageio/png.hpp"
#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

struct Size {
    int width;
    int height;
};
const Size kSizes[] = {{1, 1}, {2, 3}, {17, 5}, {37, 23}, {5, 61}};

// A sample and the options that pick its kernel or operation.
struct Filter {
    std::string sample;
    std::vector<std::string> options;
    std::size_t halo;
};
std::string describe(const Filter& filter)
{
    std::string text = filter.sample;
    for (const std::string& option : filter.options) text += " " + option;
    return text;
}
const Filter kSobel16x1{"sobel", {"--variant", "16x1"}, 1};
const Filter kFir{"fir_float", {}, 1};

// 49 numerators, none alike in a row, so that a band's misplaced halo row changes its output.
std::string seven_by_seven()
{
    std::string text;
    for (int i = 0; i < 49; ++i) text += (i ? "," : "") + std::to_string(i % 11 - 3);
    return text;
}

std::vector<Filter> every_filter()
{
    std::vector<Filter> filters{
        kSobel16x1,
        {"sobel", {"--variant", "16x4"}, 1},
        {"sobel", {"--variant", "16x4-packed"}, 1},
        {"sobel", {"--variant", "local"}, 1},
        {"sobel", {"--variant", "image"}, 1},
        kFir,
        // A 7x7 window: a halo of 3 rows.
        {"fir_float", {"--size", "7", "--coefficients", seven_by_seven()}, 3}};
    for (const std::string operation : {"dilate", "erode", "close", "open"})
        filters.push_back({"morphology_packed",
                           {"--op", operation, "--shape", "diamond"},
                           operation == "close" || operation == "open" ? 4u : 2u});
    // A taller element, its halo H / 2 rows a pass. (The square stays last: the tests below take
    // every_filter().back() as the morphology.)
    filters.push_back(
        {"morphology_packed", {"--op", "close", "--shape", "ellipse", "--size", "9x7"}, 6});
    filters.push_back({"morphology_packed", {"--op", "close", "--shape", "square"}, 2});
    return filters;
}

// What one row costs the widest buffer of `filter`'s run on a 24-bit BMP: the stored row
// (padded to 4), and Sobel's rows or Fir's floats (padded to 64). A limit of a few of these
// forces bands of a few rows.
std::uint64_t widest_row_bytes(const Filter& filter, int width)
{
    const auto padded = [](std::uint64_t bytes, std::uint64_t to) {
        return (bytes + to - 1) / to * to;
    };
    const std::uint64_t pixels = static_cast<std::uint64_t>(width);
    std::uint64_t widest = padded(3 * pixels, 4);
    if (filter.sample == "sobel") widest = std::max(widest, padded(pixels, 64));
    if (filter.sample == "fir_float") widest = std::max(widest, padded(4 * pixels, 64));
    return widest;
}

class Bands : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "bands-test-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        root_ = pattern;
        logs_ = root_ / "logs";
        fs::create_directory(logs_);
    }
    void TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(root_, ignored);
    }

    // A random 24-bit BMP (or, with `top_down`, stored top row first).
    fs::path random_bmp(const Size& size, bool top_down = false)
    {
        bmptest::BmpSpec spec;
        spec.width = size.width;
        spec.height = top_down ? -size.height : size.height;
        std::uniform_int_distribution<std::uint32_t> colour(0, 0xFFFFFF);
        for (int i = 0; i < size.width * size.height; ++i) spec.values.push_back(colour(random_));
        const fs::path path =
            root_ / ("input-" + std::to_string(size.width) + "x" + std::to_string(size.height) +
                     (top_down ? "-td" : "") + ".bmp");
        const std::vector<std::uint8_t> bytes = bmptest::build_bmp(spec);
        sdk::write_file_atomically(path, bytes.data(), bytes.size());
        return path;
    }

    // Runs `filter` on `input` with `extra` options into `output`; expects success and returns
    // what it printed.
    std::string run(const Filter& filter, const fs::path& input, const fs::path& output,
                    std::vector<std::string> extra, const RunOptions& options = {})
    {
        std::vector<std::string> arguments{"-i", input.string(), "-o", output.string()};
        arguments.insert(arguments.end(), filter.options.begin(), filter.options.end());
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        const Outcome outcome = run_program(sdk::executable_directory() / filter.sample, arguments,
                                            root_, logs_, options);
        EXPECT_TRUE(outcome.exited && outcome.status == 0)
            << outcome.how << "; stderr: " << outcome.err << "\nstdout: " << outcome.out;
        EXPECT_EQ(outcome.err, "");
        return outcome.out;
    }

    // The whole-image run's output, then each banded run's compared with it byte for byte.
    void expect_bands_match_whole(const Filter& filter, const fs::path& input, const Size& size,
                                  const std::vector<std::string>& options,
                                  const std::vector<std::string>& band_rows, bool forced_limit,
                                  const std::string& extension = ".bmp")
    {
        SCOPED_TRACE(describe(filter) + " on " + input.filename().string());
        const fs::path whole = root_ / ("whole" + extension);
        const std::string whole_log = run(filter, input, whole, options);
        EXPECT_EQ(whole_log.find("Bands:"), std::string::npos) << whole_log;
        const std::vector<std::uint8_t> expected = sdk::read_file(whole);
        const auto compare = [&](const std::string& how, const std::string& log) {
            SCOPED_TRACE(how);
            const fs::path banded = root_ / ("banded" + extension);
            EXPECT_EQ(sdk::read_file(banded), expected) << "the banded output differs";
            fs::remove(banded);
            for (const auto& entry : fs::directory_iterator(root_))
                EXPECT_NE(entry.path().filename().string().front(), '.')
                    << "temporary left behind: " << entry.path();
            return log;
        };
        for (const std::string& rows : band_rows) {
            std::vector<std::string> banded = options;
            banded.insert(banded.end(), {"--band-rows", rows});
            const std::string log = compare(
                "--band-rows " + rows, run(filter, input, root_ / ("banded" + extension), banded));
            // Bands were really used whenever they cut the image: the test can fail.
            if (std::stoul(rows) < static_cast<std::size_t>(size.height)) {
                EXPECT_NE(log.find("Bands:"), std::string::npos) << log;
            }
        }
        if (forced_limit) {
            // Room for the halo and two output rows: bands of a few rows on every sample.
            RunOptions limited;
            limited.environment["SDK_MAX_ALLOC_BYTES"] =
                std::to_string((2 * filter.halo + 2) * widest_row_bytes(filter, size.width));
            const std::string log =
                compare("SDK_MAX_ALLOC_BYTES " + limited.environment["SDK_MAX_ALLOC_BYTES"],
                        run(filter, input, root_ / ("banded" + extension), options, limited));
            if (static_cast<std::size_t>(size.height) > 2 * filter.halo + 2) {
                EXPECT_NE(log.find("because the device allocates at most"), std::string::npos)
                    << log;
            }
        }
        fs::remove(whole);
    }

    fs::path root_;
    fs::path logs_;
    std::mt19937 random_{17};
};

TEST_F(Bands, EveryFilterEverySize)
{
    for (const Size& size : kSizes) {
        const fs::path input = random_bmp(size);
        for (const Filter& filter : every_filter())
            expect_bands_match_whole(filter, input, size, {"--memory", "map"}, {"1", "7"}, true);
    }
}

// A device without images, or none this wide, runs sobel's image variant as 16x4: the same bytes,
// and one line that says so. 65536 pixels, the widest image the samples read, is past the
// CL_DEVICE_IMAGE2D_MAX_WIDTH of PoCL (16384) and of NVIDIA's GPUs (32768).
TEST_F(Bands, SobelImageVariantFallsBackWhereTheDeviceHasNoImageThatLarge)
{
    const Size size{65536, 2};
    const fs::path input = random_bmp(size);
    const std::string log =
        run({"sobel", {"--variant", "image"}, 1}, input, root_ / "image.bmp", {});
    EXPECT_NE(log.find(": variant image runs as 16x4\n"), std::string::npos) << log;
    run({"sobel", {"--variant", "16x4"}, 1}, input, root_ / "16x4.bmp", {});
    EXPECT_EQ(sdk::read_file(root_ / "image.bmp"), sdk::read_file(root_ / "16x4.bmp"));
}

// A device whose maximum allocation is too small for the tuner's measuring image (368x267 for a
// small image's class), the run cut into bands to fit: with no choice cached, the tuned samples
// measure nothing, say why, and run their default, as one with a --variant would.
TEST_F(Bands, ADeviceTooSmallToTuneOnRunsTheDefault)
{
    const Size size{37, 23};
    const fs::path input = random_bmp(size);
    for (const Filter& filter :
         {Filter{"sobel", {}, 1}, Filter{"fir_float", {}, 1}, Filter{"morphology_packed", {}, 4}}) {
        SCOPED_TRACE(filter.sample);
        RunOptions limited;
        limited.environment["SDK_TUNING_CACHE"] =
            (root_ / (filter.sample + "-tuning.txt")).string();
        limited.environment["SDK_MAX_ALLOC_BYTES"] =
            std::to_string((2 * filter.halo + 2) * widest_row_bytes(filter, size.width));
        const std::string log = run(filter, input, root_ / "small.bmp", {"--verify"}, limited);
        EXPECT_NE(log.find("Tuning: nothing measured now ("), std::string::npos) << log;
        EXPECT_NE(log.find("because the device allocates at most"), std::string::npos) << log;
        // Nothing of the filter's is cached (a GPU's run may cache its codec choice there:
        // unset measures PNG compression on a device that is not the host's cores).
        const fs::path cache = root_ / (filter.sample + "-tuning.txt");
        const std::string cached = fs::exists(cache) ? read_text(cache) : "";
        EXPECT_EQ(cached.find(filter.sample + " |"), std::string::npos) << cached;
        EXPECT_EQ(cached.find("\n" + filter.sample + " |"), std::string::npos) << cached;
    }
}

TEST_F(Bands, BandTallerThanTheImage)
{
    const Size size{17, 5};
    const fs::path input = random_bmp(size);
    for (const Filter& filter : every_filter())
        expect_bands_match_whole(filter, input, size, {}, {"1000"}, false);
}

TEST_F(Bands, EveryBorder)
{
    for (const Size& size : {Size{2, 3}, Size{37, 23}}) {
        const fs::path input = random_bmp(size);
        for (const Filter& filter : {kSobel16x1, kFir})
            for (const std::string border : {"replicate", "reflect101", "constant", "none"})
                expect_bands_match_whole(filter, input, size, {"--border", border}, {"1", "7"},
                                         false);
    }
}

TEST_F(Bands, EveryMemoryMode)
{
    const Size size{37, 23};
    const fs::path input = random_bmp(size);
    for (const Filter& filter : {kSobel16x1, kFir, every_filter().back()})
        for (const std::string memory : {"map", "pinned", "copy"})
            expect_bands_match_whole(filter, input, size, {"--memory", memory}, {"7"}, true);
}

TEST_F(Bands, TopDownBmpPngInputAndPngOutput)
{
    const Size size{37, 23};
    const fs::path top_down = random_bmp(size, true);
    const fs::path bottom_up = random_bmp(size);
    const fs::path png = root_ / "input.png";
    sdk::write_image(png, sdk::read_image(bottom_up));
    for (const Filter& filter : {kSobel16x1, kFir, every_filter().back()}) {
        expect_bands_match_whole(filter, top_down, size, {}, {"1", "7"}, false);
        expect_bands_match_whole(filter, png, size, {}, {"1", "7"}, false);
        expect_bands_match_whole(filter, bottom_up, size, {}, {"1", "7"}, false, ".png");
    }
}

// A failure after the output file was begun (the PNG is decoded at the first band, after the
// BMP's header is written): exit 1, one line, no output and no temporary left.
TEST_F(Bands, TruncatedInputFoundMidBandsLeavesNothing)
{
    const fs::path bottom_up = random_bmp({37, 23});
    const std::vector<std::uint8_t> png = sdk::encode_png(sdk::read_image(bottom_up));
    const fs::path input = root_ / "cut.png";
    sdk::write_file_atomically(input, png.data(), png.size() - 20);
    const fs::path outputs = root_ / "outputs";
    fs::create_directory(outputs);
    for (const Filter& filter : {kSobel16x1, kFir, every_filter().back()}) {
        SCOPED_TRACE(describe(filter));
        std::vector<std::string> arguments{
            "-i", input.string(), "-o", (outputs / "result.bmp").string(), "--band-rows", "2"};
        arguments.insert(arguments.end(), filter.options.begin(), filter.options.end());
        const Outcome outcome =
            run_program(sdk::executable_directory() / filter.sample, arguments, root_, logs_);
        EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how << outcome.err;
        EXPECT_EQ(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 1) << outcome.err;
        EXPECT_NE(outcome.err.find("cut.png: truncated"), std::string::npos) << outcome.err;
        EXPECT_TRUE(fs::is_empty(outputs)) << "nothing may be left in the output folder";
    }
}

// --verify, --save-raw and --save-gradients assemble the whole host images from the bands: the
// check passes and every file is the whole run's, byte for byte.
TEST_F(Bands, HostCopiesAreAssembledFromTheBands)
{
    for (const Size& size : {Size{37, 23}, Size{5, 61}}) {
        const fs::path input = random_bmp(size);
        for (Filter filter : {kSobel16x1, kFir, every_filter().back()}) {
            SCOPED_TRACE(describe(filter) + " on " + input.filename().string());
            filter.options.push_back("--verify");
            if (filter.sample == "sobel") filter.options.push_back("--save-gradients");
            const auto files_of = [&](const std::string& name,
                                      const std::vector<std::string>& extra) {
                const fs::path folder = root_ / name;
                fs::create_directory(folder);
                std::vector<std::string> options = extra;
                options.insert(options.end(), {"--save-raw", (folder / "raw").string()});
                const std::string log = run(filter, input, folder / "result.bmp", options);
                EXPECT_NE(log.find("Verify: "), std::string::npos) << log;
                std::map<std::string, std::vector<std::uint8_t>> files;
                for (const auto& entry : fs::recursive_directory_iterator(folder))
                    if (entry.is_regular_file())
                        files[fs::relative(entry.path(), folder).string()] =
                            sdk::read_file(entry.path());
                fs::remove_all(folder);
                return std::make_pair(files, log);
            };
            const auto whole = files_of("whole", {});
            EXPECT_GE(whole.first.size(), 3u);  // result.bmp and at least two raw files
            const auto banded = files_of("banded", {"--band-rows", "1"});
            EXPECT_NE(banded.second.find("Bands:"), std::string::npos) << banded.second;
            EXPECT_TRUE(banded.first == whole.first) << "the banded run's files differ";
        }
    }
}

// -n times the kernel on the whole image: refused with bands, as a usage error.
TEST_F(Bands, IterationsAreAUsageErrorWithBands)
{
    const fs::path input = random_bmp({17, 5});
    const fs::path outputs = root_ / "outputs";
    fs::create_directory(outputs);
    for (const Filter& filter : {kSobel16x1, kFir, every_filter().back()}) {
        SCOPED_TRACE(describe(filter));
        std::vector<std::string> arguments{
            "-i", input.string(), "-o", (outputs / "result.bmp").string(), "--band-rows",
            "2",  "-n",           "3"};
        const Outcome outcome =
            run_program(sdk::executable_directory() / filter.sample, arguments, root_, logs_);
        EXPECT_TRUE(outcome.exited && outcome.status == kUsageError) << outcome.how << outcome.err;
        EXPECT_NE(outcome.err.find("--iterations needs the whole image"), std::string::npos)
            << outcome.err;
        EXPECT_TRUE(fs::is_empty(outputs));
    }
}

}  // namespace

namespace {

// A mistyped SDK_MAX_ALLOC_BYTES is an error naming it, not a silent whole-image run: a usage
// error, exit status 2, as a mistyped SDK_PNG_DEFLATE is (issue 47, item 8).
TEST_F(Bands, MalformedAllocationLimitIsRefused)
{
    const fs::path input = random_bmp({17, 5});
    for (const std::string value : {"abc", "0", "-5", "12x"}) {
        SCOPED_TRACE(value);
        RunOptions limited;
        limited.environment["SDK_MAX_ALLOC_BYTES"] = value;
        const Outcome outcome = run_program(
            sdk::executable_directory() / "sobel",
            {"-i", input.string(), "-o", (root_ / "result.bmp").string(), "--variant", "16x1"},
            root_, logs_, limited);
        EXPECT_TRUE(outcome.exited && outcome.status == kUsageError) << outcome.how << outcome.err;
        EXPECT_NE(outcome.err.find("SDK_MAX_ALLOC_BYTES='" + value + "'"), std::string::npos)
            << outcome.err;
        EXPECT_FALSE(fs::exists(root_ / "result.bmp"));
    }
}

}  // namespace
