#include "filters/border.hpp"

namespace sdk {

const std::map<std::string, Border>& border_names()
{
    static const std::map<std::string, Border> names{{"replicate", Border::replicate},
                                                     {"reflect101", Border::reflect101},
                                                     {"constant", Border::constant},
                                                     {"none", Border::none}};
    return names;
}

std::string border_name(Border border)
{
    for (const auto& [name, value] : border_names())
        if (value == border) return name;
    return "unknown";
}

std::string border_build_option(Border border)
{
    return "-DBORDER=" + std::to_string(static_cast<int>(border));
}

std::ptrdiff_t border_coordinate(std::ptrdiff_t i, std::ptrdiff_t n, Border border)
{
    if (i >= 0 && i < n) return i;
    switch (border) {
    case Border::replicate: return i < 0 ? 0 : n - 1;
    case Border::reflect101:
        if (n == 1) return 0;
        return i < 0 ? -i : 2 * n - 2 - i;
    case Border::constant:
    case Border::none: break;
    }
    return -1;
}

}  // namespace sdk
