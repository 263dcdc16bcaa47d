// SPDX-License-Identifier: Apache-2.0
#include "samples/app/common_options.hpp"

#include "common/runtime/program.hpp"

namespace sdk {

std::filesystem::path default_input_image()
{
    return executable_directory() / "assets" / "input.bmp";
}

}  // namespace sdk
