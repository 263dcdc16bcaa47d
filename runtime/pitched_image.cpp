#include "runtime/pitched_image.hpp"

#include "runtime/errors.hpp"

#include <cstring>
#include <vector>

namespace sdk {

cl::Event write_pitched(const cl::CommandQueue& queue, const cl::Buffer& buffer, const void* host,
                        std::size_t row_bytes, std::size_t height, std::size_t row_pitch,
                        const std::string& what)
{
    // Rows are laid out at their pitch on the host first and sent in one plain write, not with
    // clEnqueueWriteBufferRect: oclgrind 21.10 marks a rectangle it has written as
    // uninitialised, which would drown its memory checks in false reports. The copy costs far
    // less than the transfer itself, and none when the width is already a multiple of 64.
    const auto* source = static_cast<const unsigned char*>(host);
    std::vector<unsigned char> staging;
    if (row_pitch != row_bytes) {
        staging.assign(row_pitch * height, 0);
        for (std::size_t y = 0; y < height; ++y)
            std::memcpy(staging.data() + y * row_pitch, source + y * row_bytes, row_bytes);
        source = staging.data();
    }
    cl::Event event;
    while_doing("uploading " + what, [&] {
        // Blocking only when the staging copy must outlive the transfer.
        queue.enqueueWriteBuffer(buffer, staging.empty() ? CL_FALSE : CL_TRUE, 0,
                                 row_pitch * height, source, nullptr, &event);
    });
    return event;
}

cl::Event read_pitched(const cl::CommandQueue& queue, const cl::Buffer& buffer, void* host,
                       std::size_t row_bytes, std::size_t height, std::size_t row_pitch,
                       const std::string& what)
{
    cl::Event event;
    while_doing("reading back " + what, [&] {
        queue.enqueueReadBufferRect(buffer, CL_TRUE, {0, 0, 0}, {0, 0, 0},
                                    {row_bytes, height, 1}, row_pitch, row_pitch * height, row_bytes,
                                     row_bytes * height, host,
                                    nullptr, &event);
    });
    return event;
}

}  // namespace sdk
