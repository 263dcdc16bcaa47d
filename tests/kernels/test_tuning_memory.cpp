// SPDX-License-Identifier: Apache-2.0
// The tuners hold no host copy of the image they measure on. Their largest class is confirmed
// on the image's own size, so a copy was as large as the image: at 16384x16384 fir_float's
// tuner held 1.3 GB of host memory (the 8-bit image and its floats), where on a GPU the rest
// of the run holds under 200 MB. Every C++ allocation of this binary is counted (its own
// operator new), so the test sees the host's copies and not the device's buffers, which a CPU
// device such as PoCL keeps in host memory too.
#include "common/runtime/errors.hpp"
#include "kernels/fir/fir_coefficients.hpp"
#include "kernels/fir/fir_filter.hpp"
#include "kernels/fir/fir_tuning.hpp"
#include "kernels/morphology/morphology_filter.hpp"
#include "kernels/morphology/morphology_tuning.hpp"
#include "kernels/sobel/sobel_filter.hpp"
#include "kernels/sobel/sobel_tuning.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <new>
#include <random>
#include <vector>
#include <string>

#include <malloc.h>
#include <unistd.h>

namespace {

std::atomic<std::size_t> live_bytes{0};
std::atomic<std::size_t> peak_bytes{0};
std::atomic<std::size_t> largest_bytes{0};  // the largest single allocation

}  // namespace

// Counted by the size malloc gives back, so that delete needs no size.
void* operator new(std::size_t size)
{
    void* pointer = std::malloc(size == 0 ? 1 : size);
    if (!pointer) throw std::bad_alloc();
    const std::size_t usable = ::malloc_usable_size(pointer);
    std::size_t largest = largest_bytes.load();
    while (usable > largest && !largest_bytes.compare_exchange_weak(largest, usable)) {
    }
    const std::size_t now = live_bytes += usable;
    std::size_t peak = peak_bytes.load();
    while (now > peak && !peak_bytes.compare_exchange_weak(peak, now)) {
    }
    return pointer;
}

void operator delete(void* pointer) noexcept
{
    if (!pointer) return;
    live_bytes -= ::malloc_usable_size(pointer);
    std::free(pointer);
}

void operator delete(void* pointer, std::size_t) noexcept
{
    operator delete(pointer);
}

namespace sdk {
namespace {

// The most the host heap grew by while `tune` ran.
std::size_t heap_growth(const std::function<void()>& tune)
{
    const std::size_t before = live_bytes.load();
    peak_bytes = before;
    tune();
    return peak_bytes.load() - before;
}

// The largest single allocation made while `tune` ran. A host copy of the image is one
// allocation of its size; the driver's compiler, which PoCL runs in the process for each kernel
// and work-group size at its first launch (more than the image at 4096x2048 when its kernel
// cache is empty), makes many small ones.
std::size_t largest_allocation(const std::function<void()>& tune)
{
    largest_bytes = 0;
    tune();
    return largest_bytes.load();
}

TEST(TuningMemory, NoTunerHoldsAHostCopyOfTheImage)
{
    const OpenClContext& cl = test::test_context();
    const auto folder = std::filesystem::temp_directory_path() /
                        ("sdk-tuning-memory-" + std::to_string(::getpid()));
    std::filesystem::create_directories(folder);
    ::setenv("SDK_TUNING_CACHE", (folder / "tuning.txt").c_str(), 1);
    // A program cache of this test's own: the shared one has a size cap, and a test beside this
    // one (ctest -j) filling it could evict a program built below, whose rebuild inside the tuner
    // would count the compiler's memory.
    const char* shared_cache = std::getenv("SDK_CACHE_DIR");
    const std::string restore = shared_cache ? shared_cache : "";
    ::setenv("SDK_CACHE_DIR", (folder / "cache").c_str(), 1);
    // A class measured on the image itself (2^23 pixels), large enough that a copy of it, one
    // byte a pixel, stands far above what else a measurement allocates: building a program
    // (the compiler's memory, a cached binary read back) is about 1 MB however large the image.
    const std::size_t width = 4096, height = 2048;
    const std::size_t pixels = width * height;
    // Every program built once before, so that the compiler's own memory is not counted: the
    // local variant's for each group height it is tuned in (a program each).
    for (const auto variant : {FirVariant::buffer, FirVariant::local, FirVariant::image}) {
        FirFilter filter(cl, Border::replicate, full_window_coefficients(3), MemoryMode::copy,
                         variant);
        for (const FirChoice& candidate : fir_candidates(false)) {
            if (candidate.variant != variant) continue;
            try {
                filter.set_work_group(candidate.group_x, candidate.group_y);
            } catch (const UsageError&) {
                // not a shape this device runs: the tuner leaves it out too
            }
        }
    }
    for (const auto variant :
         {SobelVariant::vector_16x1, SobelVariant::vector_16x4, SobelVariant::packed_16x4,
          SobelVariant::local_tile, SobelVariant::image})
        SobelFilter(cl, variant, Border::replicate);
    MorphologyFilter(cl, MorphologyShape::square);

    EXPECT_LT(largest_allocation([&] {
                  choose_fir_kernel(cl, Border::replicate, 3, width, height, Tuning::retune);
              }),
              pixels / 2)
        << "fir_float's tuner";
    EXPECT_LT(largest_allocation([&] {
                  choose_sobel_kernel(cl, Border::replicate, width, height, Tuning::retune);
              }),
              pixels / 2)
        << "sobel's tuner";
    EXPECT_LT(largest_allocation([&] {
                  choose_morphology_work_group(cl, MorphologyShape::square, width, height,
                                               Tuning::retune);
              }),
              pixels / 2)
        << "morphology_packed's tuner";
    ::unsetenv("SDK_TUNING_CACHE");
    if (shared_cache)
        ::setenv("SDK_CACHE_DIR", restore.c_str(), 1);
    else
        ::unsetenv("SDK_CACHE_DIR");
    std::filesystem::remove_all(folder);
}

// FirFilter::upload converts the 8-bit image to floats on the host: straight into the memory the
// transfer moves, never into a float copy of the whole image (4 bytes a pixel).
TEST(UploadMemory, FirHoldsNoFloatCopyOfTheImage)
{
    const std::size_t width = 1027, height = 1031;  // 4 MiB of floats, rows not a multiple of 16
    Image image{width, height, 1, std::vector<std::uint8_t>(width * height)};
    std::mt19937 random(7);
    for (auto& pixel : image.pixels) pixel = static_cast<std::uint8_t>(random());
    // Copy mode writes from one host copy by definition (the mode's meaning); map and pinned
    // stream into the transfer's own memory.
    for (const MemoryMode mode : {MemoryMode::map, MemoryMode::pinned}) {
        FirFilter filter(test::test_context(), Border::replicate, FirCoefficients{}, mode);
        filter.allocate(width, height);
        EXPECT_LT(heap_growth([&] { filter.upload(image); }), width * height)
            << memory_mode_name(mode);
        // And the floats arrived: the luminance read back is the image.
        EXPECT_EQ(filter.download_luminance().pixels, image.pixels) << memory_mode_name(mode);
    }
}

}  // namespace
}  // namespace sdk
