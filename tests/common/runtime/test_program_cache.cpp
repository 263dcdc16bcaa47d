// SPDX-License-Identifier: Apache-2.0
// The program binary cache (common/runtime/program_cache.hpp): a build leaves an entry keyed by the
// source and everything it includes; the next build of the same source uses it and gives a
// program that runs; a changed include is a new key; a damaged entry, or one that is not a file,
// means a build from source, never an error; an entry cut short, with one byte changed, or
// another key's is never handed to the driver: it is rebuilt, and the rebuild replaces it;
// SDK_PROGRAM_CACHE=0 writes nothing.
#include "common/runtime/kernel_args.hpp"
#include "common/runtime/program.hpp"
#include "common/runtime/program_cache.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <unistd.h>

namespace sdk {
namespace {

namespace fs = std::filesystem;
using test::test_context;

class ProgramCache : public ::testing::Test {
protected:
    void SetUp() override
    {
        root_ = fs::temp_directory_path() / ("sdk-program-cache-" + std::to_string(::getpid()));
        fs::create_directories(root_ / "kernels");
        // Not XDG_CACHE_HOME: PoCL keeps its own cache there, and reads it once per process.
        if (const char* cache = std::getenv("SDK_CACHE_DIR")) saved_cache_ = cache;
        ::setenv("SDK_CACHE_DIR", (root_ / "cache").c_str(), 1);
        ::unsetenv("SDK_PROGRAM_CACHE");
        write("offset.cl", "#define OFFSET 5\n");
        write("add.cl",
              "#include \"offset.cl\"\n"
              "__kernel void add(__global int* value) { *value += OFFSET; }\n");
    }
    void TearDown() override
    {
        if (saved_cache_.empty())
            ::unsetenv("SDK_CACHE_DIR");
        else
            ::setenv("SDK_CACHE_DIR", saved_cache_.c_str(), 1);
        ::unsetenv("SDK_PROGRAM_CACHE");
        fs::remove_all(root_);
    }

    void write(const std::string& name, const std::string& text)
    {
        std::ofstream(root_ / "kernels" / name) << text;
    }

    std::vector<fs::path> entries() const
    {
        std::vector<fs::path> found;
        const fs::path folder = root_ / "cache" / "programs";
        if (!fs::exists(folder)) return found;
        for (const auto& entry : fs::directory_iterator(folder)) found.push_back(entry.path());
        return found;
    }

    // Builds add.cl and runs it once on 10: what it returns is 10 + OFFSET.
    int run_add()
    {
        const OpenClContext& cl = test_context();
        cl::Program program;
        try {
            program = build_program(cl, "add.cl", "", root_ / "kernels");
        } catch (const BuildError& error) {
            ADD_FAILURE() << error.what() << "\n" << error.log();
            return -1;
        }
        cl::Kernel kernel(program, "add");
        const int start = 10;
        cl::Buffer value(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof start,
                         const_cast<int*>(&start));
        set_args(kernel, value);
        cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1));
        int result = 0;
        cl.queue.enqueueReadBuffer(value, CL_TRUE, 0, sizeof result, &result);
        return result;
    }

    std::string entry_bytes(const fs::path& entry) const
    {
        std::ifstream file(entry, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(file), {});
    }
    void write_entry(const fs::path& entry, const std::string& bytes) const
    {
        std::ofstream(entry, std::ios::binary | std::ios::trunc) << bytes;
    }

    // After a run on the bad entry `bad_bytes`: the rebuild has put a good entry in its place,
    // one the next run loads (so it does not write it again).
    void expect_replaced_by_a_good_entry(const fs::path& entry, const std::string& bad_bytes)
    {
        ASSERT_EQ(entries().size(), 1u);
        EXPECT_TRUE(entry_bytes(entry) != bad_bytes)
            << "the bad entry was kept";  // not printed: binary
        const auto written = fs::last_write_time(entry);
        EXPECT_EQ(run_add(), 15);
        EXPECT_EQ(fs::last_write_time(entry), written) << "the rebuilt entry was not loaded";
    }

    fs::path root_;
    std::string saved_cache_;
};

TEST_F(ProgramCache, ABuildLeavesAnEntryTheNextBuildUses)
{
    EXPECT_EQ(run_add(), 15);
    const auto first = entries();
    ASSERT_EQ(first.size(), 1u);
    const auto written = fs::last_write_time(first.front());
    EXPECT_EQ(run_add(), 15);  // from the entry: it is not written again
    ASSERT_EQ(entries().size(), 1u);
    EXPECT_EQ(fs::last_write_time(first.front()), written);
}

TEST_F(ProgramCache, AChangedIncludeIsANewKey)
{
    EXPECT_EQ(run_add(), 15);
    const auto first = entries();
    write("offset.cl", "#define OFFSET 7\n");
    EXPECT_EQ(run_add(), 17);         // not the old binary
    ASSERT_EQ(entries().size(), 1u);  // which it superseded
    EXPECT_NE(entries(), first);
}

// Each edit of a kernel is a new key; the entries it supersedes (same file, options and device)
// go, so that editing does not grow the folder (issue 38, item 15: 20 edits left 21 entries).
// Another file's entry stays.
TEST_F(ProgramCache, EditsOfOneSourceKeepOneEntry)
{
    write("other.cl", "__kernel void other(__global int* value) { *value = 1; }\n");
    build_program(test_context(), "other.cl", "", root_ / "kernels");
    for (int offset = 1; offset <= 4; ++offset) {
        write("offset.cl", "#define OFFSET " + std::to_string(offset) + "\n");
        EXPECT_EQ(run_add(), 10 + offset);
    }
    EXPECT_EQ(entries().size(), 2u);
    // A different option is another lineage: both kept.
    build_program(test_context(), "add.cl", "-DUNUSED=1", root_ / "kernels");
    EXPECT_EQ(entries().size(), 3u);
}

// Past kMaxProgramCacheBytes, the entries written longest ago go (two of 40 MiB here, sparse
// files: the size counts, not the disk's blocks).
TEST_F(ProgramCache, TheFolderKeepsUnderItsCap)
{
    EXPECT_EQ(run_add(), 15);
    const fs::path folder = root_ / "cache" / "programs";
    const fs::path older = folder / "0123456789abcdef-old.bin",
                   newer = folder / "fedcba9876543210-new.bin";
    for (const fs::path& big : {older, newer}) {
        std::ofstream{big};
        fs::resize_file(big, std::uintmax_t{40} << 20);
    }
    fs::last_write_time(older, fs::file_time_type::clock::now() - std::chrono::hours(2));
    fs::last_write_time(newer, fs::file_time_type::clock::now() - std::chrono::hours(1));
    write("offset.cl", "#define OFFSET 6\n");
    EXPECT_EQ(run_add(), 16);
    EXPECT_FALSE(fs::exists(older));
    EXPECT_TRUE(fs::exists(newer));
    std::uintmax_t total = 0;
    for (const fs::path& entry : entries()) total += fs::file_size(entry);
    EXPECT_LE(total, kMaxProgramCacheBytes);
}

TEST_F(ProgramCache, ADamagedEntryMeansABuildFromSource)
{
    EXPECT_EQ(run_add(), 15);
    const auto entry = entries().at(0);
    std::ofstream(entry, std::ios::trunc) << "not a program binary";
    EXPECT_EQ(run_add(), 15);
    fs::remove(entry);
    fs::create_directory(entry);  // a folder where the entry should be
    EXPECT_EQ(run_add(), 15);
}

// PoCL's deserialiser aborts the process on a binary cut short (a disk error, a partial restore).
TEST_F(ProgramCache, AnEntryCutShortIsRebuiltNotLoaded)
{
    EXPECT_EQ(run_add(), 15);
    const auto entry = entries().at(0);
    const std::string whole = entry_bytes(entry);
    const std::string cut = whole.substr(0, whole.size() / 2);
    write_entry(entry, cut);
    EXPECT_EQ(run_add(), 15);
    expect_replaced_by_a_good_entry(entry, cut);
}

TEST_F(ProgramCache, AnEntryWithOneByteChangedIsRebuiltNotLoaded)
{
    EXPECT_EQ(run_add(), 15);
    const auto entry = entries().at(0);
    std::string damaged = entry_bytes(entry);
    damaged.back() = static_cast<char>(damaged.back() ^ 0x01);  // PoCL reads past it unawares
    write_entry(entry, damaged);
    EXPECT_EQ(run_add(), 15);
    expect_replaced_by_a_good_entry(entry, damaged);
}

// Another key's valid entry in this key's place (a restore that mixed files up) would run the
// other program: here the one built with OFFSET 7.
TEST_F(ProgramCache, AnotherKeysEntryIsRebuiltNotLoaded)
{
    EXPECT_EQ(run_add(), 15);
    const auto entry = entries().at(0);
    write("offset.cl", "#define OFFSET 7\n");
    EXPECT_EQ(run_add(), 17);
    fs::path other;
    for (const auto& path : entries()) {
        if (path != entry) other = path;
    }
    ASSERT_FALSE(other.empty());
    fs::remove(entry);
    fs::copy_file(other, entry);
    fs::remove(other);
    const std::string swapped = entry_bytes(entry);
    write("offset.cl", "#define OFFSET 5\n");
    EXPECT_EQ(run_add(), 15);
    expect_replaced_by_a_good_entry(entry, swapped);
}

TEST_F(ProgramCache, CanBeTurnedOff)
{
    ::setenv("SDK_PROGRAM_CACHE", "0", 1);
    EXPECT_EQ(run_add(), 15);
    EXPECT_TRUE(entries().empty());
}

// A kernel name the program lacks names what the program has, not CL_INVALID_KERNEL_NAME.
TEST(CreateKernel, AMissingNameListsTheKernelsThereAre)
{
    const cl::Program program = build_program_from_source(
        test_context(), "kernel void present(global int* out) { out[0] = 1; }", "present.cl", "");
    EXPECT_NO_THROW(create_kernel(program, "present"));
    try {
        create_kernel(program, "absent");
        ADD_FAILURE() << "no error for a missing kernel";
    } catch (const std::runtime_error& error) {
        EXPECT_NE(std::string(error.what()).find("no kernel named absent"), std::string::npos)
            << error.what();
        EXPECT_NE(std::string(error.what()).find("it has: present"), std::string::npos)
            << error.what();
    }
}

}  // namespace
}  // namespace sdk
