// SPDX-License-Identifier: Apache-2.0
#include "samples/fir_float/coefficients_file.hpp"

#include "common/runtime/errors.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

namespace sdk {

namespace {

std::filesystem::path located(const std::filesystem::path& file,
                              const std::filesystem::path& executable_folder)
{
    std::error_code error;
    if (file.is_absolute() || std::filesystem::exists(file, error)) return file;
    const std::filesystem::path beside = executable_folder / file;
    return std::filesystem::exists(beside, error) ? beside : file;
}

}  // namespace

std::string coefficients_text(const std::string& option, int size,
                              const std::filesystem::path& executable_folder)
{
    if (option.empty() || option[0] != '@') return option;
    const std::string named = option.substr(1);
    const std::string where = "--coefficients @" + named;
    if (named.empty()) throw UsageError(where + ": no file named after the @");
    const std::filesystem::path path = located(named, executable_folder);
    std::error_code error;
    if (std::filesystem::is_directory(path, error))
        throw UsageError(where + ": a folder, not a file of weights");
    errno = 0;
    std::ifstream file(path);
    if (!file)
        throw UsageError(where + ": cannot read it (" +
                         (errno ? std::strerror(errno) : "cannot open") + ")");

    std::string numbers;
    std::size_t count = 0;
    std::size_t line_number = 0;
    for (std::string line; std::getline(file, line);) {
        ++line_number;
        line = line.substr(0, line.find('#'));
        for (char& c : line)
            if (c == ',' || c == '\t' || c == '\r') c = ' ';
        std::istringstream words(line);
        for (std::string word; words >> word;) {
            // The same numbers --coefficients takes: decimal, finite, nothing after them.
            char* end = nullptr;
            errno = 0;
            const double value = std::strtod(word.c_str(), &end);
            const bool hexadecimal = word.find_first_of("xX") != std::string::npos;
            if (end != word.c_str() + word.size() || hexadecimal || !std::isfinite(value) ||
                errno == ERANGE)
                throw UsageError(where + ": line " + std::to_string(line_number) + ": '" + word +
                                 "' is not a number");
            numbers += (count++ ? "," : "") + word;
        }
    }
    if (file.bad()) throw UsageError(where + ": cannot read it to the end");
    const auto wanted = static_cast<std::size_t>(size) * static_cast<std::size_t>(size);
    if (count != wanted)
        throw UsageError(where + ": " + std::to_string(count) + " numbers, and --size " +
                         std::to_string(size) + " takes " + std::to_string(wanted));
    return numbers;
}

}  // namespace sdk
