// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace sdk {

// How a tuner decides which of several ways to run the same work is fastest, so that a noisy
// moment cannot decide. The candidates are timed round-robin (candidate 0, 1, 2, ..., then again),
// so a burst of load from another process lands on every candidate at most once per round
// instead of on all the runs of one; each candidate's figure is the median of its rounds, which
// one slow round cannot move.
struct ContestRules {
    unsigned rounds = 5;       // timed rounds, after one untimed warm-up round
    double tie_margin = 0.05;  // within 5% of the fastest counts as a tie
};

struct ContestResult {
    std::vector<double> median_ms;  // per candidate, in the order given
    std::size_t winner = 0;
    // The fastest of the others, to say by how much the winner won; none with one candidate.
    std::optional<std::size_t> runner_up;
    // How much longer the runner-up took than the winner: 0.12 is 12%. Negative when the winner
    // is a simpler candidate that tied with a faster one (it is then at most tie_margin slower).
    double margin() const;
};

// Candidates must be given simplest first: a tie goes to the earliest, so a difference the
// measurement cannot resolve never buys complexity (a packed kernel, an unusual work-group).
// `time_once(i)` runs candidate i once and returns its time in ms.
ContestResult choose_fastest(std::size_t candidates,
                             const std::function<double(std::size_t)>& time_once,
                             const ContestRules& rules = {});

// One candidate's turn in a round. Its first launch only warms up: it finds the caches as the
// previous candidate left them, full of other buffers, while the sample's runs (`-n N`) and
// the kernels that feed it leave a kernel's input where the next launch reads it. Where the
// buffers outgrow the cache, a kernel launched after another variant's can take half as long
// again as after one on its own buffers: the order of the turns, not the kernels, would decide
// (docs/history.md). The first launch also says how many more make up `min_ms`
// of kernel time (at most `max_launches` in all, the warm-up included), so that a short kernel
// is not judged on one launch's jitter (a 20 microsecond kernel may take 40 now and then);
// those run back to back and the turn's figure is their median: a 2 ms kernel runs twice and
// counts the second, a 50 microsecond one 1 + 20 times. A first launch of `warm_below_ms` or
// more counts as it is: a kernel that long streams far more than any cache holds, and a second
// launch would double the tuning of the largest images.
struct TurnRules {
    double min_ms = 1.0;
    unsigned max_launches = 100;  // a turn's cap, whatever the kernel's time (even 0)
    double warm_below_ms = 10.0;
};
// `launch(n)` runs the candidate n times back to back and returns each launch's kernel time
// in ms.
double time_turn(const std::function<std::vector<double>(unsigned)>& launch,
                 const TurnRules& rules = {});

// The decision alone, from each candidate's median: the earliest candidate within tie_margin of
// the fastest wins.
ContestResult decide(std::vector<double> median_ms, double tie_margin);

}  // namespace sdk
