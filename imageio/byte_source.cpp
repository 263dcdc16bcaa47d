#include "imageio/byte_source.hpp"

#include <algorithm>
#include <cstring>

namespace sdk {

std::size_t ByteSource::read(void* destination, std::size_t bytes)
{
    const auto count = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, size_ - position_));
    if (count == 0) return 0;
    if (file_)
        file_->read_at(position_, destination, count);
    else
        std::memcpy(destination, data_ + position_, count);
    position_ += count;
    return count;
}

}  // namespace sdk
