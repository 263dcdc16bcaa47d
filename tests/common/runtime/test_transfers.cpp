// SPDX-License-Identifier: Apache-2.0
// The one transfer module in every memory mode: bytes and pitched rows reach the device and come
// back byte for byte, including transfers larger than a pinned chunk (so that the chunks
// alternate and a last, partial chunk is moved) and rows that do not divide a chunk.
#include "common/runtime/transfers.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace sdk {
namespace {

using test::test_context;

std::vector<unsigned char> random_bytes(std::size_t count, std::uint32_t seed)
{
    std::mt19937 generator(seed);
    std::vector<unsigned char> bytes(count);
    for (auto& byte : bytes) byte = static_cast<unsigned char>(generator());
    return bytes;
}

class TransferTest : public ::testing::TestWithParam<MemoryMode> {};

TEST_P(TransferTest, BytesRoundTripThroughTheDevice)
{
    const OpenClContext& cl = test_context();
    // 1 byte, a few, and two and a half chunks.
    for (const std::size_t bytes :
         {std::size_t{1}, std::size_t{4097}, pinned_chunk_bytes * 5 / 2 + 3}) {
        const auto data = random_bytes(bytes, static_cast<std::uint32_t>(bytes));
        const cl::Buffer buffer =
            create_image_buffer(cl, GetParam(), CL_MEM_READ_WRITE, bytes, "the test bytes");
        upload_bytes(cl, GetParam(), buffer, data.data(), bytes, "the test bytes");

        std::vector<unsigned char> back(bytes, 0xA5);
        std::size_t expected_offset = 0;
        download_bytes(
            cl, GetParam(), buffer, bytes,
            [&](const unsigned char* piece, std::size_t offset, std::size_t size) {
                EXPECT_EQ(offset, expected_offset) << "pieces must arrive in order";
                std::copy(piece, piece + size, back.begin() + static_cast<std::ptrdiff_t>(offset));
                expected_offset = offset + size;
            },
            "the test bytes");
        EXPECT_EQ(expected_offset, bytes);
        EXPECT_TRUE(back == data) << memory_mode_name(GetParam()) << " " << bytes << " bytes";
    }
}

TEST_P(TransferTest, PitchedRowsRoundTripAcrossChunks)
{
    const OpenClContext& cl = test_context();
    // Rows of 3000 bytes at a pitch of 3008: a chunk holds a whole number of them, not all.
    const std::size_t row_bytes = 3000, height = pinned_chunk_bytes / 3008 * 2 + 7;
    const std::size_t row_pitch = pitch_for(row_bytes);
    const auto image = random_bytes(row_bytes * height, 5);
    const cl::Buffer buffer =
        create_image_buffer(cl, GetParam(), CL_MEM_READ_WRITE, row_pitch * height, "the test rows");
    upload_rows(cl, GetParam(), buffer, image.data(), row_bytes, height, row_pitch, "the rows");
    std::vector<unsigned char> back(row_bytes * height, 0xA5);
    download_rows(cl, GetParam(), buffer, back.data(), row_bytes, height, row_pitch, "the rows");
    EXPECT_TRUE(back == image) << memory_mode_name(GetParam());
}

// A batch's photos in flight share one context, each transferring on its own queue at once: each
// must get its own bytes back (pinned mode once lent every transfer the context's one pair of
// staging chunks).
TEST_P(TransferTest, ThreadsWithQueuesOfTheirOwnOnOneContextGetTheirOwnBytes)
{
    const OpenClContext& shared = test_context();
    // More threads than a context keeps pinned pairs: some wait for a pair handed back.
    const std::size_t bytes = pinned_chunk_bytes / 2 + 11;
    std::vector<std::vector<unsigned char>> sent, received(6);
    for (std::uint32_t seed = 0; seed < received.size(); ++seed)
        sent.push_back(random_bytes(bytes, 40 + seed));
    std::vector<std::thread> threads;
    for (std::size_t i = 0; i < received.size(); ++i) {
        threads.emplace_back([&, i] {
            OpenClContext cl = shared;
            cl.queue = cl::CommandQueue(cl.context, cl.device, CL_QUEUE_PROFILING_ENABLE);
            const cl::Buffer buffer =
                create_image_buffer(cl, GetParam(), CL_MEM_READ_WRITE, bytes, "the test bytes");
            for (int round = 0; round < 3; ++round) {
                upload_bytes(cl, GetParam(), buffer, sent[i].data(), bytes, "the test bytes");
                received[i].assign(bytes, 0xA5);
                download_bytes(
                    cl, GetParam(), buffer, bytes,
                    [&](const unsigned char* piece, std::size_t offset, std::size_t size) {
                        std::copy(piece, piece + size,
                                  received[i].begin() + static_cast<std::ptrdiff_t>(offset));
                    },
                    "the test bytes");
                if (received[i] != sent[i]) return;
            }
        });
    }
    for (auto& thread : threads) thread.join();
    for (std::size_t i = 0; i < received.size(); ++i)
        EXPECT_TRUE(received[i] == sent[i]) << memory_mode_name(GetParam()) << ", thread " << i;
    EXPECT_LE(pinned_chunk_pairs(shared), 4u);
    if (GetParam() == MemoryMode::pinned) {
        EXPECT_GE(pinned_chunk_pairs(shared), 1u);
    }
}

// A batch splits its device stage by the commands each photo's thread enqueues: this thread's
// observer sees every command of its transfer, each with the device's time on it, and no
// command once it is cleared.
TEST_P(TransferTest, ThisThreadsObserverSeesItsTransfersCommands)
{
    const OpenClContext& cl = test_context();
    const std::size_t bytes = 4097;
    const auto data = random_bytes(bytes, 3);
    const cl::Buffer buffer =
        create_image_buffer(cl, GetParam(), CL_MEM_READ_WRITE, bytes, "bytes");
    std::vector<cl::Event> seen;
    observe_commands_on_this_thread([&](const cl::Event& event) { seen.push_back(event); });
    upload_bytes(cl, GetParam(), buffer, data.data(), bytes, "bytes");
    observe_commands_on_this_thread({});
    ASSERT_FALSE(seen.empty()) << memory_mode_name(GetParam());
    for (const cl::Event& event : seen) EXPECT_GE(command_ms(event), 0.0);
    const std::size_t count = seen.size();
    upload_bytes(cl, GetParam(), buffer, data.data(), bytes, "bytes");
    EXPECT_EQ(seen.size(), count);
}

// A buffer's first `bytes`, downloaded in `mode`.
std::vector<unsigned char> downloaded(const OpenClContext& cl, MemoryMode mode,
                                      const cl::Buffer& buffer, std::size_t bytes)
{
    std::vector<unsigned char> back(bytes, 0xA5);
    download_bytes(
        cl, mode, buffer, bytes,
        [&](const unsigned char* piece, std::size_t offset, std::size_t size) {
            std::copy(piece, piece + size, back.begin() + static_cast<std::ptrdiff_t>(offset));
        },
        "the test bytes");
    return back;
}

// The flags of the mapping that holds `address`, as /proc/self/smaps lists them ("rd wr mr hg":
// hg for MADV_HUGEPAGE); empty where there is no such file or mapping.
std::string mapping_flags(std::uintptr_t address)
{
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        std::uintptr_t start = 0, end = 0;
        char dash = 0;
        std::istringstream range(line);
        if (range >> std::hex >> start >> dash >> end && dash == '-' &&
            line.find(':') > line.find(' ')) {  // a mapping's first line: "start-end perms ..."
            inside = start <= address && address < end;
        } else if (inside && line.rfind("VmFlags:", 0) == 0) {
            return line.substr(8) + " ";
        }
    }
    return "";
}

// On a CPU device a large map-mode buffer is advised onto huge pages before its first write, and
// still carries the bytes given to it; a small one, or another mode, is left alone.
TEST(HugePages, AdviseALargeMapBufferOfACpuDevice)
{
    const OpenClContext& cl = test_context();
    if (!(cl.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU))
        GTEST_SKIP() << "a GPU's buffers are the driver's memory";
    if (mapping_flags(reinterpret_cast<std::uintptr_t>(&cl)).empty() &&
        mapping_flags(reinterpret_cast<std::uintptr_t>(&mapping_flags)).empty())
        GTEST_SKIP() << "no /proc/self/smaps with VmFlags here";
    const auto flags_inside = [&](const cl::Buffer& buffer, std::size_t bytes) {
        void* host = cl.queue.enqueueMapBuffer(buffer, CL_TRUE, CL_MAP_READ, 0, bytes);
        // An address 2 MB-aligned inside the buffer: the advice covers whole huge pages only.
        const std::uintptr_t inside =
            (reinterpret_cast<std::uintptr_t>(host) + (std::size_t{4} << 20) - 1) /
            (std::size_t{2} << 20) * (std::size_t{2} << 20);
        const std::string flags = mapping_flags(inside);
        cl.queue.enqueueUnmapMemObject(buffer, host);
        cl.queue.finish();
        return flags;
    };
    const std::size_t large = std::size_t{24} << 20;
    const auto data = random_bytes(large, 11);
    const cl::Buffer advised =
        create_image_buffer(cl, MemoryMode::map, CL_MEM_READ_WRITE, large, "the large bytes");
    EXPECT_NE(flags_inside(advised, large).find(" hg "), std::string::npos)
        << "the mapping: " << flags_inside(advised, large);
    upload_bytes(cl, MemoryMode::map, advised, data.data(), large, "the large bytes");
    EXPECT_TRUE(downloaded(cl, MemoryMode::map, advised, large) == data);
    const cl::Buffer copied =
        create_image_buffer(cl, MemoryMode::copy, CL_MEM_READ_WRITE, large, "the copied bytes");
    EXPECT_EQ(flags_inside(copied, large).find(" hg "), std::string::npos);
}

// Pinned mode's staging chunks outlive the transfers, for the next, and hold the context; a
// single run releases them when done with the device (DeviceRun's destructor), so that the
// context can go. After that a transfer makes them again. Whether a buffer counts in its
// context's reference count is the driver's choice (PoCL's do, NVIDIA's do not), so the count
// is compared with the one before any chunk was made: no chunk may leave one behind.
TEST(PinnedChunks, ReleasedTheyHoldTheContextNoLongerAndComeBackWhenNeeded)
{
    const OpenClContext& cl = test_context();
    release_pinned_chunks(cl);  // an earlier test's, if any
    const std::size_t bytes = 3 * 4096 + 5;
    const auto data = random_bytes(bytes, 7);
    const cl::Buffer buffer =
        create_image_buffer(cl, MemoryMode::pinned, CL_MEM_READ_WRITE, bytes, "the test bytes");
    const cl_uint with_buffer = cl.context.getInfo<CL_CONTEXT_REFERENCE_COUNT>();
    upload_bytes(cl, MemoryMode::pinned, buffer, data.data(), bytes, "the test bytes");
    ASSERT_GT(pinned_chunk_pairs(cl), 0u);
    release_pinned_chunks(cl);
    EXPECT_EQ(pinned_chunk_pairs(cl), 0u);
    EXPECT_EQ(cl.context.getInfo<CL_CONTEXT_REFERENCE_COUNT>(), with_buffer);
    release_pinned_chunks(cl);  // none left: nothing to do

    EXPECT_TRUE(downloaded(cl, MemoryMode::pinned, buffer, bytes) == data);
    EXPECT_GT(pinned_chunk_pairs(cl), 0u);
}

// A command that never ran has no device time: 0, not an error.
TEST(CommandTime, IsZeroForACommandThatDidNotRun)
{
    cl::UserEvent never(test_context().context);
    EXPECT_EQ(command_ms(never), 0.0);
    never.setStatus(CL_COMPLETE);  // a user event has no profiling times even then
    EXPECT_EQ(command_ms(never), 0.0);
}

TEST(PinnedChunk, HoldsAtLeastOneRow)
{
    EXPECT_EQ(rows_in_a_pinned_chunk(64), pinned_chunk_bytes / 64);
    EXPECT_EQ(rows_in_a_pinned_chunk(4032), pinned_chunk_bytes / 4032);
    EXPECT_EQ(rows_in_a_pinned_chunk(pinned_chunk_bytes * 2), 1u);
    EXPECT_EQ(rows_in_a_pinned_chunk(0), 1u);
}

TEST(RowPitch, IsTheRowRoundedUpToACacheLine)
{
    EXPECT_EQ(pitch_for(0), 0u);
    EXPECT_EQ(pitch_for(1), 64u);
    EXPECT_EQ(pitch_for(64), 64u);
    EXPECT_EQ(pitch_for(3000), 3008u);
    EXPECT_EQ(pitch_for(16384), 16384u);
}

INSTANTIATE_TEST_SUITE_P(EveryMode, TransferTest,
                         ::testing::Values(MemoryMode::map, MemoryMode::pinned, MemoryMode::copy),
                         [](const auto& test_info) { return memory_mode_name(test_info.param); });

}  // namespace
}  // namespace sdk
