// FirFilter::upload converts the 8-bit image to floats on the host: the floats go straight into
// the memory the transfer moves, never into a float copy of the whole image (at 16384x16384 that
// copy was 1 GiB of a fir_float run's 1.4 GB peak on the H100: the tuner uploads a random image).
// The largest single host allocation made during an upload is measured here by counting every
// operator new of this test binary.
#include "filters/fir/fir_coefficients.hpp"
#include "filters/fir/fir_filter.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <random>

namespace {

std::atomic<std::size_t> largest_allocation{0};

void note_allocation(std::size_t bytes)
{
    std::size_t seen = largest_allocation.load();
    while (bytes > seen && !largest_allocation.compare_exchange_weak(seen, bytes)) {
    }
}

}  // namespace

void* operator new(std::size_t bytes)
{
    note_allocation(bytes);
    if (void* memory = std::malloc(bytes == 0 ? 1 : bytes)) return memory;
    throw std::bad_alloc();
}
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }

namespace sdk {
namespace {

TEST(FirUploadMemory, NoHostCopyOfTheWholeFloatImageInAnyMode)
{
    const std::size_t width = 1027, height = 1031;  // 4 MiB of floats, rows not a multiple of 16
    Image image{width, height, 1, std::vector<std::uint8_t>(width * height)};
    std::mt19937 random(7);
    for (auto& pixel : image.pixels) pixel = static_cast<std::uint8_t>(random());
    const std::size_t float_bytes = width * height * sizeof(float);
    // Copy mode writes from one host copy by definition (the mode's meaning); map and pinned
    // stream into the transfer's own memory.
    for (const MemoryMode mode : {MemoryMode::map, MemoryMode::pinned}) {
        FirFilter filter(test::test_context(), Border::replicate, FirCoefficients{}, mode);
        filter.allocate(width, height);
        largest_allocation = 0;
        filter.upload(image);
        EXPECT_LT(largest_allocation.load(), float_bytes / 4) << memory_mode_name(mode);
        // And the floats arrived: the luminance read back is the image.
        EXPECT_EQ(filter.download_luminance().pixels, image.pixels) << memory_mode_name(mode);
    }
}

}  // namespace
}  // namespace sdk
