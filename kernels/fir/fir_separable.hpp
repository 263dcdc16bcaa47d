// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "kernels/fir/fir_coefficients.hpp"

#include <optional>
#include <string>
#include <vector>

namespace sdk {

// A KxK window whose weights are an outer product, weight(j, i) = column[j] * row[i] (a box or
// Gaussian blur, a Sobel mask), filters in two 1-D passes: each row with `row`, then each
// column of that result with `column`. 2K multiplies per output instead of K*K: 30 instead of
// 225 for 15x15.
struct SeparableWeights {
    std::vector<double> column;  // K, top to bottom
    std::vector<double> row;     // K, left to right
};

// The factors, when every weight is reproduced by its product within 4 float ulps (relative;
// a zero weight only by an exact zero), else nothing (rank 2 or more, or all weights 0). The
// factors come from the weight of largest magnitude, weight(p, q): column[j] = weight(j, q) and
// row[i] = weight(p, i) / weight(p, q), so no tiny weight is ever divided by.
std::optional<SeparableWeights> separate(const FirCoefficients& coefficients);

// The sample's line: "separable: 15x1 row pass then 1x15 column pass", or with the row sums in
// local memory (the local variant) "separable: 15x1 row sums into local memory, then 1x15 column
// sums, one kernel".
std::string describe_separable(int size, bool in_local_memory = false);

}  // namespace sdk
