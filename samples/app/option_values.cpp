// SPDX-License-Identifier: Apache-2.0
#include "samples/app/option_values.hpp"

#include "common/runtime/errors.hpp"

#include <algorithm>
#include <cctype>
#include <exception>

namespace sdk {

CLI::Validator a_value(const std::string& when_empty)
{
    return CLI::Validator(
        [when_empty](std::string& text) { return text.empty() ? when_empty : std::string(); },
        "");  // no description: the option's type name (FILE, WxH, ...) says what it takes
}

CLI::Option* accept_names(CLI::Option* option, const std::vector<std::string>& names,
                          const std::function<std::string(const std::string&)>& value_of)
{
    std::string choices;
    for (const std::string& name : names) choices += (choices.empty() ? "" : "|") + name;
    option->type_name(choices);
    option->transform(CLI::Validator(
        [names, choices, value_of](std::string& text) {
            std::string lower = text;
            for (char& c : lower)
                c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
            if (std::find(names.begin(), names.end(), lower) == names.end())
                return "'" + text + "' is not one of " + choices;
            text = value_of ? value_of(lower) : lower;
            return std::string();
        },
        ""));  // no description: the type name already lists the names
    return option;
}

namespace {
bool parse_shape(const std::string& text, std::size_t& x, std::size_t& y)
{
    const auto separator = text.find('x');
    if (separator == std::string::npos || separator == 0 || separator + 1 == text.size())
        return false;
    try {
        std::size_t used_x = 0, used_y = 0;
        const std::string width = text.substr(0, separator), height = text.substr(separator + 1);
        x = std::stoul(width, &used_x);
        y = std::stoul(height, &used_y);
        return used_x == width.size() && used_y == height.size() && isdigit(width[0]) &&
               isdigit(height[0]) && x > 0 && y > 0 && x <= 4096 && y <= 4096;
    } catch (const std::exception&) {
        return false;
    }
}
}  // namespace

CLI::Validator work_group_validator()
{
    return CLI::Validator(
        [](std::string& text) {
            std::size_t x = 0, y = 0;
            return parse_shape(text, x, y) ? std::string() : "expected WxH, e.g. 32x8";
        },
        "");  // no description: the options name their type WxH
}

std::pair<std::size_t, std::size_t> parse_work_group(const std::string& text)
{
    std::size_t x = 0, y = 0;
    if (!parse_shape(text, x, y))
        throw UsageError("work-group shape '" + text + "': expected WxH, e.g. 32x8");
    return {x, y};
}

}  // namespace sdk
