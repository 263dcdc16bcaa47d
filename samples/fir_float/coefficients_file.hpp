// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <filesystem>
#include <string>

namespace sdk {

// fir_float's `--coefficients @FILE`: the weights' numerators read from a file, so a 7x7 or 15x15
// window need not be typed (assets/fir/ holds the pages' windows). The file holds numbers
// separated by commas, spaces or line ends, row-major, and `#` starts a comment that runs to the
// end of its line. A relative FILE missing from the current folder is looked for next to the
// executable, as the bundled image is (`@assets/fir/tent7x7.txt` works from any folder).
//
// Returns `option` itself when it does not start with '@', else the file's numbers joined by
// commas, as --coefficients takes them. Throws UsageError, one line naming the file, when the file
// cannot be read, holds something that is not a number, or holds other than `size`*`size`
// numbers.
std::string coefficients_text(const std::string& option, int size,
                              const std::filesystem::path& executable_folder);

}  // namespace sdk
