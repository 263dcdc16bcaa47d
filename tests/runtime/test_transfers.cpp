// StagedBuffer in every memory mode: what the host writes into host() arrives on the device, and
// what the device holds comes back into host(), byte for byte, for sizes that are not multiples
// of anything.
#include "runtime/transfers.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace sdk {
namespace {

using test::test_context;

class StagedBufferTest : public ::testing::TestWithParam<MemoryMode> {};

TEST_P(StagedBufferTest, RoundTripsThroughTheDevice)
{
    const OpenClContext& cl = test_context();
    for (const std::size_t bytes : {std::size_t{1}, std::size_t{3}, std::size_t{4097}}) {
        std::mt19937 generator(static_cast<std::uint32_t>(bytes));
        std::vector<unsigned char> data(bytes);
        for (auto& byte : data) byte = static_cast<unsigned char>(generator());

        StagedBuffer input(cl, GetParam(), CL_MEM_READ_ONLY, bytes, "the input");
        std::copy(data.begin(), data.end(), input.host());
        input.to_device();
        std::vector<unsigned char> on_device(bytes);
        cl.queue.enqueueReadBuffer(input.device(), CL_TRUE, 0, bytes, on_device.data());
        EXPECT_EQ(on_device, data) << memory_mode_name(GetParam()) << " " << bytes;

        StagedBuffer output(cl, GetParam(), CL_MEM_WRITE_ONLY, bytes, "the output");
        cl.queue.enqueueWriteBuffer(output.device(), CL_TRUE, 0, bytes, data.data());
        output.to_host();
        EXPECT_EQ(std::vector<unsigned char>(output.host(), output.host() + bytes), data)
            << memory_mode_name(GetParam()) << " " << bytes;
    }
}

INSTANTIATE_TEST_SUITE_P(EveryMode, StagedBufferTest,
                         ::testing::Values(MemoryMode::map, MemoryMode::pinned, MemoryMode::copy),
                         [](const auto& test_info) { return memory_mode_name(test_info.param); });

TEST(StagedBuffer, NeedsAResolvedMode)
{
    EXPECT_THROW(StagedBuffer(test_context(), MemoryMode::automatic, CL_MEM_READ_ONLY, 16, "x"),
                 std::logic_error);
}

}  // namespace
}  // namespace sdk
