// SPDX-License-Identifier: Apache-2.0
#pragma once
// Checks and parsers for option values that several samples' options share: a value that may not
// be empty, one of a list of names, a work-group shape.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace sdk {

// The check for an option whose value may not be empty: CLI11 took '' as the option's default,
// so `--device ''` or `--roi ''` ran as if the option were left out. `when_empty` is the refusal.
CLI::Validator a_value(const std::string& when_empty = "an empty value");

// Adds the option `names` (such as "-d,--device") that parses into `value` and takes a value that
// may not be empty (a_value); its help shows `description`, and `type_name` (such as "N" or
// "WxH") as what it takes.
template <typename T>
CLI::Option* add_value_option(CLI::App& app, const std::string& names, T& value,
                              const std::string& description, const std::string& type_name)
{
    return app.add_option(names, value, description)->type_name(type_name)->check(a_value());
}

// Makes `option` take one of `names` (case ignored): its help shows "a|b|c" and a wrong value is
// refused naming them, where CLI11's own checks print their maps ("{cpu->1,...} OR {1,...}", and
// took the numbers too). `value_of`, when given, turns a name into what the option parses.
CLI::Option* accept_names(CLI::Option* option, const std::vector<std::string>& names,
                          const std::function<std::string(const std::string&)>& value_of = {});

// The same for an enum option, named by a table such as border_names().
template <typename Enum>
CLI::Option* accept_names(CLI::Option* option, const std::map<std::string, Enum>& table)
{
    std::vector<std::string> names;
    for (const auto& entry : table) names.push_back(entry.first);
    return accept_names(option, names, [table](const std::string& name) {
        return std::to_string(static_cast<std::underlying_type_t<Enum>>(table.at(name)));
    });
}

// A work-group shape "WxH" such as "32x8": the validator for options, and its parsed value.
CLI::Validator work_group_validator();
std::pair<std::size_t, std::size_t> parse_work_group(const std::string& text);

}  // namespace sdk
