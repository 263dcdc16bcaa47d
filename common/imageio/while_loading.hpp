// SPDX-License-Identifier: Apache-2.0
#pragma once
// One exception type for "this image cannot be loaded". Reading a file's bytes fails with
// FileError (missing, unreadable, shorter than when it was opened), decoding them with
// ImageError; each reader runs its reads through while_loading, so that its callers catch
// ImageError alone and the message, which names the file and why, is kept.
#include "common/imageio/file_io.hpp"
#include "common/imageio/image.hpp"

namespace sdk {

template <typename Read>
auto while_loading(Read read)
{
    try {
        return read();
    } catch (const FileError& error) {
        throw ImageError(error.what());
    }
}

}  // namespace sdk
