// SPDX-License-Identifier: Apache-2.0
#include "kernels/fir/fir_separable.hpp"

#include <cfloat>
#include <cmath>

namespace sdk {

std::optional<SeparableWeights> separate(const FirCoefficients& coefficients)
{
    const int k = coefficients.size;
    int p = 0, q = 0;
    for (int j = 0; j < k; ++j)
        for (int i = 0; i < k; ++i)
            if (std::fabs(coefficients.weight(j, i)) > std::fabs(coefficients.weight(p, q))) {
                p = j;
                q = i;
            }
    const double pivot = coefficients.weight(p, q);
    if (pivot == 0) return std::nullopt;

    SeparableWeights factors;
    for (int j = 0; j < k; ++j) factors.column.push_back(coefficients.weight(j, q));
    for (int i = 0; i < k; ++i) factors.row.push_back(coefficients.weight(p, i) / pivot);
    // Exactly separable within float rounding: the kernels multiply in float, so a weight off
    // by a few ulps of float changes no output beyond the tolerance (fir_tolerance), while any
    // real second rank (a 1e-5 relative change to one weight) is refused.
    constexpr double kUlps = 4 * FLT_EPSILON;
    for (int j = 0; j < k; ++j)
        for (int i = 0; i < k; ++i) {
            const double weight = coefficients.weight(j, i);
            const double product = factors.column[static_cast<std::size_t>(j)] *
                                   factors.row[static_cast<std::size_t>(i)];
            if (std::fabs(product - weight) > kUlps * std::fabs(weight)) return std::nullopt;
        }
    return factors;
}

std::string describe_separable(int size, bool in_local_memory)
{
    const std::string k = std::to_string(size);
    if (in_local_memory)
        return "separable: " + k + "x1 row sums into local memory, then 1x" + k +
               " column sums, one kernel";
    return "separable: " + k + "x1 row pass then 1x" + k + " column pass";
}

}  // namespace sdk
