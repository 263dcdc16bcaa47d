// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <map>
#include <string>

namespace sdk {

// The name of `value` in a map from names to values, the maps the command line parses options
// with (border_names(), morphology_shape_names(), ...): printing a value then needs no list of
// its own that could drift from the parsing one. "unknown" for a value the map lacks.
template <typename Value>
std::string name_of(const std::map<std::string, Value>& names, Value value)
{
    for (const auto& [name, candidate] : names)
        if (candidate == value) return name;
    return "unknown";
}

}  // namespace sdk
