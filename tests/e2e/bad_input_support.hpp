// SPDX-License-Identifier: Apache-2.0
#pragma once
// What the bad-input end-to-end tests share (test_good_input.cpp, test_bad_images.cpp,
// test_bad_options.cpp, test_bad_settings.cpp, test_output_safety.cpp): the samples under
// test, BMP bytes to patch, folder snapshots, and the EndToEnd fixture that runs every sample
// and checks one stderr line, the exit status and that no file changed. In a named namespace:
// GoogleTest requires every test of a suite (BadInput's are in several files) to share one
// fixture class.
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

namespace e2etest::bad_input {

// The executables under test, every one that samples/CMakeLists.txt adds with add_sample:
// every case runs each of them, and one that is missing fails the suite.
inline std::vector<fs::path> samples_under_test()
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

inline void add_to_snapshot(Snapshot& snapshot, const fs::path& folder, const fs::path& skip)
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

inline std::string differences(const Snapshot& before, const Snapshot& after)
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

inline void patch32(std::vector<std::uint8_t>& bytes, std::size_t offset, std::uint32_t value)
{
    for (std::size_t i = 0; i < 4; ++i) {
        bytes.at(offset + i) = static_cast<std::uint8_t>(value >> (8 * i));
    }
}

// A small valid colour image; odd width, so rows are padded.
inline bmptest::BmpSpec valid_spec()
{
    bmptest::BmpSpec spec;
    spec.width = 19;
    spec.height = 7;
    for (std::uint32_t i = 0; i < 19 * 7; ++i) {
        spec.values.push_back((i * 2654435761u) & 0xFFFFFF);
    }
    return spec;
}

inline std::vector<std::uint8_t> valid_bmp()
{
    return bmptest::build_bmp(valid_spec());
}

inline std::vector<std::uint8_t> truncated(std::vector<std::uint8_t> bytes, std::size_t size)
{
    bytes.resize(size);
    return bytes;
}

// An 8-bit palettised image with a full grey palette.
inline bmptest::BmpSpec indexed_spec()
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

inline void write_file_atomically_text(const fs::path& path, const std::string& text)
{
    sdk::write_file_atomically(path, reinterpret_cast<const std::uint8_t*>(text.data()),
                               text.size());
}

class BadInput : public EndToEnd {};

// A run that succeeded: exit status 0 and nothing on stderr.
inline void expect_success(const Outcome& outcome)
{
    EXPECT_TRUE(outcome.exited && outcome.status == 0)
        << outcome.how << "; stderr: " << outcome.err << "\nstdout: " << outcome.out;
    EXPECT_EQ(outcome.err, "");
}

}  // namespace e2etest::bad_input
