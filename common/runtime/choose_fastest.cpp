// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/choose_fastest.hpp"

#include "common/runtime/profiling.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace sdk {

double ContestResult::margin() const
{
    if (!runner_up || median_ms[winner] <= 0) return 0;
    return median_ms[*runner_up] / median_ms[winner] - 1;
}

ContestResult decide(std::vector<double> median_ms, double tie_margin)
{
    if (median_ms.empty()) throw std::invalid_argument("no candidates to choose from");
    std::size_t fastest = 0;
    for (std::size_t i = 1; i < median_ms.size(); ++i)
        if (median_ms[i] < median_ms[fastest]) fastest = i;

    ContestResult result;
    result.median_ms = std::move(median_ms);
    const double limit = result.median_ms[fastest] * (1 + tie_margin);
    while (result.median_ms[result.winner] > limit) ++result.winner;  // stops at `fastest` at worst

    for (std::size_t i = 0; i < result.median_ms.size(); ++i) {
        if (i == result.winner) continue;
        if (!result.runner_up || result.median_ms[i] < result.median_ms[*result.runner_up])
            result.runner_up = i;
    }
    return result;
}

double time_turn(const std::function<std::vector<double>(unsigned)>& launch, const TurnRules& rules)
{
    const double first_ms = launch(1).at(0);
    if (first_ms >= rules.warm_below_ms || rules.max_launches < 2) return first_ms;
    // The warm-up done, the launches that count: enough for min_ms, at least one.
    const double wanted = first_ms > 0 ? std::ceil(rules.min_ms / first_ms) : rules.max_launches;
    const auto count = static_cast<unsigned>(
        std::clamp<double>(wanted, 1, static_cast<double>(rules.max_launches - 1)));
    return summarize(launch(count)).median;
}

ContestResult choose_fastest(std::size_t candidates,
                             const std::function<double(std::size_t)>& time_once,
                             const ContestRules& rules)
{
    if (rules.rounds == 0) throw std::invalid_argument("a contest needs at least one round");
    // The warm-up round is not counted: first launches pay for lazy compilation, allocation and
    // cold caches, and the first candidate would pay most of it.
    for (std::size_t i = 0; i < candidates; ++i) time_once(i);

    std::vector<std::vector<double>> times(candidates);
    for (unsigned round = 0; round < rules.rounds; ++round)
        for (std::size_t i = 0; i < candidates; ++i) times[i].push_back(time_once(i));

    std::vector<double> medians;
    for (auto& samples : times) medians.push_back(summarize(std::move(samples)).median);
    return decide(std::move(medians), rules.tie_margin);
}

}  // namespace sdk
