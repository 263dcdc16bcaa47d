// SPDX-License-Identifier: Apache-2.0
#include "fir_test_support.hpp"

#include "common/runtime/errors.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <tuple>

namespace sdk::test {

bool runs_here(FirFilter& filter, const FirChoice& choice)
{
    try {
        filter.set_work_group(choice.group_x, choice.group_y);
        return true;
    } catch (const UsageError& error) {
        const std::string message = error.what();
        EXPECT_TRUE(message.find("bytes of local memory") != std::string::npos ||
                    message.find("work-items a group") != std::string::npos)
            << message;
        return false;
    }
}

FirFilter& filter_for(Border border, MemoryMode memory, int size, FirVariant variant)
{
    static auto* filters =
        new std::map<std::tuple<Border, MemoryMode, int, FirVariant>, std::unique_ptr<FirFilter>>;
    auto& filter = (*filters)[{border, memory, size, variant}];
    if (!filter)
        filter = std::make_unique<FirFilter>(test_context(), border, random_coefficients(0, size),
                                             memory, variant);
    return *filter;
}

std::vector<float> run_on_device(FirFilter& filter, const FirCoefficients& coefficients,
                                 const Image& image, float poison)
{
    filter.set_coefficients(coefficients);
    filter.upload(image);
    filter.fill_output(poison);
    filter.run();
    return filter.download();
}

FirCoefficients random_coefficients(std::uint32_t seed, int size)
{
    std::mt19937 generator(seed);
    std::uniform_real_distribution<double> numerator(-128.0, 128.0);
    FirCoefficients coefficients;
    coefficients.size = size;
    coefficients.numerators.resize(static_cast<std::size_t>(size * size));
    for (auto& value : coefficients.numerators) value = numerator(generator);
    return coefficients;
}

FirCoefficients outer_product(std::uint32_t seed, int size, bool with_zeros)
{
    std::mt19937 generator(seed);
    std::uniform_real_distribution<double> factor(-4.0, 4.0);
    std::vector<double> column, row;
    for (int i = 0; i < size; ++i) {
        column.push_back(with_zeros && i % 3 == 0 ? 0.0 : factor(generator));
        row.push_back(with_zeros && i % 4 == 1 ? 0.0 : factor(generator));
    }
    FirCoefficients coefficients;
    coefficients.size = size;
    coefficients.numerators.clear();
    for (const double c : column)
        for (const double r : row) coefficients.numerators.push_back(c * r * 8);
    return coefficients;
}

}  // namespace sdk::test
