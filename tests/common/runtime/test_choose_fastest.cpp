// SPDX-License-Identifier: Apache-2.0
// The tuner's decision rule, with a fake timer: candidates' true times plus injected noise. No
// timing assertions: the "times" are numbers the test makes up.
#include "common/runtime/choose_fastest.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <random>
#include <stdexcept>
#include <vector>

namespace sdk {
namespace {

// A timer for candidates whose undisturbed times are `true_ms`, with a few percent of jitter.
// Every call is numbered, so a test can put a burst of load on chosen calls.
class FakeTimer {
public:
    explicit FakeTimer(std::vector<double> true_ms) : true_ms_(std::move(true_ms)) {}

    // Calls first..first+count-1 (counted from 0, the warm-up round included) take `extra_ms`
    // longer: another process busy on the same cores for a moment.
    void add_noisy_moment(std::size_t first, std::size_t count, double extra_ms)
    {
        noisy_first_ = first;
        noisy_count_ = count;
        noisy_extra_ms_ = extra_ms;
    }

    double operator()(std::size_t candidate)
    {
        const std::size_t call = calls_.size();
        calls_.push_back(candidate);
        double ms = true_ms_.at(candidate) * jitter_(generator_);
        if (call >= noisy_first_ && call < noisy_first_ + noisy_count_) ms += noisy_extra_ms_;
        return ms;
    }

    const std::vector<std::size_t>& calls() const { return calls_; }

private:
    std::vector<double> true_ms_;
    std::vector<std::size_t> calls_;
    std::mt19937 generator_{7};
    std::uniform_real_distribution<double> jitter_{0.99, 1.01};
    std::size_t noisy_first_ = 0;
    std::size_t noisy_count_ = 0;
    double noisy_extra_ms_ = 0;
};

ContestResult run(FakeTimer& timer, std::size_t candidates, ContestRules rules = {})
{
    return choose_fastest(
        candidates, [&](std::size_t i) { return timer(i); }, rules);
}

void expect_places(const ContestResult& result, std::size_t winner, std::size_t runner_up)
{
    EXPECT_EQ(result.winner, winner);
    ASSERT_TRUE(result.runner_up);
    EXPECT_EQ(*result.runner_up, runner_up);
}

TEST(ChooseFastest, TimesTheCandidatesRoundRobinAfterAWarmUpRound)
{
    FakeTimer timer({1, 2, 3});
    run(timer, 3, ContestRules{4, 0.05});
    ASSERT_EQ(timer.calls().size(), 3u * 5);  // warm-up + 4 rounds
    for (std::size_t call = 0; call < timer.calls().size(); ++call)
        EXPECT_EQ(timer.calls()[call], call % 3) << "call " << call;
}

TEST(ChooseFastest, PicksTheFastest)
{
    FakeTimer timer({2.0, 1.0, 1.5});
    const ContestResult result = run(timer, 3);
    expect_places(result, 1, 2);
    EXPECT_NEAR(result.margin(), 0.5, 0.05);
    ASSERT_EQ(result.median_ms.size(), 3u);
    EXPECT_NEAR(result.median_ms[0], 2.0, 0.03);
}

TEST(ChooseFastest, ANoisyMomentDoesNotDecide)
{
    // Candidate 1 is fastest. A burst of load covers calls 8-13: had the candidates been timed
    // one after another (warm-up and 5 runs each), it would have covered all of candidate 1's
    // runs and candidate 0 would have won. Round-robin spreads it over all three, at most two
    // rounds of five each, and the median ignores those.
    FakeTimer timer({1.0, 0.8, 1.2});
    timer.add_noisy_moment(8, 6, 10.0);
    EXPECT_EQ(run(timer, 3).winner, 1u);
}

TEST(ChooseFastest, OneWildRoundPerCandidateDoesNotDecide)
{
    // A slow and a lucky outlier per candidate: the median of 5 rounds keeps neither.
    const std::vector<double> true_ms{1.0, 0.9, 1.1};
    std::size_t call = 0;
    const ContestResult result = choose_fastest(3, [&](std::size_t i) {
        const std::size_t round = call++ / 3;
        if (round == 1 + i) return true_ms[i] * 20;  // one very slow round each
        if (round == 2 + i && i != 1) return 0.01;   // the others each get one impossibly fast one
        return true_ms[i];
    });
    EXPECT_EQ(result.winner, 1u);
}

TEST(ChooseFastest, ATieGoesToTheSimplerCandidate)
{
    // Candidate 2 is 3% faster than candidate 0: within the 5% margin, so 0 (listed first, the
    // simpler) wins, and the margin says it is behind.
    FakeTimer timer({1.03, 1.5, 1.0});
    const ContestResult result = run(timer, 3);
    expect_places(result, 0, 2);
    EXPECT_LT(result.margin(), 0.0);
}

// A turn's launches, from a fake timer: `first_ms` for the first, then `rest_ms`, and the
// counts asked for.
struct FakeLaunches {
    explicit FakeLaunches(std::vector<double> times) : times_ms(std::move(times)) {}
    std::vector<double> times_ms;
    std::vector<unsigned> asked;
    std::size_t next = 0;
    std::vector<double> operator()(unsigned count)
    {
        asked.push_back(count);
        std::vector<double> ms;
        for (unsigned i = 0; i < count; ++i) ms.push_back(times_ms.at(next++ % times_ms.size()));
        return ms;
    }
};

TEST(TimeTurn, TheFirstLaunchOnlyWarmsUp)
{
    // A 2.5 ms kernel whose first launch of the turn finds a cold cache: the second counts.
    FakeLaunches launches({4.0, 2.5});
    EXPECT_EQ(time_turn(std::ref(launches)), 2.5);
    EXPECT_EQ(launches.asked, (std::vector<unsigned>{1, 1}));
}

TEST(TimeTurn, ALaunchOfTenMillisecondsOrMoreCountsAsItIs)
{
    FakeLaunches launches({12.0, 11.0});
    EXPECT_EQ(time_turn(std::ref(launches)), 12.0);
    EXPECT_EQ(launches.asked, (std::vector<unsigned>{1}));
    FakeLaunches just_under({9.5, 9.0});
    EXPECT_EQ(time_turn(std::ref(just_under)), 9.0);
    EXPECT_EQ(just_under.asked, (std::vector<unsigned>{1, 1}));
}

TEST(TimeTurn, AShortKernelRunsUntilTheFirstLaunchSaysOneMillisecond)
{
    // 0.05 ms: the warm-up, then 20 launches back to back make 1 ms.
    FakeLaunches launches({0.05});
    EXPECT_DOUBLE_EQ(time_turn(std::ref(launches)), 0.05);
    EXPECT_EQ(launches.asked, (std::vector<unsigned>{1, 20}));
}

TEST(TimeTurn, TheMedianKeepsNeitherAJitteryLaunchNorALuckyOne)
{
    // A 0.1 ms kernel whose first launch and every fourth after pay 0.3 ms of launch jitter, and
    // one launch impossibly fast: one launch alone would have said 0.4 ms.
    FakeLaunches launches({0.4, 0.4, 0.1, 0.01});
    EXPECT_DOUBLE_EQ(time_turn(std::ref(launches)), 0.1);
    EXPECT_EQ(launches.asked, (std::vector<unsigned>{1, 3}));  // 0.4 ms first: 3 make 1.2 ms

    FakeLaunches short_first({0.1, 0.4, 0.1, 0.1, 0.4, 0.1, 0.01, 0.1, 0.1, 0.4, 0.1});
    EXPECT_DOUBLE_EQ(time_turn(std::ref(short_first)), 0.1);
    EXPECT_EQ(short_first.asked, (std::vector<unsigned>{1, 10}));
}

TEST(TimeTurn, TheCapHoldsEvenForAKernelOfNoTime)
{
    FakeLaunches launches({0.0});
    EXPECT_EQ(time_turn(std::ref(launches), TurnRules{1.0, 50}), 0.0);
    EXPECT_EQ(launches.asked, (std::vector<unsigned>{1, 49}));
    FakeLaunches once({0.001});
    time_turn(std::ref(once), TurnRules{1.0, 1});
    EXPECT_EQ(once.asked, (std::vector<unsigned>{1}));
}

TEST(TimeTurn, InAContestJitteryShortKernelsAreRankedByTheirMedians)
{
    // Two 0.05 and 0.06 ms kernels whose launches jitter by up to +0.2 ms now and then (one in
    // five): judged on one launch a round, a round's jitter decides; with 1 ms turns the faster
    // wins every time.
    for (std::uint32_t seed = 1; seed <= 20; ++seed) {
        std::mt19937 generator(seed);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        const std::vector<double> true_ms{0.06, 0.05};
        const ContestResult result = choose_fastest(2, [&](std::size_t i) {
            return time_turn([&](unsigned count) {
                std::vector<double> ms;
                for (unsigned n = 0; n < count; ++n)
                    ms.push_back(true_ms[i] + (unit(generator) < 0.2 ? 0.2 * unit(generator) : 0));
                return ms;
            });
        });
        EXPECT_EQ(result.winner, 1u) << "seed " << seed;
    }
}

TEST(TimeTurn, InAContestTheOrderOfTurnsDoesNotDecide)
{
    // Candidate 0 (1.0 ms) has more data than the cache holds: a launch after the other
    // candidate's pays 0.8 ms to bring it back, candidate 1's (1.1 ms) only 0.05. Judged on
    // the first launch of each turn, 1 would win; after the warm-up, 0 wins, by 10%.
    const std::vector<double> true_ms{1.0, 1.1}, cold_ms{0.8, 0.05};
    std::optional<std::size_t> last;
    const ContestResult result = choose_fastest(2, [&](std::size_t i) {
        return time_turn([&](unsigned count) {
            std::vector<double> ms;
            for (unsigned n = 0; n < count; ++n) {
                ms.push_back(true_ms[i] + (last != i ? cold_ms[i] : 0));
                last = i;
            }
            return ms;
        });
    });
    EXPECT_EQ(result.winner, 0u);
    EXPECT_NEAR(result.margin(), 0.1, 1e-9);
}

TEST(Decide, TheEarliestWithinTheMarginWins)
{
    EXPECT_EQ(decide({1.04, 1.0}, 0.05).winner, 0u);
    EXPECT_EQ(decide({1.06, 1.0}, 0.05).winner, 1u);
    EXPECT_EQ(decide({1.06, 1.0}, 0.0).winner, 1u);
    EXPECT_EQ(decide({1.0, 1.0}, 0.0).winner, 0u);  // an exact tie too
    // The earliest of those within the margin, not the second fastest.
    EXPECT_EQ(decide({3.0, 1.04, 1.02, 1.0}, 0.05).winner, 1u);
}

TEST(Decide, MarginOverTheRunnerUp)
{
    const ContestResult result = decide({1.0, 1.5, 1.2}, 0.05);
    expect_places(result, 0, 2);
    EXPECT_NEAR(result.margin(), 0.2, 1e-9);
}

TEST(Decide, OneCandidateHasNoRunnerUp)
{
    const ContestResult result = decide({2.0}, 0.05);
    EXPECT_EQ(result.winner, 0u);
    EXPECT_FALSE(result.runner_up);
    EXPECT_EQ(result.margin(), 0.0);
}

TEST(Decide, RefusesNothingToChooseFrom)
{
    EXPECT_THROW(decide({}, 0.05), std::invalid_argument);
    EXPECT_THROW(choose_fastest(0, [](std::size_t) { return 1.0; }), std::invalid_argument);
    EXPECT_THROW(choose_fastest(
                     2, [](std::size_t) { return 1.0; }, ContestRules{0, 0.05}),
                 std::invalid_argument);
}

}  // namespace
}  // namespace sdk
