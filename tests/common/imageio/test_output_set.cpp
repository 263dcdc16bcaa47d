// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/file_io.hpp"
#include "common/imageio/output_set.hpp"
#include "imageio_test_support.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using sdk::AtomicFile;
using sdk::FileError;
using sdk::OutputSet;

// A fresh private folder per test (FolderTest), holding the run's input.
class OutputSetTest : public decodetest::FolderTest {
protected:
    void SetUp() override
    {
        FolderTest::SetUp();
        input_ = folder_ / "input.bmp";
        put(input_, "input");
    }

    static void put(const fs::path& path, const std::string& text)
    {
        std::ofstream(path, std::ios::binary) << text;
    }
    static std::string text_of(const fs::path& path)
    {
        std::ifstream in(path, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), {}};
    }
    static void write(const fs::path& path, const std::string& text)
    {
        AtomicFile file(path);
        file.write(text.data(), text.size());
        file.commit();
    }
    // Every name in `folder`, hidden temporaries included, sorted.
    static std::vector<std::string> names_in(const fs::path& folder)
    {
        std::vector<std::string> names;
        for (const auto& entry : fs::directory_iterator(folder))
            names.push_back(entry.path().filename().string());
        std::sort(names.begin(), names.end());
        return names;
    }

    fs::path input_;
};

TEST_F(OutputSetTest, CommitPutsEveryFileInPlaceAndNothingElse)
{
    put(folder_ / "a.bmp", "old a");
    {
        OutputSet set({input_}, {folder_ / "a.bmp", folder_ / "b.bmp"});
        write(folder_ / "a.bmp", "new a");
        write(folder_ / "b.bmp", "new b");
        EXPECT_EQ(text_of(folder_ / "a.bmp"), "old a");  // nothing replaced before commit
        EXPECT_FALSE(fs::exists(folder_ / "b.bmp"));
        set.commit();
    }
    EXPECT_EQ(text_of(folder_ / "a.bmp"), "new a");
    EXPECT_EQ(text_of(folder_ / "b.bmp"), "new b");
    EXPECT_EQ(names_in(folder_), (std::vector<std::string>{"a.bmp", "b.bmp", "input.bmp"}));
}

TEST_F(OutputSetTest, AFailedRunLeavesThePreviousFilesAndNoTemporaries)
{
    put(folder_ / "a.bmp", "old a");
    put(folder_ / "b.bmp", "old b");
    try {
        OutputSet set({input_}, {folder_ / "a.bmp", folder_ / "b.bmp"});
        write(folder_ / "a.bmp", "new a");
        throw std::runtime_error("the second file's computation failed");
    } catch (const std::runtime_error&) {
    }
    EXPECT_EQ(text_of(folder_ / "a.bmp"), "old a");
    EXPECT_EQ(text_of(folder_ / "b.bmp"), "old b");
    EXPECT_EQ(names_in(folder_), (std::vector<std::string>{"a.bmp", "b.bmp", "input.bmp"}));
}

TEST_F(OutputSetTest, TemporariesAreCreatedBeforeAnyWork)
{
    OutputSet set({input_}, {folder_ / "a.bmp"});
    const auto names = names_in(folder_);
    ASSERT_EQ(names.size(), 2u);
    EXPECT_EQ(names[0].rfind(".a.bmp.tmp-", 0), 0u) << names[0];
}

TEST_F(OutputSetTest, RefusesBadOutputsBeforeCreatingAnything)
{
    fs::create_directory(folder_ / "a folder");
    ::mkfifo((folder_ / "fifo").c_str(), 0600);
    const std::vector<fs::path> bad = {input_, folder_ / "a folder", folder_ / "fifo", "/dev/null",
                                       folder_ / "missing" / "out.bmp"};
    for (const auto& output : bad) {
        try {
            OutputSet set({input_}, {folder_ / "good.bmp", output});
            ADD_FAILURE() << "accepted " << output;
        } catch (const FileError& error) {
            EXPECT_NE(std::string(error.what()).find(output.filename().string()), std::string::npos)
                << error.what();
        }
        EXPECT_EQ(names_in(folder_), (std::vector<std::string>{"a folder", "fifo", "input.bmp"}))
            << "after " << output;
    }
    struct stat info {};
    ASSERT_EQ(::stat("/dev/null", &info), 0);
    EXPECT_TRUE(S_ISCHR(info.st_mode));
}

TEST_F(OutputSetTest, RefusesTheSameFileTwiceHoweverSpelled)
{
    EXPECT_THROW(OutputSet({input_}, {folder_ / "a.bmp", folder_ / "." / "a.bmp"}), FileError);
}

TEST_F(OutputSetTest, AnOutputNeverWrittenIsAnErrorNotASilentlyOldFile)
{
    put(folder_ / "b.bmp", "old b");
    OutputSet set({input_}, {folder_ / "a.bmp", folder_ / "b.bmp"});
    write(folder_ / "a.bmp", "new a");
    EXPECT_THROW(set.commit(), std::logic_error);
    EXPECT_FALSE(fs::exists(folder_ / "a.bmp"));
    EXPECT_EQ(text_of(folder_ / "b.bmp"), "old b");
}

TEST_F(OutputSetTest, ARenameFailingHalfWayPutsBackWhatTheEarlierOnesReplaced)
{
    put(folder_ / "a.bmp", "old a");
    {
        OutputSet set({input_}, {folder_ / "a.bmp", folder_ / "new.bmp", folder_ / "c.bmp"});
        write(folder_ / "a.bmp", "new a");
        write(folder_ / "new.bmp", "new file");
        write(folder_ / "c.bmp", "new c");
        // Something else makes the third target a non-empty folder before the commit: its
        // rename fails after the first two have been done.
        fs::create_directories(folder_ / "c.bmp" / "inside");
        EXPECT_THROW(set.commit(), FileError);
    }
    EXPECT_EQ(text_of(folder_ / "a.bmp"), "old a");
    EXPECT_FALSE(fs::exists(folder_ / "new.bmp"));
    EXPECT_EQ(names_in(folder_), (std::vector<std::string>{"a.bmp", "c.bmp", "input.bmp"}));
}

TEST_F(OutputSetTest, ARenameFailingAfterItsTargetWasFreedPutsThePreviousFileBack)
{
    // Each previous file loses its name just before its replacement is renamed onto it (a
    // rename onto a free name: no write-back on ext4); if that rename fails, the previous file
    // must get its name back, and the files replaced before it theirs.
    put(folder_ / "a.bmp", "old a");
    put(folder_ / "b.bmp", "old b");
    {
        OutputSet set({input_}, {folder_ / "a.bmp", folder_ / "b.bmp"});
        write(folder_ / "a.bmp", "new a");
        write(folder_ / "b.bmp", "new b");
        // Something else removes b.bmp's finished temporary: its rename fails with ENOENT.
        for (const auto& name : names_in(folder_)) {
            if (name.rfind(".b.bmp.tmp-", 0) == 0) fs::remove(folder_ / name);
        }
        EXPECT_THROW(set.commit(), FileError);
    }
    EXPECT_EQ(text_of(folder_ / "a.bmp"), "old a");
    EXPECT_EQ(text_of(folder_ / "b.bmp"), "old b");
    EXPECT_EQ(names_in(folder_), (std::vector<std::string>{"a.bmp", "b.bmp", "input.bmp"}));
}

TEST_F(OutputSetTest, AReplacedFileIsANewFileAndTheOldOneIsUntouched)
{
    // A reader holding the previous output open still reads it whole after the commit: the
    // new file is renamed into place, never written into the old one.
    put(folder_ / "a.bmp", "old a");
    std::ifstream reader(folder_ / "a.bmp", std::ios::binary);
    {
        OutputSet set({input_}, {folder_ / "a.bmp"});
        write(folder_ / "a.bmp", "new a, longer");
        set.commit();
    }
    EXPECT_EQ(text_of(folder_ / "a.bmp"), "new a, longer");
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(reader), {}), "old a");
    EXPECT_EQ(names_in(folder_), (std::vector<std::string>{"a.bmp", "input.bmp"}));
}

TEST_F(OutputSetTest, CreatesFoldersAskedForAndRemovesThemWhenTheRunFails)
{
    const fs::path raw = folder_ / "raw" / "deeper";
    {
        OutputSet set({input_}, {raw / "x.npy"}, {raw});
    }
    EXPECT_FALSE(fs::exists(raw));
    {
        OutputSet set({input_}, {raw / "x.npy"}, {raw});
        write(raw / "x.npy", "x");
        set.commit();
    }
    EXPECT_EQ(text_of(raw / "x.npy"), "x");
}

TEST_F(OutputSetTest, ASymbolicLinkIsFollowedAndKept)
{
    put(folder_ / "real.bmp", "old");
    fs::create_symlink(folder_ / "real.bmp", folder_ / "link.bmp");
    {
        OutputSet set({input_}, {folder_ / "link.bmp"});
        write(folder_ / "link.bmp", "new");
        set.commit();
    }
    EXPECT_TRUE(fs::is_symlink(folder_ / "link.bmp"));
    EXPECT_EQ(text_of(folder_ / "real.bmp"), "new");
}

// b.bmp -> a.bmp, and a.bmp not there yet: the run creates a.bmp and the link stays a link.
TEST_F(OutputSetTest, ALinkToAFileNotYetThereCreatesThatFile)
{
    fs::create_symlink("a.bmp", folder_ / "b.bmp");  // relative, as `ln -s a.bmp b.bmp` makes it
    {
        OutputSet set({input_}, {folder_ / "b.bmp"});
        write(folder_ / "b.bmp", "new");
        set.commit();
    }
    EXPECT_TRUE(fs::is_symlink(folder_ / "b.bmp"));
    EXPECT_EQ(text_of(folder_ / "a.bmp"), "new");
}

// `flock . sample ...`, the shell's way to serialise jobs, holds a lock on the output folder for
// the whole run (issue 38, item 13): the commit waits a bounded time for it, then renames, where it
// waited for ever.
TEST_F(OutputSetTest, ALockHeldOnTheFolderByTheUserDoesNotHangTheCommit)
{
    const int held = ::open(folder_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ASSERT_GE(held, 0);
    ASSERT_EQ(::flock(held, LOCK_EX), 0);
    auto committed = std::async(std::launch::async, [&] {
        OutputSet set({input_}, {folder_ / "out.bmp"});
        write(folder_ / "out.bmp", "new");
        set.commit();
    });
    const bool in_time = committed.wait_for(std::chrono::seconds(30)) == std::future_status::ready;
    EXPECT_TRUE(in_time) << "the commit still waits on the user's lock";
    ::flock(held, LOCK_UN);  // lets a hung commit end, so that the test does too
    committed.get();
    ::close(held);
    EXPECT_EQ(text_of(folder_ / "out.bmp"), "new");
}

// a.bmp -> b.bmp -> a.bmp: a loop names no file, and is refused (ELOOP) with both links left as
// they were (issue 38, item 18: the link a.bmp was replaced by a regular file).
TEST_F(OutputSetTest, ALoopOfSymbolicLinksIsRefused)
{
    fs::create_symlink("b.bmp", folder_ / "a.bmp");
    fs::create_symlink("a.bmp", folder_ / "b.bmp");
    try {
        OutputSet set({input_}, {folder_ / "a.bmp"});
        ADD_FAILURE() << "a loop of links accepted as an output";
    } catch (const FileError& error) {
        EXPECT_NE(std::string(error.what()).find("Too many levels of symbolic links"),
                  std::string::npos)
            << error.what();
    }
    EXPECT_TRUE(fs::is_symlink(folder_ / "a.bmp"));
    EXPECT_TRUE(fs::is_symlink(folder_ / "b.bmp"));
    EXPECT_EQ(names_in(folder_), (std::vector<std::string>{"a.bmp", "b.bmp", "input.bmp"}));
}

// An empty path names no file; taken as the current folder it was locked twice under two
// spellings at commit, the second flock() waiting for ever on the first.
TEST_F(OutputSetTest, AnEmptyOutputPathIsRefused)
{
    EXPECT_THROW(OutputSet({input_}, {folder_ / "a.bmp", ""}), FileError);
    EXPECT_EQ(names_in(folder_), (std::vector<std::string>{"input.bmp"}));
}

// Every name the file system takes (up to NAME_MAX bytes) is written, and written again over
// itself: the temporary and its ".previous" backup must not be longer than the name allows.
TEST_F(OutputSetTest, TheLongestLegalNamesAreWrittenRunAfterRun)
{
    for (const std::size_t length : {200u, 236u, 243u, 244u, 255u}) {
        const fs::path output = folder_ / (std::string(length - 4, 'n') + ".bmp");
        for (const char* text : {"first", "second"}) {
            SCOPED_TRACE(std::to_string(length) + " bytes, " + text + " run");
            OutputSet set({input_}, {output});
            write(output, text);
            set.commit();
            EXPECT_EQ(text_of(output), text);
        }
    }
    EXPECT_EQ(names_in(folder_).size(), 6u);  // the input and five outputs, no temporary
}

TEST_F(OutputSetTest, FilesOutsideTheSetAreWrittenAsBefore)
{
    OutputSet set({input_}, {folder_ / "a.bmp"});
    write(folder_ / "cache.txt", "cache");  // e.g. the tuning cache, during a run
    EXPECT_EQ(text_of(folder_ / "cache.txt"), "cache");
}

// A run stopped by SIGTERM or SIGINT half-way: the previous files stay, no temporary is left.
TEST_F(OutputSetTest, AStoppingSignalRemovesTheTemporariesAndKeepsThePreviousFiles)
{
    for (const int signal_number : {SIGTERM, SIGINT, SIGHUP}) {
        put(folder_ / "a.bmp", "old a");
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            OutputSet set({input_}, {folder_ / "a.bmp", folder_ / "b.bmp"});
            write(folder_ / "a.bmp", "new a");
            ::kill(::getpid(), signal_number);  // to the process, as Ctrl-C, kill and timeout send
            ::pause();                          // the signal stops the process
        }
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        ASSERT_TRUE(WIFSIGNALED(status));
        EXPECT_EQ(WTERMSIG(status), signal_number);
        EXPECT_EQ(text_of(folder_ / "a.bmp"), "old a");
        EXPECT_EQ(names_in(folder_), (std::vector<std::string>{"a.bmp", "input.bmp"}));
    }
}

// More temporaries at once than the clean-up's first table holds (64): a batch has one or two
// for each photo in flight, and as many photos as the machine allows. A stopping signal still
// removes every one of them.
TEST_F(OutputSetTest, AStoppingSignalRemovesHundredsOfTemporaries)
{
    std::vector<fs::path> outputs;
    for (int i = 0; i < 200; ++i)
        outputs.push_back(folder_ / ("photo-" + std::to_string(i) + ".png"));
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        // Four sets of 50, as photos in flight hold them, side by side.
        std::vector<std::unique_ptr<OutputSet>> sets;
        for (std::size_t first = 0; first < outputs.size(); first += 50)
            sets.push_back(std::make_unique<OutputSet>(
                std::vector<fs::path>{input_},
                std::vector<fs::path>(outputs.begin() + first, outputs.begin() + first + 50)));
        if (names_in(folder_).size() != 201) ::_exit(3);  // every temporary made
        ::kill(::getpid(), SIGTERM);
        ::pause();
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "exit status " << WEXITSTATUS(status);
    EXPECT_EQ(WTERMSIG(status), SIGTERM);
    EXPECT_EQ(names_in(folder_), (std::vector<std::string>{"input.bmp"}));
}

// A run that crashes half-way (a segmentation fault inside the OpenCL driver, on a thread of its
// own, as PoCL's did when two threads started it at once): no temporary is left, and the
// process still dies of its crash (issue 47, item 1).
TEST_F(OutputSetTest, ACrashRemovesTheTemporaries)
{
#ifdef __SANITIZE_ADDRESS__
    // AddressSanitizer takes these signals for its own report and exit, before any handler of
    // the program's (and UBSan stops at the null store first): this runs in the plain build.
    GTEST_SKIP() << "the sanitizers handle SIGSEGV, SIGBUS and SIGFPE themselves";
#endif
    for (const int signal_number : {SIGSEGV, SIGBUS, SIGFPE}) {
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) {
            OutputSet set({input_}, {folder_ / "a.bmp"});
            write(folder_ / "a.bmp", "new a");
            std::thread([signal_number] {
                if (signal_number == SIGSEGV) *static_cast<volatile int*>(nullptr) = 1;
                ::raise(signal_number);  // to this thread, as a fault is
            }).join();
            ::_exit(0);
        }
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        ASSERT_TRUE(WIFSIGNALED(status)) << "signal " << signal_number;
        EXPECT_EQ(WTERMSIG(status), signal_number);
        EXPECT_EQ(names_in(folder_), (std::vector<std::string>{"input.bmp"}))
            << "signal " << signal_number;
    }
}

// Two runs committing sets to the same files over and over, and a reader that takes the lock a
// commit holds (flock on the folder): the reader only ever sees whole sets, and the files end
// up from one run, never a mix.
TEST_F(OutputSetTest, ConcurrentRunsNeverLeaveAMixedSet)
{
    const std::vector<std::string> names = {"a.bmp", "b.bmp", "c.bmp"};
    for (const auto& name : names) put(folder_ / name, "none");
    const auto run = [&](const std::string& who) {
        for (int i = 0; i < 300; ++i) {
            OutputSet set({input_}, {folder_ / "a.bmp", folder_ / "b.bmp", folder_ / "c.bmp"});
            for (const auto& name : names) write(folder_ / name, who);
            set.commit();
        }
        std::_Exit(0);
    };
    std::vector<pid_t> children;
    for (const char* who : {"first", "second"}) {
        const pid_t child = ::fork();
        ASSERT_GE(child, 0);
        if (child == 0) run(who);
        children.push_back(child);
    }
    int mixed = 0;
    for (int i = 0; i < 300; ++i) {
        const int fd = ::open(folder_.c_str(), O_RDONLY | O_DIRECTORY);
        ASSERT_GE(fd, 0);
        ASSERT_EQ(::flock(fd, LOCK_EX), 0);
        const std::string a = text_of(folder_ / "a.bmp");
        if (text_of(folder_ / "b.bmp") != a || text_of(folder_ / "c.bmp") != a) ++mixed;
        ::close(fd);
    }
    for (const pid_t child : children) {
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    EXPECT_EQ(mixed, 0);
    const std::string a = text_of(folder_ / "a.bmp");
    EXPECT_TRUE(a == "first" || a == "second") << a;
    EXPECT_EQ(text_of(folder_ / "b.bmp"), a);
    EXPECT_EQ(text_of(folder_ / "c.bmp"), a);
    EXPECT_EQ(names_in(folder_).size(), 4u);
}

}  // namespace
