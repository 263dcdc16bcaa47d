// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/file_io.hpp"
#include "imageio_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <csignal>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

// Each test works in a fresh private folder (folder_), removed afterwards.
class FileIo : public decodetest::FolderTest {
protected:
    std::vector<std::string> entries() const
    {
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(folder_)) {
            names.push_back(entry.path().filename().string());
        }
        std::sort(names.begin(), names.end());
        return names;
    }

    void write_text(const fs::path& path, const std::string& text) const
    {
        std::ofstream(path, std::ios::binary) << text;
    }
};

std::string message_of(const std::function<void()>& action)
{
    try {
        action();
    } catch (const sdk::FileError& error) {
        return error.what();
    }
    return "<no FileError>";
}

TEST_F(FileIo, ReadsWholeFile)
{
    Bytes content(200000);
    for (std::size_t i = 0; i < content.size(); ++i) {
        content[i] = static_cast<std::uint8_t>(i * 7);
    }
    std::ofstream(folder_ / "data.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(content.data()),
               static_cast<std::streamsize>(content.size()));
    EXPECT_EQ(sdk::read_file(folder_ / "data.bin"), content);

    write_text(folder_ / "empty", "");
    EXPECT_TRUE(sdk::read_file(folder_ / "empty").empty());
}

TEST_F(FileIo, ReadErrorsNameFileAndReason)
{
    const fs::path missing = folder_ / "x";
    EXPECT_EQ(message_of([&] { sdk::read_file(missing); }),
              "cannot open '" + missing.string() + "': No such file or directory");
    EXPECT_EQ(message_of([&] { sdk::read_file(folder_); }),
              "cannot read '" + folder_.string() + "': Is a directory");
}

TEST_F(FileIo, AtomicWriteCreatesAndReplaces)
{
    const fs::path target = folder_ / "out.bin";
    const Bytes first = {1, 2, 3};
    sdk::write_file_atomically(target, first.data(), first.size());
    EXPECT_EQ(sdk::read_file(target), first);

    const Bytes second = {9};
    sdk::write_file_atomically(target, second.data(), second.size());
    EXPECT_EQ(sdk::read_file(target), second);

    sdk::write_file_atomically(target, nullptr, 0);
    EXPECT_TRUE(sdk::read_file(target).empty());
    EXPECT_EQ(entries(), std::vector<std::string>{"out.bin"});  // no temporary left behind
}

TEST_F(FileIo, AtomicWriteGivesUsualPermissions)
{
    const fs::path target = folder_ / "out.bin";
    const Bytes data = {1};
    sdk::write_file_atomically(target, data.data(), data.size());
    const mode_t mask = umask(0);
    umask(mask);
    struct stat info {};
    ASSERT_EQ(stat(target.c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 0777, 0666 & ~mask);  // not mkstemp's private 0600
}

TEST_F(FileIo, AtomicWriteIntoMissingFolderFails)
{
    const fs::path target = folder_ / "no-such-folder" / "out.bin";
    const Bytes data = {1, 2};
    EXPECT_EQ(message_of([&] { sdk::write_file_atomically(target, data.data(), data.size()); }),
              "cannot write '" + target.string() + "': No such file or directory");
    EXPECT_TRUE(entries().empty());
}

TEST_F(FileIo, FailedRenameRemovesTemporary)
{
    // The target is a non-empty folder, so only the final rename fails, after the temporary
    // has been written: exercises the clean-up path.
    const fs::path target = folder_ / "occupied";
    fs::create_directory(target);
    write_text(target / "keep", "x");
    const Bytes data = {1, 2};
    const std::string message =
        message_of([&] { sdk::write_file_atomically(target, data.data(), data.size()); });
    EXPECT_EQ(message.rfind("cannot write '" + target.string() + "': ", 0), 0u) << message;
    EXPECT_EQ(entries(), std::vector<std::string>{"occupied"});
}

TEST_F(FileIo, RefusesSameFileUnderOtherSpellings)
{
    write_text(folder_ / "a.bmp", "a");
    fs::create_directory(folder_ / "sub");
    const fs::path a = folder_ / "a.bmp";
    EXPECT_THROW(sdk::refuse_overwriting_input(a, a), sdk::FileError);
    EXPECT_THROW(sdk::refuse_overwriting_input(a, folder_ / "." / "a.bmp"), sdk::FileError);
    EXPECT_THROW(sdk::refuse_overwriting_input(a, folder_ / "sub" / ".." / "a.bmp"),
                 sdk::FileError);

    // Links: the same file under a different name.
    fs::create_symlink(a, folder_ / "link.bmp");
    fs::create_hard_link(a, folder_ / "hard.bmp");
    EXPECT_THROW(sdk::refuse_overwriting_input(a, folder_ / "link.bmp"), sdk::FileError);
    EXPECT_THROW(sdk::refuse_overwriting_input(folder_ / "hard.bmp", a), sdk::FileError);

    // Relative spellings, resolved against the working folder.
    const fs::path previous = fs::current_path();
    fs::current_path(folder_);
    EXPECT_THROW(sdk::refuse_overwriting_input("./a.bmp", "a.bmp"), sdk::FileError);
    EXPECT_THROW(sdk::refuse_overwriting_input("a.bmp", "sub/../a.bmp"), sdk::FileError);
    EXPECT_THROW(sdk::refuse_overwriting_input("a.bmp", a), sdk::FileError);
    const std::string message =
        message_of([] { sdk::refuse_overwriting_input("./a.bmp", "a.bmp"); });
    fs::current_path(previous);
    EXPECT_EQ(message, "refusing to write 'a.bmp': it is the input file './a.bmp'");
}

TEST_F(FileIo, RefusesNotYetExistingSameSpelling)
{
    // Neither exists (yet): the spellings alone show they are the same file.
    EXPECT_THROW(sdk::refuse_overwriting_input(folder_ / "new.bmp", folder_ / "." / "new.bmp"),
                 sdk::FileError);
}

TEST_F(FileIo, NormalisedRelativeSpellingsShareTheirFolder)
{
    // A relative name that exists and one that does not yet, in the working folder: both come
    // back absolute, in the same folder (a relative "new.json" once stayed relative, and a
    // commit of both then locked the one folder twice and waited on itself for ever).
    write_text(folder_ / "old.bmp", "a");
    const fs::path previous = fs::current_path();
    fs::current_path(folder_);
    const fs::path existing = sdk::normalised("old.bmp");
    const fs::path missing = sdk::normalised("new.json");
    const fs::path missing_below = sdk::normalised("sub/../new.json");
    fs::current_path(previous);
    EXPECT_TRUE(missing.is_absolute()) << missing;
    EXPECT_EQ(existing.parent_path(), missing.parent_path());
    EXPECT_EQ(missing, missing_below);
}

TEST_F(FileIo, AllowsDifferentFiles)
{
    write_text(folder_ / "a.bmp", "a");
    write_text(folder_ / "b.bmp", "a");  // same content is still a different file
    EXPECT_NO_THROW(sdk::refuse_overwriting_input(folder_ / "a.bmp", folder_ / "b.bmp"));
    EXPECT_NO_THROW(sdk::refuse_overwriting_input(folder_ / "a.bmp", folder_ / "c.bmp"));
    EXPECT_NO_THROW(sdk::refuse_overwriting_input(folder_ / "a.bmp", folder_ / "sub" / "a.bmp"));
}

}  // namespace

TEST_F(FileIo, AStopWhileCreatingATemporaryLeavesNone)
{
    // A child creates and removes temporaries as fast as it can and is stopped at a different
    // moment each round: wherever the signal lands, also between creating a temporary and
    // remembering it for the handler (a CI run once left one there), the folder ends empty.
    for (int round = 0; round < 60; ++round) {
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            for (;;) {
                const sdk::TemporaryFile temporary =
                    sdk::create_temporary_beside(folder_ / "out.bmp");
                ::close(temporary.fd);
                sdk::remove_temporary(temporary.path);
            }
        }
        ::usleep(static_cast<useconds_t>(300 + (round * 97) % 700));
        ::kill(child, round % 2 ? SIGTERM : SIGINT);
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        EXPECT_TRUE(WIFSIGNALED(status)) << "round " << round << ": status " << status;
        ASSERT_EQ(entries(), std::vector<std::string>{}) << "round " << round;
    }
}

TEST(WithSuffix, InsertsBeforeTheExtension)
{
    EXPECT_EQ(sdk::with_suffix("out.bmp", "-dX"), "out-dX.bmp");
    EXPECT_EQ(sdk::with_suffix("dir/out.bmp", "-dY"), "dir/out-dY.bmp");
    EXPECT_EQ(sdk::with_suffix("noext", "-dX"), "noext-dX");
}
