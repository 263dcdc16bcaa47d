// SPDX-License-Identifier: Apache-2.0
// End to end: the real sample executables, run as child processes on files and command lines
// that must fail cleanly. Each case checks what a user sees: the exit status (1, or 2 for a
// usage error), exactly one line on stderr naming the problem, no output file (not even a
// temporary) left behind and the input untouched. A valid image checks the harness itself.
#include "bmp_builder.hpp"
#include "child_process.hpp"
#include "codec_builders.hpp"
#include "common/imageio/bmp.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/image_file.hpp"
#include "common/imageio/png.hpp"
#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

// The executables under test, every one that samples/CMakeLists.txt adds with add_sample:
// every case runs each of them, and one that is missing fails the suite.
std::vector<fs::path> samples_under_test()
{
    // sdk::executable_directory() reads /proc/self/exe: the samples are built into this folder.
    const fs::path folder = sdk::executable_directory();
    std::vector<fs::path> found;
    std::stringstream names(SDK_SAMPLES);
    for (std::string name; std::getline(names, name, ',');) {
        const fs::path program = folder / name;
        if (::access(program.c_str(), X_OK) == 0)
            found.push_back(program);
        else
            ADD_FAILURE() << "sample " << program.string() << " is not built";
    }
    return found;
}

// Header field offsets, from the file format rather than the SDK.
constexpr std::size_t kOffsetField = 10;
constexpr std::size_t kWidthField = 18;
constexpr std::size_t kHeightField = 22;
constexpr std::size_t kPlanesField = 26;

// Every entry under a folder: a file's bytes, a link's target or "<folder>", by relative path.
// Comparing two snapshots finds new files (temporaries start with a dot: they are included),
// removed files and changed bytes.
using Snapshot = std::map<std::string, std::string>;

void add_to_snapshot(Snapshot& snapshot, const fs::path& folder, const fs::path& skip)
{
    const fs::recursive_directory_iterator end;
    for (auto it = fs::recursive_directory_iterator(folder); it != end; ++it) {
        if (it->path() == skip) {
            it.disable_recursion_pending();
            continue;
        }
        const std::string name = it->path().lexically_relative(folder).string();
        if (it->is_symlink()) {
            snapshot[name] = "<link to " + fs::read_symlink(it->path()).string() + ">";
        } else if (it->is_directory()) {
            snapshot[name] = "<folder>";
        } else if (!it->is_regular_file()) {
            snapshot[name] = "<not a regular file>";  // a FIFO: opening it would wait for a writer
        } else {
            snapshot[name] = read_text(it->path());
        }
    }
}

std::string differences(const Snapshot& before, const Snapshot& after)
{
    std::string report;
    for (const auto& [name, contents] : after) {
        const auto old = before.find(name);
        if (old == before.end()) {
            report += " new: " + name + ";";
        } else if (old->second != contents) {
            report += " changed: " + name + ";";
        }
    }
    for (const auto& [name, contents] : before) {
        if (after.count(name) == 0) report += " removed: " + name + ";";
    }
    return report;
}

void patch32(std::vector<std::uint8_t>& bytes, std::size_t offset, std::uint32_t value)
{
    for (std::size_t i = 0; i < 4; ++i) {
        bytes.at(offset + i) = static_cast<std::uint8_t>(value >> (8 * i));
    }
}

// A small valid colour image; odd width, so rows are padded.
bmptest::BmpSpec valid_spec()
{
    bmptest::BmpSpec spec;
    spec.width = 19;
    spec.height = 7;
    for (std::uint32_t i = 0; i < 19 * 7; ++i) {
        spec.values.push_back((i * 2654435761u) & 0xFFFFFF);
    }
    return spec;
}

std::vector<std::uint8_t> valid_bmp() { return bmptest::build_bmp(valid_spec()); }

std::vector<std::uint8_t> truncated(std::vector<std::uint8_t> bytes, std::size_t size)
{
    bytes.resize(size);
    return bytes;
}

// An 8-bit palettised image with a full grey palette.
bmptest::BmpSpec indexed_spec()
{
    bmptest::BmpSpec spec;
    spec.width = 5;
    spec.height = 3;
    spec.bpp = 8;
    for (std::uint32_t level = 0; level < 256; ++level) spec.palette.push_back(level * 0x010101u);
    spec.values.assign(15, 7);
    return spec;
}

class EndToEnd : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::string pattern = (fs::temp_directory_path() / "sdk-e2e-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr) << std::strerror(errno);
        root_ = pattern;
        inputs_ = root_ / "inputs";
        outputs_ = root_ / "outputs";
        logs_ = root_ / "logs";
        for (const auto& folder : {inputs_, outputs_, logs_}) fs::create_directory(folder);
        samples_ = samples_under_test();
    }

    void TearDown() override
    {
        std::error_code ignored;
        fs::remove_all(root_, ignored);
    }

    fs::path write_input(const std::string& name, const std::vector<std::uint8_t>& bytes)
    {
        const fs::path path = inputs_ / name;
        sdk::write_file_atomically(path, bytes.data(), bytes.size());
        return path;
    }

    // Everything a sample could touch: the input and output folders and the folder above them
    // (where a temporary for "-o outputs" would go); not the logs.
    Snapshot snapshot() const
    {
        Snapshot result;
        add_to_snapshot(result, root_, logs_);
        return result;
    }

    // Runs every sample with `arguments` from the inputs folder and checks that it fails with
    // `status` and one stderr line containing `phrase`, and leaves every file as it was.
    void expect_failure(const std::vector<std::string>& arguments, int status,
                        const std::string& phrase, const RunOptions& options = {})
    {
        for (const fs::path& program : samples_) {
            const std::string name = program.filename().string();
            SCOPED_TRACE(name);
            const Snapshot before = snapshot();
            const Outcome outcome = run_program(program, arguments, inputs_, logs_, options);
            EXPECT_TRUE(outcome.exited && outcome.status == status)
                << "expected exit status " << status << ", got " << outcome.how
                << "; stderr: " << outcome.err;
            EXPECT_EQ(count_lines(outcome.err), 1u) << "stderr must be one line:\n" << outcome.err;
            EXPECT_TRUE(!outcome.err.empty() && outcome.err.back() == '\n') << outcome.err;
            EXPECT_EQ(outcome.err.rfind(name + ": ", 0), 0u)
                << "stderr must start with the sample's name: " << outcome.err;
            EXPECT_NE(outcome.err.find(phrase), std::string::npos)
                << "stderr must say \"" << phrase << "\": " << outcome.err;
            const std::string changes = differences(before, snapshot());
            EXPECT_TRUE(changes.empty()) << "files must stay as they were:" << changes;
        }
    }

    // The usual command line: a file from the inputs folder, the result into the outputs folder.
    std::vector<std::string> reading(const fs::path& input) const
    {
        return {"-i", input.string(), "-o", (outputs_ / "result.bmp").string()};
    }

    void expect_rejected(const std::vector<std::uint8_t>& bytes, const std::string& phrase)
    {
        expect_failure(reading(write_input("input.bmp", bytes)), kFailure, phrase);
    }

    // The sample of that name among those under test.
    fs::path program(const std::string& name) const
    {
        for (const auto& sample : samples_)
            if (sample.filename() == name) return sample;
        ADD_FAILURE() << name << " not built";
        return {};
    }

    fs::path root_;
    fs::path inputs_;
    fs::path outputs_;
    fs::path logs_;
    std::vector<fs::path> samples_;
};

void write_file_atomically_text(const fs::path& path, const std::string& text)
{
    sdk::write_file_atomically(path, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

class BadInput : public EndToEnd {
};

// A run that succeeded: exit status 0 and nothing on stderr.
void expect_success(const Outcome& outcome)
{
    EXPECT_TRUE(outcome.exited && outcome.status == 0)
        << outcome.how << "; stderr: " << outcome.err << "\nstdout: " << outcome.out;
    EXPECT_EQ(outcome.err, "");
}
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
            EXPECT_NE(outcome.out.find(line, floor), std::string::npos) << line << "\n" << outcome.out;
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(folder))
            names.push_back(entry.path().filename().string());
        EXPECT_TRUE(std::find(names.begin(), names.end(), "result.bmp") != names.end());
        for (const auto& file : names) EXPECT_NE(file.front(), '.') << "temporary left behind: " << file;
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
    const Outcome outcome =
        run_program(program("sobel"), {"-i", input.string(), "-o", (outputs_ / "edges.png").string(), "-q"},
                    inputs_, logs_);
    EXPECT_TRUE(outcome.exited && outcome.status == 0) << outcome.how << ": " << outcome.err;
    EXPECT_TRUE(fs::exists(outputs_ / "edges.png"));
    EXPECT_NE(outcome.err.find("sobel: " + input.string() + ": the file has no end marker"), std::string::npos)
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
            std::vector<std::string> arguments{"-i", input.string(), "-o", (folder / "edges.png").string()};
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

// --- Files that are not there or are not BMP, PNG or JPEG images. ---

TEST_F(BadInput, MissingFile)
{
    expect_failure(reading(inputs_ / "missing.bmp"), kFailure, "No such file or directory");
}

TEST_F(BadInput, EmptyFile) { expect_rejected({}, "not a BMP, PNG or JPEG file"); }

TEST_F(BadInput, TextFileNamedBmp)
{
    const std::string text = "This is not an image.\nJust text with a .bmp name.\n";
    expect_rejected(std::vector<std::uint8_t>(text.begin(), text.end()), "not a BMP, PNG or JPEG file");
}

TEST_F(BadInput, InputIsAFolder)
{
    fs::create_directory(inputs_ / "folder.bmp");
    expect_failure(reading(inputs_ / "folder.bmp"), kFailure, "directory");
}

// --- Truncated files. ---

TEST_F(BadInput, TruncatedPng)
{
    const std::vector<std::uint8_t> bmp = valid_bmp();
    const std::vector<std::uint8_t> png = sdk::encode_png(sdk::decode_bmp(bmp.data(), bmp.size(), "valid"));
    expect_failure(reading(write_input("photo.png", truncated(png, png.size() - 20))), kFailure,
                   "photo.png: truncated");
}

TEST_F(BadInput, CmykJpeg)
{
    codectest::JpegSpec cmyk;
    cmyk.width = 8;
    cmyk.height = 8;
    cmyk.components = 4;
    cmyk.pixels.assign(8 * 8 * 4, 100);
    expect_failure(reading(write_input("print.jpg", codectest::build_jpeg(cmyk))), kFailure,
                   "CMYK JPEG is not supported");
}

TEST_F(BadInput, TruncatedFileHeader)
{
    expect_rejected(truncated(valid_bmp(), 10), "file header truncated");
}

TEST_F(BadInput, TruncatedInfoHeader)
{
    expect_rejected(truncated(valid_bmp(), 30), "info header truncated");
}

TEST_F(BadInput, TruncatedV5Header)
{
    auto spec = valid_spec();
    spec.header_size = 124;
    expect_rejected(truncated(bmptest::build_bmp(spec), 100), "info header truncated");
}

TEST_F(BadInput, TruncatedBitFieldMasks)
{
    bmptest::BmpSpec spec;
    spec.bpp = 32;
    spec.compression = 3;
    spec.masks = {0xFF0000, 0xFF00, 0xFF};
    spec.values = {0x123456};
    expect_rejected(truncated(bmptest::build_bmp(spec), 14 + 40 + 6), "bit field masks truncated");
}

TEST_F(BadInput, TruncatedPalette)
{
    expect_rejected(truncated(bmptest::build_bmp(indexed_spec()), 14 + 40 + 100),
                    "palette truncated");
}

TEST_F(BadInput, TruncatedPixelData)
{
    const auto bytes = valid_bmp();
    expect_rejected(truncated(bytes, bytes.size() - 1), "pixel data truncated");
}

TEST_F(BadInput, HeadersWithoutPixels)
{
    expect_rejected(truncated(valid_bmp(), 14 + 40), "pixel data truncated");
}

// --- Dimensions. ---

TEST_F(BadInput, AbsurdWidth)
{
    auto bytes = valid_bmp();
    patch32(bytes, kWidthField, 100000);
    expect_rejected(bytes, "image too large");
}

TEST_F(BadInput, AbsurdPixelCount)
{
    // Each side within the limit, the product (3.6e9 pixels) far beyond it.
    auto bytes = valid_bmp();
    patch32(bytes, kWidthField, 60000);
    patch32(bytes, kHeightField, 60000);
    expect_rejected(bytes, "image too large");
}

TEST_F(BadInput, MostNegativeHeight)
{
    // -2^31: top-down rows, and a magnitude that does not fit int32.
    auto bytes = valid_bmp();
    patch32(bytes, kHeightField, 0x80000000u);
    expect_rejected(bytes, "image too large");
}

TEST_F(BadInput, NegativeWidth)
{
    auto bytes = valid_bmp();
    patch32(bytes, kWidthField, static_cast<std::uint32_t>(-19));
    expect_rejected(bytes, "invalid width -19");
}

TEST_F(BadInput, ZeroWidth)
{
    auto bytes = valid_bmp();
    patch32(bytes, kWidthField, 0);
    expect_rejected(bytes, "invalid width 0");
}

TEST_F(BadInput, ZeroHeight)
{
    auto bytes = valid_bmp();
    patch32(bytes, kHeightField, 0);
    expect_rejected(bytes, "invalid height 0");
}

// --- Where the pixels are. ---

TEST_F(BadInput, PixelOffsetPastTheEnd)
{
    auto bytes = valid_bmp();
    patch32(bytes, kOffsetField, static_cast<std::uint32_t>(bytes.size() + 1));
    expect_rejected(bytes, "past the end of the file");
}

TEST_F(BadInput, PixelOffsetInsideTheHeaders)
{
    auto bytes = valid_bmp();
    patch32(bytes, kOffsetField, 20);
    expect_rejected(bytes, "inside the headers");
}

// --- Layouts the reader does not support. ---

TEST_F(BadInput, BitDepth2)
{
    bmptest::BmpSpec spec;
    spec.bpp = 2;
    spec.palette = {0x000000, 0x555555, 0xAAAAAA, 0xFFFFFF};
    spec.values = {3};
    expect_rejected(bmptest::build_bmp(spec), "unsupported bit depth 2");
}

TEST_F(BadInput, BitDepth64)
{
    bmptest::BmpSpec spec;
    spec.bpp = 64;
    spec.values = {0xFFFFFF};
    expect_rejected(bmptest::build_bmp(spec), "unsupported bit depth 64");
}

TEST_F(BadInput, CompressionRle8)
{
    auto spec = indexed_spec();
    spec.compression = 1;
    expect_rejected(bmptest::build_bmp(spec), "RLE compression (BI_RLE8) is not supported");
}

TEST_F(BadInput, CompressionRle4)
{
    auto spec = indexed_spec();
    spec.bpp = 4;
    spec.palette.resize(16);
    spec.compression = 2;
    expect_rejected(bmptest::build_bmp(spec), "RLE compression (BI_RLE4) is not supported");
}

TEST_F(BadInput, CompressionJpeg)
{
    auto spec = valid_spec();
    spec.compression = 4;
    expect_rejected(bmptest::build_bmp(spec), "JPEG compression is not supported");
}

TEST_F(BadInput, CompressionPng)
{
    auto spec = valid_spec();
    spec.compression = 5;
    expect_rejected(bmptest::build_bmp(spec), "PNG compression is not supported");
}

TEST_F(BadInput, UnknownCompression)
{
    auto spec = valid_spec();
    spec.compression = 9;
    expect_rejected(bmptest::build_bmp(spec), "unsupported compression 9");
}

TEST_F(BadInput, Os2CoreHeader)
{
    auto bytes = valid_bmp();
    patch32(bytes, 14, 12);
    expect_rejected(bytes, "OS/2 BITMAPCOREHEADER");
}

TEST_F(BadInput, UnknownHeaderSize)
{
    auto bytes = valid_bmp();
    patch32(bytes, 14, 64);
    expect_rejected(bytes, "unsupported info header size 64");
}

TEST_F(BadInput, TwoPlanes)
{
    auto bytes = valid_bmp();
    bytes.at(kPlanesField) = 2;
    expect_rejected(bytes, "planes is 2");
}

TEST_F(BadInput, OverlappingBitFieldMasks)
{
    bmptest::BmpSpec spec;
    spec.bpp = 32;
    spec.compression = 3;
    spec.masks = {0xFF0000, 0xFFFF00, 0xFF};
    spec.values = {0x123456};
    expect_rejected(bmptest::build_bmp(spec), "bit field masks overlap");
}

TEST_F(BadInput, NonContiguousBitFieldMask)
{
    bmptest::BmpSpec spec;
    spec.bpp = 16;
    spec.compression = 3;
    spec.masks = {0xF00F, 0x07E0, 0x0010};
    spec.values = {0x1234};
    expect_rejected(bmptest::build_bmp(spec), "invalid red bit field mask");
}

TEST_F(BadInput, PaletteLargerThanTheDepthAllows)
{
    auto spec = indexed_spec();
    spec.colours_used = 300;
    expect_rejected(bmptest::build_bmp(spec), "palette has 300 colours");
}

TEST_F(BadInput, ColourIndexOutsideThePalette)
{
    auto spec = indexed_spec();
    spec.palette.resize(4);
    spec.colours_used = 4;
    expect_rejected(bmptest::build_bmp(spec), "uses colour index 7");
}

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

// A setting in the environment that is not a value it takes is a usage error, exit status 2, as a
// bad option is: the device's limits (SDK_MAX_*) exited 1 while the codecs' exited 2 (issue 47,
// item 8). Each names the variable and its value on one line, and nothing is written.
TEST_F(BadInput, MistypedSettingsAreUsageErrors)
{
    const auto arguments = reading(write_input("input.bmp", valid_bmp()));
    const std::vector<std::pair<const char*, const char*>> settings{
        {"SDK_MAX_ALLOC_BYTES", "12x"},
        {"SDK_MAX_LOCAL_MEM_BYTES", "0"},
        {"SDK_MAX_WORK_GROUP_SIZE", "-64"},
        {"SDK_MAX_KERNEL_WORK_GROUP_SIZE", "lots"},
        {"SDK_PNG_DEFLATE", "zlib"},
        {"SDK_JPEG_IDCT", "gpu"}};
    for (const auto& [variable, value] : settings) {
        SCOPED_TRACE(std::string(variable) + "=" + value);
        RunOptions options;
        options.environment[variable] = value;
        expect_failure(arguments, kUsageError, std::string(variable) + "='" + value + "'", options);
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
    expect_work_group_refused({"--work-group", "4096x2"}, kUsageError, "work-items a group", options);
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
        const Outcome outcome =
            run_program(program, {"-i", input.string(), "-o", (outputs_ / "result.bmp").string(),
                                  "--work-group", "8x4"},
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

// --coefficients @FILE (samples/fir_float/coefficients_file.hpp): every way a file can be wrong is one
// line and exit status 2; the pages' windows in assets/fir/ run from any folder.
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
    const std::vector<std::string> window{"--size", "15", "--coefficients", numerators_for(15),
                                          "--divisor", "50", "--work-group", "32x1"};
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
    const std::vector<std::string> box_15x15{"--size", "15", "--coefficients", box, "--divisor",
                                             "225", "--border", "none", "-n", "2"};
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
    EXPECT_NE(out.find("separable: 15x1 row sums into local memory, then 1x15 column sums, one kernel"),
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
            expect_verified({"--size", std::to_string(size), "--coefficients",
                             numerators_for(size), "--divisor", "50", "--border", border,
                             "--work-group", "8x4"});
}

// --- Where the output goes. ---

TEST_F(BadInput, OutputFolderDoesNotExist)
{
    const fs::path input = write_input("input.bmp", valid_bmp());
    const fs::path output = outputs_ / "no-such-folder" / "result.bmp";
    expect_failure({"-i", input.string(), "-o", output.string()}, kFailure, "does not exist");
}

TEST_F(BadInput, OutputPathIsAFolder)
{
    const fs::path input = write_input("input.bmp", valid_bmp());
    expect_failure({"-i", input.string(), "-o", outputs_.string()}, kFailure, "it is a folder");
}

TEST_F(BadInput, OutputIsADeviceNode)
{
    // Renaming over /dev/null would replace the device node itself (as root, destroy it).
    const fs::path input = write_input("input.bmp", valid_bmp());
    expect_failure({"-i", input.string(), "-o", "/dev/null"}, kFailure, "not a regular file");
    struct stat info {};
    ASSERT_EQ(::stat("/dev/null", &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode));
}

// The kernel sources beside the samples and the bundled photograph are what every run reads:
// `-o convert.cl` or `--trace sobel.cl` in build/bin replaced a kernel with an image or JSON, and
// no run of any sample built again (issue 38, item 14). Refused as the input is, left as they were.
TEST_F(BadInput, TheKernelSourcesAndTheBundledPhotoAreNotOutputs)
{
    const fs::path input = write_input("input.bmp", valid_bmp());
    const fs::path folder = sdk::executable_directory();
    for (const fs::path& kept : {folder / "convert.cl", folder / "sobel_16x1.cl", folder / "assets" / "input.bmp"}) {
        SCOPED_TRACE(kept);
        const std::string before = read_text(kept);
        if (kept.extension() == ".cl")  // not an image's name: refused before anything is looked at
            expect_failure({"-q", "-i", input.string(), "-o", kept.string()}, kUsageError,
                           "PNG (.png) or BMP (.bmp)");
        else
            expect_failure({"-q", "-i", input.string(), "-o", kept.string()}, kFailure,
                           "which every run of the samples reads");
        expect_failure({"-q", "-i", input.string(), "-o", (outputs_ / "result.bmp").string(), "--trace",
                        kept.string()},
                       kFailure, "which every run of the samples reads");
        EXPECT_EQ(read_text(kept), before);
    }
}

TEST_F(BadInput, RawFolderIsAFile)
{
    // Found before any work, so result.bmp is not written either.
    const fs::path input = write_input("input.bmp", valid_bmp());
    write_input("not-a-folder", {1, 2, 3});
    auto arguments = reading(input);
    arguments.insert(arguments.end(), {"--save-raw", (inputs_ / "not-a-folder").string()});
    expect_failure(arguments, kFailure, "cannot create the folder");
}

TEST_F(BadInput, RawFileWouldReplaceTheInput)
{
    // luminance.npy is one of every sample's raw files; here it is the input's name.
    const fs::path input = write_input("luminance.npy", valid_bmp());
    auto arguments = reading(input);
    arguments.insert(arguments.end(), {"--save-raw", inputs_.string()});
    expect_failure(arguments, kFailure, "refusing to write");
}

TEST_F(BadInput, OneUnwritableOutputKeepsEveryPreviousFile)
{
    // The set's last file cannot be written (a folder stands where it would go): the run fails
    // before any work and the earlier result.bmp from a previous run stays as it was.
    const fs::path input = write_input("input.bmp", valid_bmp());
    write_file_atomically_text(outputs_ / "result.bmp", "previous run");
    fs::create_directories(outputs_ / "raw" / "luminance.npy");
    auto arguments = reading(input);
    arguments.insert(arguments.end(), {"--save-raw", (outputs_ / "raw").string()});
    expect_failure(arguments, kFailure, "it is a folder");
}

TEST_F(BadInput, OutputIsTheInput)
{
    write_input("x.bmp", valid_bmp());
    expect_failure({"-i", "x.bmp", "-o", "x.bmp"}, kFailure, "refusing to write");
}

TEST_F(BadInput, OutputIsTheInputSpelledWithDotSlash)
{
    write_input("x.bmp", valid_bmp());
    expect_failure({"-i", "./x.bmp", "-o", "x.bmp"}, kFailure, "refusing to write");
}

TEST_F(BadInput, OutputIsTheInputSpelledAbsolute)
{
    const fs::path input = write_input("x.bmp", valid_bmp());
    expect_failure({"-i", "x.bmp", "-o", input.string()}, kFailure, "refusing to write");
}

TEST_F(BadInput, OutputIsTheInputSpelledThroughParent)
{
    write_input("x.bmp", valid_bmp());
    expect_failure({"-i", "x.bmp", "-o", "../inputs/x.bmp"}, kFailure, "refusing to write");
}

TEST_F(BadInput, OutputIsALinkToTheInput)
{
    write_input("x.bmp", valid_bmp());
    fs::create_symlink("x.bmp", inputs_ / "link.bmp");
    expect_failure({"-i", "x.bmp", "-o", "link.bmp"}, kFailure, "refusing to write");
}

// --- Inputs that never end or declare more than they hold: refused at once, in little memory. ---

TEST_F(BadInput, EndlessInputsAreRefusedAtOnce)
{
    for (const char* endless : {"/dev/zero", "/dev/urandom"}) {
        SCOPED_TRACE(endless);
        for (const fs::path& program : samples_) {
            const Outcome outcome = run_program(program, reading(endless), inputs_, logs_);
            EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how << outcome.err;
            EXPECT_NE(outcome.err.find("not a regular file"), std::string::npos) << outcome.err;
            EXPECT_LT(outcome.peak_memory_kb, 512 * 1024) << program.filename() << " read it";
        }
    }
}

TEST_F(BadInput, InputIsAFifoWithNoWriter)
{
    ASSERT_EQ(::mkfifo((inputs_ / "fifo.bmp").c_str(), 0600), 0);
    expect_failure(reading(inputs_ / "fifo.bmp"), kFailure, "FIFO");
}

TEST_F(BadInput, HugeDeclaredSizeOverASparseFile)
{
    // 30000x30000 (2.7 GB of pixels) declared, and the file really that long, but sparse: the
    // header alone refuses it, nothing of the 2.7 GB is read.
    auto bytes = valid_bmp();
    patch32(bytes, kWidthField, 30000);
    patch32(bytes, kHeightField, 30000);
    const fs::path input = write_input("huge.bmp", bytes);
    fs::resize_file(input, 54 + std::uint64_t{30000} * 90000);
    for (const fs::path& program : samples_) {
        const Outcome outcome = run_program(program, reading(input), inputs_, logs_);
        EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how << outcome.err;
        EXPECT_NE(outcome.err.find("image too large"), std::string::npos) << outcome.err;
        EXPECT_LT(outcome.peak_memory_kb, 512 * 1024) << program.filename();
    }
}

// PoCL lists no device when its cache folder cannot be made; the error says so.
TEST_F(BadInput, CacheHomeThatIsAFileIsNamed)
{
    const fs::path input = write_input("input.bmp", valid_bmp());
    const fs::path not_a_folder = write_input("cache-file", {1});
    const char* previous = std::getenv("XDG_CACHE_HOME");
    const std::string saved = previous ? previous : "";
    ::setenv("XDG_CACHE_HOME", not_a_folder.c_str(), 1);
    const Outcome outcome = run_program(samples_.front(), reading(input), inputs_, logs_);
    if (previous) ::setenv("XDG_CACHE_HOME", saved.c_str(), 1); else ::unsetenv("XDG_CACHE_HOME");
    if (outcome.exited && outcome.status == 0)
        GTEST_SKIP() << "a device other than PoCL ran: nothing to name";
    EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how;
    EXPECT_NE(outcome.err.find("is not a folder"), std::string::npos) << outcome.err;
    EXPECT_EQ(count_lines(outcome.err), 1u) << outcome.err;
}

// --- Output sets: all files of a run in place together, or none. ---

// A random colour image, different for each seed.
std::vector<std::uint8_t> random_bmp(int width, int height, unsigned seed)
{
    bmptest::BmpSpec spec;
    spec.width = width;
    spec.height = height;
    std::uint32_t state = seed * 2654435761u + 1;
    for (int i = 0; i < width * height; ++i) {
        state = state * 1664525u + 1013904223u;
        spec.values.push_back(state >> 8);
    }
    return bmptest::build_bmp(spec);
}

class OutputSets : public EndToEnd {
protected:
    // The files `sobel -o result.bmp --save-gradients --save-raw raw` writes, with contents.
    Snapshot result_set() const
    {
        Snapshot files;
        add_to_snapshot(files, outputs_, logs_);
        return files;
    }
    std::vector<std::string> sobel_set_arguments(const fs::path& input) const
    {
        return {"-i", input.string(), "-o", (outputs_ / "result.bmp").string(),
                "--save-gradients", "--save-raw", (outputs_ / "raw").string(), "-q"};
    }
    // Runs sobel alone on `input` and returns the set it writes (outputs_ emptied first).
    Snapshot set_written_from(const fs::path& input)
    {
        fs::remove_all(outputs_);
        fs::create_directory(outputs_);
        const Outcome outcome = run_program(program("sobel"), sobel_set_arguments(input), inputs_, logs_);
        EXPECT_TRUE(outcome.exited && outcome.status == 0) << outcome.how << outcome.err;
        return result_set();
    }
};

TEST_F(OutputSets, AWriteFailingOnTheLastFileKeepsThePreviousSet)
{
    // fir_float on 300x200: output.bmp is 61 kB, then raw/output.npy (floats) 240 kB; with files
    // limited to 100 kB (as a disk filling up) the raw file fails after the image was written.
    // (The other samples' files are all about the same size.)
    const fs::path input = write_input("photo.bmp", random_bmp(300, 200, 1));
    for (const char* name : {"fir_float"}) {
        SCOPED_TRACE(name);
        sdk::write_file_atomically(outputs_ / "result.bmp", valid_bmp().data(), valid_bmp().size());
        const Snapshot before = snapshot();
        RunOptions limited;
        limited.file_size_limit = 100000;
        std::vector<std::string> arguments = {"-i", input.string(), "-o", (outputs_ / "result.bmp").string(),
                                              "--save-raw", (outputs_ / "raw").string()};
        const Outcome outcome = run_program(program(name), arguments, inputs_, logs_, limited);
        EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how << outcome.err;
        EXPECT_EQ(count_lines(outcome.err), 1u) << outcome.err;
        EXPECT_NE(outcome.err.find("File too large"), std::string::npos) << outcome.err;
        EXPECT_EQ(differences(before, snapshot()), "");
    }
}

TEST_F(OutputSets, StoppedAtAnyMomentTheSetIsWhollyOldOrWhollyNew)
{
    const fs::path old_input = write_input("old.bmp", random_bmp(640, 480, 2));
    const fs::path new_input = write_input("new.bmp", random_bmp(640, 480, 3));
    const Snapshot new_set = set_written_from(new_input);
    const Snapshot old_set = set_written_from(old_input);
    ASSERT_EQ(new_set.size(), 8u);  // result, -dX, -dY, raw/ and its four files
    ASSERT_NE(old_set, new_set);
    int stopped = 0;
    for (int delay_ms = 0; delay_ms <= 600; delay_ms += 30) {
        for (const int signal_number : {SIGINT, SIGTERM}) {
            SCOPED_TRACE("signal " + std::to_string(signal_number) + " after " + std::to_string(delay_ms) + " ms");
            const Started run = start_program(program("sobel"), sobel_set_arguments(new_input), inputs_, logs_);
            std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
            ::kill(run.pid, signal_number);
            const Outcome outcome = wait_for(run);
            EXPECT_TRUE(outcome.exited ? outcome.status == 0 : outcome.signal == signal_number) << outcome.how;
            const Snapshot now = result_set();
            EXPECT_TRUE(now == old_set || now == new_set)
                << "a mixed or incomplete set; against the old set:" << differences(old_set, now)
                << " against the new set:" << differences(new_set, now) << " (" << outcome.how
                << ", stdout: " << outcome.out << ", stderr: " << outcome.err << ")";
            if (!outcome.exited) ++stopped;
            if (now == new_set) {  // put the old set back for the next round
                const Outcome restore = run_program(program("sobel"), sobel_set_arguments(old_input), inputs_, logs_);
                ASSERT_TRUE(restore.exited && restore.status == 0) << restore.err;
            }
        }
    }
    EXPECT_GT(stopped, 0) << "no run was stopped: the test did not test anything";
}

// The names of temporaries left anywhere under `folder` (".NAME.tmp-XXXXXX" and its backups).
std::vector<std::string> temporaries_under(const fs::path& folder)
{
    std::vector<std::string> names;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (name.find(".tmp-") != std::string::npos) names.push_back(name);
    }
    return names;
}

// The folders left empty anywhere under `folder`: one a stopped run made for its outputs
// (--save-raw's) and never filled.
std::vector<std::string> empty_folders_under(const fs::path& folder)
{
    std::vector<std::string> names;
    for (const auto& entry : fs::recursive_directory_iterator(folder)) {
        if (entry.is_directory() && fs::is_empty(entry.path())) names.push_back(entry.path().filename().string());
    }
    return names;
}

// Where PoCL keeps its kernel binaries for this test process (its own rules), so that a child
// given a fresh XDG_CACHE_HOME still finds them.
fs::path pocl_kernel_cache()
{
    if (const char* folder = std::getenv("POCL_CACHE_DIR"); folder && *folder) return folder;
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "pocl" / "kcache";
    const char* home = std::getenv("HOME");
    return fs::path(home ? home : "/tmp") / ".cache" / "pocl" / "kcache";
}

class StoppedRuns : public OutputSets {
protected:
    // Runs `sample` once to measure it, then `moments` times more, each stopped by the next of
    // SIGINT, SIGTERM and SIGABRT at a moment spread evenly over that length, and checks that
    // no temporary is left. Every run starts with empty caches of its own (the SDK's programs
    // and tuning, and with `cold_driver` PoCL's binaries too), so each replays the measured
    // timeline: the driver's start, program builds, the tuner, kernels, writes, commit.
    void stop_at_moments(const fs::path& sample, int moments, bool cold_driver)
    {
        const std::string name = sample.filename().string();
        const std::vector<std::string> arguments = {
            "-i", input_.string(), "-o", (outputs_ / "result.bmp").string(), "--save-raw",
            (outputs_ / "made" / "raw").string(), "--trace", (outputs_ / "trace.json").string(), "-q"};
        int runs = 0;
        const auto fresh_caches = [&] {
            const fs::path cache = root_ / ("cache-" + std::to_string(runs++));
            RunOptions options;
            options.environment = {{"XDG_CACHE_HOME", cache.string()},
                                   {"POCL_CACHE_DIR", (cold_driver ? cache / "pocl" : pocl_kernel_cache()).string()}};
            return options;
        };
        // The shorter of two whole runs: a neighbour test may slow one down.
        auto length = std::chrono::steady_clock::duration::max();
        for (int run = 0; run < 2; ++run) {
            const auto start = std::chrono::steady_clock::now();
            const Outcome whole = run_program(sample, arguments, inputs_, logs_, fresh_caches());
            length = std::min(length, std::chrono::steady_clock::now() - start);
            ASSERT_TRUE(whole.exited && whole.status == 0) << name << ": " << whole.err;
            fs::remove_all(outputs_);
            fs::create_directory(outputs_);
        }
        const int signals[] = {SIGINT, SIGTERM, SIGABRT};
        int stopped = 0;
        for (int moment = 0; moment < moments; ++moment) {
            const int signal_number = signals[moment % 3];
            // Spread over the first 90% of the measured run: a loaded machine (CI runs tests side
            // by side) may finish a later run sooner than the measured one.
            const auto delay = length * 0.9 * (moment + 0.5) / moments;
            SCOPED_TRACE(name + ", signal " + std::to_string(signal_number) + " after " +
                         std::to_string(std::chrono::duration<double, std::milli>(delay).count()) + " ms");
            const Started run = start_program(sample, arguments, inputs_, logs_, fresh_caches());
            std::this_thread::sleep_for(delay);
            ::kill(run.pid, signal_number);
            const Outcome outcome = wait_for(run);
            EXPECT_TRUE(outcome.exited ? outcome.status == 0 : outcome.signal == signal_number)
                << outcome.how << ": " << outcome.err;
            EXPECT_EQ(temporaries_under(outputs_), std::vector<std::string>{}) << outcome.how;
            EXPECT_EQ(empty_folders_under(outputs_), std::vector<std::string>{}) << outcome.how;
            // Nothing crashed: no compiler's crash report (LLVM's, in Intel's CPU runtime).
            EXPECT_EQ(outcome.err.find("Stack dump"), std::string::npos) << outcome.err;
            fs::remove_all(outputs_);  // what one run left must not fail the next
            fs::create_directory(outputs_);
            if (!outcome.exited) ++stopped;
        }
        EXPECT_GE(stopped, 2) << name << ": too few runs were stopped to test anything";
    }

    void SetUp() override
    {
        OutputSets::SetUp();
        const struct rlimit no_core {0, 0};  // the aborts' core dumps are not wanted
        ::setrlimit(RLIMIT_CORE, &no_core);
        input_ = write_input("photo.bmp", random_bmp(1024, 768, 6));
    }

    fs::path input_;
};

// Every sample, stopped by SIGINT, SIGTERM or an abort at any moment, leaves no temporary. Seen
// before: 7 of 30 runs of an 8192x8192 sobel_no_vectors stopped after the driver had installed
// its own handlers (PoCL's LLVM, when first asked for devices) left ".out.bmp.tmp-*"; an abort
// before then left them too, and one after was swallowed by the driver's handler (the run went
// on to the end).
TEST_F(StoppedRuns, EverySampleStoppedAtAnyMomentLeavesNoTemporary)
{
    for (const fs::path& sample : samples_) stop_at_moments(sample, 12, false);
}

// The same while the driver compiles (its compiler's handlers in place): one sample suffices,
// a cold build being seconds.
TEST_F(StoppedRuns, StoppedWhileTheDriverCompilesLeavesNoTemporary)
{
    stop_at_moments(program("sobel_no_vectors"), 3, true);
}

// When PoCL cannot write its kernel cache (a full disk, or here a file size limit) it ends the
// process itself: LLVM's "IO failure on output stream" and exit(1). The temporaries reserved
// beside the outputs went with nothing to remove them, one more set a run.
TEST_F(OutputSets, AnExitInsideTheDriverLeavesNoTemporary)
{
    const fs::path input = write_input("photo.bmp", random_bmp(48, 32, 7));
    for (const fs::path& sample : samples_) {
        const std::string name = sample.filename().string();
        SCOPED_TRACE(name);
        const fs::path cache = root_ / ("cache-" + name);  // empty: every kernel is built and written
        RunOptions limited;
        limited.file_size_limit = 65536;  // the outputs fit, a kernel's binary does not
        limited.environment = {{"XDG_CACHE_HOME", cache.string()}, {"POCL_CACHE_DIR", (cache / "pocl").string()}};
        const Outcome outcome = run_program(
            sample, {"-i", input.string(), "-o", (outputs_ / "result.bmp").string(), "-q"}, inputs_, logs_, limited);
        if (outcome.exited && outcome.status == 0)
            GTEST_SKIP() << "the device wrote no file past the limit (not PoCL): nothing to test";
        EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how << ": " << outcome.err;
        EXPECT_EQ(temporaries_under(outputs_), std::vector<std::string>{});
        std::istringstream lines(outcome.err);
        int ours = 0;  // LLVM's own line may come before
        for (std::string line; std::getline(lines, line);) ours += line.rfind(name + ": ", 0) == 0;
        EXPECT_EQ(ours, 1) << outcome.err;
    }
}

TEST_F(OutputSets, TwoRunsAtOnceLeaveOneWholeSet)
{
    const fs::path first = write_input("first.bmp", random_bmp(640, 480, 4));
    const fs::path second = write_input("second.bmp", random_bmp(640, 480, 5));
    const Snapshot first_set = set_written_from(first);
    const Snapshot second_set = set_written_from(second);
    const fs::path other_logs = root_ / "other-logs";
    fs::create_directory(other_logs);
    for (int round = 0; round < 4; ++round) {
        const Started a = start_program(program("sobel"), sobel_set_arguments(first), inputs_, logs_);
        const Started b = start_program(program("sobel"), sobel_set_arguments(second), inputs_, other_logs);
        const Outcome done_a = wait_for(a);
        const Outcome done_b = wait_for(b);
        EXPECT_TRUE(done_a.exited && done_a.status == 0) << done_a.err;
        EXPECT_TRUE(done_b.exited && done_b.status == 0) << done_b.err;
        const Snapshot now = result_set();
        EXPECT_TRUE(now == first_set || now == second_set) << "round " << round << ": a mixed set";
    }
}

}  // namespace
