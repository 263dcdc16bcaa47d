// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/byte_source.hpp"

#include <algorithm>
#include <cstring>

namespace sdk {

std::size_t ByteSource::read(void* destination, std::size_t bytes)
{
    const auto count = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, size_ - position_));
    if (count == 0) return 0;
    if (!file_) {
        std::memcpy(destination, data_ + position_, count);
        position_ += count;
        return count;
    }
    auto* out = static_cast<std::uint8_t*>(destination);
    std::size_t left = count;
    while (left > 0) {
        const std::uint64_t ahead_end = ahead_start_ + read_ahead_.size();
        if (position_ >= ahead_start_ && position_ < ahead_end) {
            const auto take =
                static_cast<std::size_t>(std::min<std::uint64_t>(left, ahead_end - position_));
            std::memcpy(out, read_ahead_.data() + (position_ - ahead_start_), take);
            out += take;
            position_ += take;
            left -= take;
        } else if (left >= kReadAhead) {
            // A large read (libjpeg's, a PNG's pixel data) goes straight to the caller.
            file_->read_at(position_, out, left);
            position_ += left;
            left = 0;
        } else {
            ahead_start_ = position_;
            read_ahead_.resize(
                static_cast<std::size_t>(std::min<std::uint64_t>(kReadAhead, size_ - position_)));
            try {
                file_->read_at(ahead_start_, read_ahead_.data(), read_ahead_.size());
            } catch (...) {
                read_ahead_.clear();  // holds nothing read
                throw;
            }
        }
    }
    return count;
}

}  // namespace sdk
