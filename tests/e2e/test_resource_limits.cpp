// SPDX-License-Identifier: Apache-2.0
// End to end: a sample run under a tight `ulimit -n` or `ulimit -v` must name that cause in its one
// line: out of file descriptors, or out of memory with the limit, and where it knows them the
// bytes asked for and what for. Not "no OpenCL platform found: install a driver" when the driver
// is installed but could not be opened, not "std::bad_alloc". The limits are set in the child
// (RunOptions) before it starts, as the shell's ulimit does.
#include "child_process.hpp"
#include "common/imageio/file_io.hpp"
#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

class ResourceLimits : public ::testing::Test {
protected:
    void SetUp() override
    {
        // AddressSanitizer reserves terabytes of address space for its shadow memory and opens
        // files of its own as it starts: a sanitized sample cannot start under these limits.
        if (kSanitized) GTEST_SKIP() << "a sanitized build cannot run under ulimit -n or -v";
        std::string pattern = (fs::temp_directory_path() / "resource-limits-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        root_ = pattern;
    }
    void TearDown() override
    {
        std::error_code ignored;
        if (!root_.empty()) fs::remove_all(root_, ignored);
    }

    Outcome sobel(const std::vector<std::string>& extra, const RunOptions& options)
    {
        std::vector<std::string> arguments{"-o", (root_ / "output.bmp").string(), "--variant",
                                           "16x1", "-q"};
        arguments.insert(arguments.end(), extra.begin(), extra.end());
        return run_program(sdk::executable_directory() / "sobel", arguments, root_, root_, options);
    }

    // A 24-bit BMP of `width` x `height` whose pixel rows are a hole in the file (all zero): as
    // large as a photograph to the sample, written in no time.
    fs::path sparse_bmp(std::uint32_t width, std::uint32_t height)
    {
        const std::uint32_t stride = (3 * width + 3) / 4 * 4;
        const std::uint64_t size = 54 + std::uint64_t{stride} * height;
        std::vector<std::uint8_t> header;
        const auto put = [&](std::uint64_t value, int bytes) {
            for (int i = 0; i < bytes; ++i)
                header.push_back(static_cast<std::uint8_t>(value >> (8 * i)));
        };
        header = {'B', 'M'};
        put(size, 4), put(0, 4), put(54, 4);                     // file header
        put(40, 4), put(width, 4), put(height, 4), put(1, 2);    // info header: size, planes
        put(24, 2), put(0, 4), put(size - 54, 4), put(2835, 4);  // bits, BI_RGB, bytes, dpi
        put(2835, 4), put(0, 4), put(0, 4);
        const fs::path path = root_ / "large.bmp";
        sdk::write_file_atomically(path, header.data(), header.size());
        fs::resize_file(path, size);
        return path;
    }

    // The least address space, to the MiB, in which sobel runs the bundled image (its output
    // removed again): what the
    // driver needs to start (PoCL: its libraries, and a stack and a heap block for each core's
    // thread) and the run on top. 0 when it needs more than 4 GiB (a GPU driver reserves more).
    std::uint64_t smallest_address_space_that_runs(RunOptions options)
    {
        std::uint64_t fails = 64, runs = 4096;  // MiB
        options.address_space_bytes = runs << 20;
        if (sobel({}, options).status != 0) return 0;
        while (runs - fails > 1) {
            const std::uint64_t middle = (fails + runs) / 2;
            options.address_space_bytes = middle << 20;
            (sobel({}, options).status == 0 ? runs : fails) = middle;
        }
        fs::remove(root_ / "output.bmp");  // the runs' output, not the test's
        return runs << 20;
    }

    fs::path root_;
};

std::size_t lines(const std::string& text)
{
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

bool has(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

// Which open runs out first depends on the order of the run (the drivers start first, then the
// outputs are reserved, the input, the kernel files...): each limit from too few to open the
// input to enough to run is tried. Every failure must name the descriptors, never a missing
// driver or file; when it is the loader's turn that fails, its line says how many were open.
TEST_F(ResourceLimits, OutOfFileDescriptorsIsNamedNotAMissingDriver)
{
    // Programs built and cached first: building one from source opens more files (the driver's
    // compiler), and its failure under the limit would be the compiler's, not this test's.
    const Outcome warm = sobel({}, {});
    ASSERT_TRUE(warm.exited && warm.status == 0) << warm.how << ": " << warm.err;
    int failures = 0;
    for (std::uint64_t limit = 4; limit <= 12; ++limit) {
        RunOptions options;
        options.open_files_limit = limit;
        const Outcome outcome = sobel({}, options);
        SCOPED_TRACE("ulimit -n " + std::to_string(limit) + ": " + outcome.err);
        ASSERT_TRUE(outcome.exited) << outcome.how;
        if (outcome.status == 0) break;
        ++failures;
        EXPECT_EQ(outcome.status, kFailure);
        EXPECT_EQ(lines(outcome.err), 1u);
        EXPECT_FALSE(has(outcome.err, "install a driver"));
        EXPECT_FALSE(has(outcome.err, "should sit next to the executable"));
        EXPECT_TRUE(has(outcome.err, "Too many open files") || has(outcome.err, "(ulimit -n)"));
        if (has(outcome.err, "no OpenCL platform found")) {
            EXPECT_TRUE(has(outcome.err, "out of file descriptors") ||
                        has(outcome.err, "loads but reports no platform"));
            EXPECT_TRUE(has(outcome.err, "files open at once (ulimit -n)"));
        }
    }
    EXPECT_GE(failures, 2) << "the lowest limits should have failed";
}

// PoCL's libraries (LLVM among them) do not fit in 150 MB of address space.
TEST_F(ResourceLimits, ADriverTooLargeForTheAddressSpaceIsNamed)
{
    RunOptions options;
    options.address_space_bytes = 150'000 * 1024;
    const Outcome outcome = sobel({}, options);
    EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how;
    EXPECT_EQ(lines(outcome.err), 1u) << outcome.err;
    EXPECT_TRUE(has(outcome.err, "sobel: no OpenCL platform found")) << outcome.err;
    // PoCL's libraries fail to map; a GPU driver (NVIDIA's) loads and then finds no platform.
    EXPECT_TRUE(has(outcome.err, "out of memory loading the driver") ||
                has(outcome.err, "loads but reports no platform"))
        << outcome.err;
    EXPECT_TRUE(has(outcome.err, "limited to 150000 KiB (ulimit -v)")) << outcome.err;
    EXPECT_FALSE(has(outcome.err, "install a driver")) << outcome.err;
}

// Room for the driver and the bundled image, not for an 8000x8000 image's buffers: the line names
// the buffer that failed (the driver's, or with --memory copy the host's staging), its bytes and
// the limit; with --verify the host's copies fail first, a C++ allocation no step names, which is
// still said as memory and its limit, not "std::bad_alloc". The limit is measured, not fixed:
// what PoCL needs to start grows with the machine's cores.
TEST_F(ResourceLimits, AnImageTooLargeForTheAddressSpaceNamesMemory)
{
    const std::uint64_t runs = smallest_address_space_that_runs({});
    if (runs == 0) GTEST_SKIP() << "the driver needs more than 4 GiB of address space to start";
    const fs::path input = sparse_bmp(8000, 8000);
    RunOptions options;
    options.address_space_bytes = runs + (std::uint64_t{48} << 20);
    const std::string limit =
        "limited to " + std::to_string(options.address_space_bytes / 1024) + " KiB (ulimit -v)";
    for (const std::vector<std::string>& extra :
         {std::vector<std::string>{"-i", input.string()},
          {"-i", input.string(), "--memory", "copy"},  // host staging, not the driver's
          {"-i", input.string(), "--verify"}}) {
        const Outcome outcome = sobel(extra, options);
        SCOPED_TRACE(extra.back() + ": " + outcome.err);
        EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how;
        EXPECT_EQ(lines(outcome.err), 1u);
        EXPECT_FALSE(has(outcome.err, "bad_alloc"));
        EXPECT_TRUE(has(outcome.err, limit));
        if (extra.back() != "--verify") {
            // The buffer that failed, the step whose driver call ran out, or, for an allocation
            // inside the driver that no step wraps, memory and the limit alone.
            EXPECT_TRUE(has(outcome.err, "-byte buffer for ") || has(outcome.err, " bytes for ") ||
                        has(outcome.err, "while ") || has(outcome.err, "out of memory"))
                << outcome.err;
        }
        EXPECT_FALSE(fs::exists(root_ / "output.bmp"));
    }
}

// Just under what a run needs, the driver would be asked to build with almost no room left, and
// PoCL and LLVM do not check all of their allocations there (a segmentation fault loading a
// cached binary, an abort compiling). The SDK asks for room first (require_address_space), so
// the run ends in one line naming memory and the limit: with the programs cached, and compiling
// them (a process's first compile needs LLVM's ~130 MiB).
TEST_F(ResourceLimits, JustTooLittleAddressSpaceEndsInALineNotASignal)
{
    const Outcome warm = sobel({}, {});
    ASSERT_TRUE(warm.exited && warm.status == 0) << warm.how << ": " << warm.err;
    ASSERT_TRUE(fs::remove(root_ / "output.bmp"));
    for (const bool cached : {true, false}) {
        RunOptions options;
        if (!cached) options.environment = {{"SDK_PROGRAM_CACHE", "0"}, {"POCL_KERNEL_CACHE", "0"}};
        const std::uint64_t runs = smallest_address_space_that_runs(options);
        if (runs == 0) GTEST_SKIP() << "the driver needs more than 4 GiB of address space to start";
        for (const std::uint64_t short_by : {1, 4, 8}) {
            options.address_space_bytes = runs - (short_by << 20);
            const Outcome outcome = sobel({}, options);
            SCOPED_TRACE((cached ? "cached, " : "compiling, ") + std::to_string(short_by) +
                         " MiB short: " + outcome.err);
            EXPECT_TRUE(outcome.exited && outcome.status == kFailure) << outcome.how;
            EXPECT_EQ(lines(outcome.err), 1u);
            EXPECT_TRUE(has(outcome.err, "out of memory"));
            EXPECT_TRUE(has(outcome.err, "limited to " +
                                             std::to_string(options.address_space_bytes / 1024) +
                                             " KiB (ulimit -v)"));
            EXPECT_FALSE(fs::exists(root_ / "output.bmp"));
        }
    }
}

// Without limits: an .icd file whose library cannot be loaded is named with the loader's reason,
// and a folder with no .icd file says so; both are one line and exit 1.
// --floor with room for the output but not for the floor's scratch copy beside it (a small tmpfs,
// so root only): the output is committed first, so the floor's failure is a note and the exit
// status 0 (issue 38, item 12: exit 1 told a script the output was not written).
TEST_F(ResourceLimits, AFloorWithoutRoomIsANoteAfterTheOutputIsWritten)
{
    const std::vector<std::string> arguments{"--floor", "-o", "output.bmp", "--variant", "16x1"};
    const Outcome unbounded =
        run_program(sdk::executable_directory() / "sobel", arguments, root_, root_);
    ASSERT_TRUE(unbounded.exited && unbounded.status == 0)
        << unbounded.how << ": " << unbounded.err;
    const std::uintmax_t output_bytes = fs::file_size(root_ / "output.bmp");
    const fs::path small = root_ / "small";
    fs::create_directory(small);
    // Room for the output and half of it again: the floor's copy of its bytes does not fit.
    const std::string size = "size=" + std::to_string((output_bytes * 3 / 2 + 4095) / 4096 * 4096);
    if (::geteuid() != 0 || ::mount("tmpfs", small.c_str(), "tmpfs", 0, size.c_str()) != 0)
        GTEST_SKIP() << "needs root to mount a small tmpfs";
    struct Unmount {
        fs::path at;
        ~Unmount() { ::umount(at.c_str()); }
    } unmount{small};
    const fs::path logs = root_ / "logs";
    fs::create_directory(logs);
    const Outcome outcome =
        run_program(sdk::executable_directory() / "sobel", arguments, small, logs);
    EXPECT_TRUE(outcome.exited && outcome.status == 0) << outcome.how << ": " << outcome.err;
    EXPECT_NE(
        outcome.out.find("Floor not measured (the output is written): cannot measure the floor"),
        std::string::npos)
        << outcome.out;
    EXPECT_EQ(fs::file_size(small / "output.bmp"), output_bytes);
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(small)) ++files;
    EXPECT_EQ(files, 1u) << "the floor's scratch copy was left";
}

TEST(MissingPlatform, ADriverThatCannotBeLoadedIsNamed)
{
    const fs::path folder =
        fs::temp_directory_path() / ("missing-platform-" + std::to_string(::getpid()));
    fs::create_directories(folder / "vendors");
    const std::string no_driver = "libno-such-opencl-driver.so";
    std::ofstream(folder / "vendors" / "broken.icd") << no_driver << "\n";
    fs::create_directories(folder / "empty");
    const auto run_with_vendors = [&](const fs::path& vendors) {
        RunOptions options;
        options.environment["OCL_ICD_VENDORS"] = vendors.string();
        return run_program(sdk::executable_directory() / "sobel", {"--list-devices"}, folder,
                           folder, options);
    };

    const Outcome broken = run_with_vendors(folder / "vendors");
    EXPECT_TRUE(broken.exited && broken.status == kFailure) << broken.how;
    EXPECT_EQ(lines(broken.err), 1u) << broken.err;
    EXPECT_TRUE(has(broken.err, "the driver " + no_driver + " (named in ")) << broken.err;
    EXPECT_TRUE(has(broken.err, "cannot be loaded")) << broken.err;

    const Outcome empty = run_with_vendors(folder / "empty");
    EXPECT_TRUE(empty.exited && empty.status == kFailure) << empty.how;
    EXPECT_EQ(lines(empty.err), 1u) << empty.err;
    EXPECT_TRUE(has(empty.err, "install a driver")) << empty.err;
    EXPECT_TRUE(has(empty.err, "names no .icd file")) << empty.err;
    fs::remove_all(folder);
}

}  // namespace
