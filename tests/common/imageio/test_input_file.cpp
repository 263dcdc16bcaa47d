// SPDX-License-Identifier: Apache-2.0
// InputFile: only regular files, refused at once otherwise (a FIFO must not hang, a device must
// not be read forever), and reads that stop with a clear error where the file really ends.
#include "common/imageio/file_io.hpp"
#include "common/imageio/input_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace sdk {
namespace {

namespace fs = std::filesystem;

class InputFileTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        folder_ = fs::temp_directory_path() / ("sdk-input-file-" + std::to_string(::getpid()));
        fs::create_directories(folder_);
    }
    void TearDown() override { fs::remove_all(folder_); }

    fs::path write(const std::string& name, const std::string& contents)
    {
        const fs::path path = folder_ / name;
        std::ofstream(path, std::ios::binary) << contents;
        return path;
    }

    static std::string error_of(const fs::path& path)
    {
        try {
            InputFile file(path);
        } catch (const FileError& error) {
            return error.what();
        }
        return "";
    }

    fs::path folder_;
};

TEST_F(InputFileTest, ReadsExactlyWhereAsked)
{
    const InputFile file(write("a.bin", "0123456789"));
    EXPECT_EQ(file.size(), 10u);
    std::string middle(4, '?');
    file.read_at(3, middle.data(), middle.size());
    EXPECT_EQ(middle, "3456");
    std::string prefix(64, '?');
    EXPECT_EQ(file.read_prefix(prefix.data(), prefix.size()), 10u);
    EXPECT_EQ(prefix.substr(0, 10), "0123456789");
}

TEST_F(InputFileTest, ReadingPastTheEndSaysTheFileIsShort)
{
    const InputFile file(write("short.bin", "abc"));
    std::vector<char> bytes(8);
    try {
        file.read_at(1, bytes.data(), bytes.size());
        FAIL() << "read past the end";
    } catch (const FileError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("short.bin"), std::string::npos) << message;
        EXPECT_NE(message.find("ends at byte 3"), std::string::npos) << message;
    }
}

// Large reads are split over threads: every byte lands where it belongs, and a file cut short
// names the first missing byte, whichever thread met it.
TEST_F(InputFileTest, ALargeReadSplitOverThreadsIsExact)
{
    std::string contents(41 << 20, '\0');
    std::uint32_t state = 7;
    for (char& byte : contents) {
        state = state * 1664525u + 1013904223u;
        byte = static_cast<char>(state >> 24);
    }
    const InputFile file(write("large.bin", contents));
    std::string read(contents.size() - 5, '?');
    file.read_at(5, read.data(), read.size());
    EXPECT_TRUE(read == contents.substr(5)) << "bytes differ";

    const InputFile cut(write("cut.bin", contents.substr(0, 30 << 20)));
    std::string longer(40 << 20, '?');
    try {
        cut.read_at(0, longer.data(), longer.size());
        FAIL() << "read past the end";
    } catch (const FileError& error) {
        EXPECT_NE(std::string(error.what()).find("ends at byte " + std::to_string(30 << 20)),
                  std::string::npos)
            << error.what();
    }
}

TEST_F(InputFileTest, RefusesWhatIsNotARegularFileAtOnce)
{
    EXPECT_NE(error_of(folder_).find("a directory, not a regular file"), std::string::npos);
    const fs::path fifo = folder_ / "fifo";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    // No writer: opening it for an ordinary read would block for ever.
    EXPECT_NE(error_of(fifo).find("a FIFO, not a regular file"), std::string::npos);
    EXPECT_NE(error_of("/dev/zero").find("a character device"), std::string::npos);
    EXPECT_NE(error_of(folder_ / "missing.bmp").find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace sdk
