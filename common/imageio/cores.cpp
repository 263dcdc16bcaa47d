// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/cores.hpp"

#include <algorithm>
#include <atomic>
#include <thread>

namespace sdk {
namespace {
std::atomic<unsigned> images_in_flight{0};
}  // namespace

// hardware_concurrency() may read /sys on every call: asked once per process.
unsigned core_count()
{
    static const unsigned count = std::max(1u, std::thread::hardware_concurrency());
    return count;
}

unsigned threads_per_image()
{
    return std::max(1u, core_count() / std::max(1u, images_in_flight.load()));
}

ImageInFlight::ImageInFlight()
{
    ++images_in_flight;
}

ImageInFlight::~ImageInFlight()
{
    --images_in_flight;
}

}  // namespace sdk
