// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>
#include <string_view>

namespace sdk {

// The two pieces of JSON a trace file needs, written by hand (no JSON library for two
// functions): strings and numbers.

// `bytes` as a quoted JSON string, valid for any byte string: quotes, backslashes and control
// characters escaped, valid UTF-8 kept as it is, and each byte that is not part of valid UTF-8
// (file names on Linux are bytes, not text) replaced by U+FFFD, so the file always parses.
std::string json_string(std::string_view bytes);

// `value` with `decimals` digits after the point ("12.345"); NaN and infinities, which JSON
// cannot spell, become 0.
std::string json_number(double value, int decimals = 3);

}  // namespace sdk
