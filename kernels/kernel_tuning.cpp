// SPDX-License-Identifier: Apache-2.0
#include "kernels/kernel_tuning.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/profiling.hpp"
#include "common/runtime/transfers.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <cstdlib>

namespace sdk {

namespace {

std::string milliseconds(double ms)
{
    char text[32];
    std::snprintf(text, sizeof text, ms < 1 ? "%.3f ms" : "%.2f ms", ms);
    return text;
}

// "1 candidate", "3 candidates"
std::string count(std::size_t n, const std::string& noun)
{
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

}  // namespace

std::string shape_text(const WorkGroupShape& shape)
{
    return std::to_string(shape.x) + "x" + std::to_string(shape.y);
}

std::optional<WorkGroupShape> parse_cached_shape(const std::string& text)
{
    const auto shape = parse_work_group_shape(text, kMaxGroupItems);
    if (!shape) return std::nullopt;
    return WorkGroupShape{shape->first, shape->second};
}

std::vector<WorkGroupShape> work_group_candidates(WorkGroupShape preferred)
{
    static const std::vector<WorkGroupShape> shapes{{32, 8},  {32, 4},  {64, 4},
                                                    {128, 1}, {16, 16}, {32, 1}};
    std::vector<WorkGroupShape> candidates{preferred};
    for (const auto& shape : shapes)
        if (shape.x != preferred.x || shape.y != preferred.y) candidates.push_back(shape);
    return candidates;
}

std::vector<WorkGroupShape> runnable_shapes(
    const std::vector<WorkGroupShape>& shapes,
    const std::function<void(std::size_t, std::size_t)>& set_work_group)
{
    std::vector<WorkGroupShape> runnable;
    for (const auto& shape : shapes) {
        try {
            set_work_group(shape.x, shape.y);
            runnable.push_back(shape);
        } catch (const UsageError&) {
            // too large for this kernel on this device: not a candidate here
        }
    }
    return runnable;
}

void fill_random(const OpenClContext& cl, const cl::Buffer& buffer, RandomValues values)
{
    const std::size_t bytes =
        while_doing("asking a tuning buffer's size", [&] { return buffer.getInfo<CL_MEM_SIZE>(); });
    std::mt19937_64 generator(1);
    const std::size_t value_bytes = values == RandomValues::floats ? sizeof(float) : 1;
    // A photo's values: smooth ramps up and down (a triangle wave 1021 values long, so that it
    // drifts against any row length) with grain of +-8 on top, every byte written: no value is
    // left for a float's NaN or denormal, which change a kernel's speed on some devices.
    constexpr std::size_t kRamp = 1021;
    const auto pixel = [](std::size_t index, std::uint64_t grain) {
        const std::size_t phase = index % (2 * kRamp);
        const int ramp =
            static_cast<int>((phase < kRamp ? phase : 2 * kRamp - 1 - phase) * 240 / kRamp);
        return static_cast<std::uint8_t>(
            std::clamp(ramp + 8 + static_cast<int>(grain & 15) - 8, 0, 255));
    };
    // Eight values a draw: the largest class's confirmation fills a whole image's buffers.
    const auto fill = [&](unsigned char* piece, std::size_t offset, std::size_t size) {
        if (offset % value_bytes != 0 || size % value_bytes != 0)
            throw std::logic_error("fill_random: a piece that cuts a float in two");
        for (std::size_t i = 0; i < size; i += 8 * value_bytes) {
            std::uint64_t bits = generator();
            for (std::size_t k = 0; k < 8 && i + k * value_bytes < size; ++k, bits >>= 8) {
                unsigned char* value = piece + i + k * value_bytes;
                const std::uint8_t grey = pixel((offset + i) / value_bytes + k, bits);
                if (values == RandomValues::bytes) {
                    *value = grey;
                } else {
                    const float as_float = grey;
                    std::memcpy(value, &as_float, sizeof as_float);
                }
            }
        }
    };
    // Written a piece at a time (clEnqueueWriteBuffer), on every device: oclgrind takes bytes
    // the host writes into a mapped buffer (a pinned chunk's too) for unwritten ones, and would
    // report every candidate's reads of them; pieces keep the host from holding the whole image.
    constexpr std::size_t kPieceBytes = std::size_t{1} << 20;  // a multiple of 8 floats
    std::vector<unsigned char> piece(std::min(bytes, kPieceBytes));
    for (std::size_t offset = 0; offset < bytes; offset += piece.size()) {
        const std::size_t size = std::min(piece.size(), bytes - offset);
        fill(piece.data(), offset, size);
        while_doing("writing the tuning's photo-like pixels", [&] {
            cl.queue.enqueueWriteBuffer(buffer, CL_TRUE, offset, size, piece.data());
        });
    }
}

TuningRecipe<WorkGroupShape> work_group_recipe(std::string key)
{
    TuningRecipe<WorkGroupShape> recipe;
    recipe.key = std::move(key);
    recipe.parse = parse_cached_shape;
    recipe.format = shape_text;
    return recipe;
}

double run_span_ms(const LaunchedRun& run)
{
    const cl_ulong start = run.first.getProfilingInfo<CL_PROFILING_COMMAND_START>();
    const cl_ulong end = run.last.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    // 0 where the device reports no times (a span of a nanosecond is a counter: profiling.cpp).
    return end > start + 1 ? static_cast<double>(end - start) * 1e-6 : 0.0;
}

namespace {

ContestResult contest(std::size_t candidates, const std::function<LaunchedRun(std::size_t)>& launch,
                      const ContestRules& rules)
{
    return choose_fastest(
        candidates,
        [&](std::size_t i) {
            // Back to back, then waited for together: the host's round trip between launches
            // would cost more than a short kernel.
            return time_turn([&](unsigned count) {
                std::vector<LaunchedRun> runs;
                std::vector<cl::Event> ends;
                const auto start = std::chrono::steady_clock::now();
                for (unsigned n = 0; n < count; ++n) {
                    runs.push_back(launch(i));
                    ends.push_back(runs.back().last);
                }
                cl::Event::waitForEvents(ends);
                std::vector<double> ms;
                for (const auto& run : runs) ms.push_back(run_span_ms(run));
                if (std::all_of(ms.begin(), ms.end(), [](double run_ms) { return run_ms <= 0; })) {
                    // A device that reports no profiling times (Mesa's rusticl): the host's
                    // clock over the turn's launches, shared out.
                    const double host_ms = std::chrono::duration<double, std::milli>(
                                               std::chrono::steady_clock::now() - start)
                                               .count();
                    ms.assign(count, host_ms / count);
                }
                return ms;
            });
        },
        rules);
}

}  // namespace

void run_contest(TuningOutcome& outcome, std::size_t candidates,
                 const std::function<LaunchedRun(std::size_t)>& launch, bool ties_to_the_simpler)
{
    ContestRules rules;
    if (!ties_to_the_simpler) rules.tie_margin = 0;
    outcome.rounds = rules.rounds;
    outcome.contest = contest(candidates, launch, rules);
}

std::vector<std::size_t> finalists_of(const ContestResult& result, const std::vector<int>& families)
{
    const std::vector<double>& ms = result.median_ms;
    std::vector<std::size_t> by_speed(ms.size());
    for (std::size_t i = 0; i < by_speed.size(); ++i) by_speed[i] = i;
    std::stable_sort(by_speed.begin(), by_speed.end(),
                     [&](std::size_t a, std::size_t b) { return ms[a] < ms[b]; });
    std::vector<bool> chosen(ms.size(), false);
    for (std::size_t k = 0; k < by_speed.size() && k < 3; ++k) chosen[by_speed[k]] = true;
    chosen[result.winner] = true;  // a tie may have given it to a slower, simpler one
    std::vector<bool> family_seen;
    for (const std::size_t i : by_speed) {  // fastest first: each family's first is its best
        const auto family = static_cast<std::size_t>(i < families.size() ? families[i] : 0);
        if (family >= family_seen.size()) family_seen.resize(family + 1, false);
        if (!family_seen[family]) chosen[i] = true;
        family_seen[family] = true;
    }
    std::vector<std::size_t> finalists;
    for (std::size_t i = 0; i < chosen.size(); ++i)
        if (chosen[i]) finalists.push_back(i);
    return finalists;
}

void run_confirmation(TuningOutcome& outcome, const std::function<LaunchedRun(std::size_t)>& launch)
{
    ContestRules rules;
    rules.rounds = 3;
    outcome.confirmation = contest(outcome.finalists.size(), launch, rules);
}

std::function<std::vector<std::vector<WorkGroupShape>>(const std::optional<WorkGroupShape>&)>
one_stage(std::vector<WorkGroupShape> shapes)
{
    return [shapes](const std::optional<WorkGroupShape>&) {
        return std::vector<std::vector<WorkGroupShape>>{shapes};
    };
}

double tuning_budget_ms(std::size_t width, std::size_t height)
{
    if (const char* forced = std::getenv("SDK_TUNING_BUDGET_MS"); forced && *forced) {
        char* end = nullptr;
        const double ms = std::strtod(forced, &end);
        if (*end == '\0' && ms >= 0) return ms;
    }
    const double megapixels = static_cast<double>(width) * static_cast<double>(height) / 1e6;
    return std::min(250.0 + 30.0 * megapixels, 5000.0);
}

namespace {
const std::string kProgress = "\tmeasured ";
}

CachedTuning split_cached_tuning(const std::string& value)
{
    const std::size_t at = value.rfind(kProgress);
    if (at == std::string::npos) return {value, std::nullopt};
    // "measured K of N": K counts the candidates done; N is said for the reader.
    const std::string progress = value.substr(at + kProgress.size());
    std::size_t measured = 0, total = 0;
    char tail = 0;
    if (std::sscanf(progress.c_str(), "%zu of %zu%c", &measured, &total, &tail) != 2 ||
        measured >= total)
        return {value, std::nullopt};  // not ours: the recipe's parse refuses it
    return {value.substr(0, at), measured};
}

std::string join_cached_tuning(const std::string& choice, std::size_t measured, std::size_t total)
{
    return choice + kProgress + std::to_string(measured) + " of " + std::to_string(total);
}

std::string describe_tuning_start(const SizeClass& size_class, std::size_t left, std::size_t total,
                                  double budget_ms)
{
    std::string text = "Tuning for " + describe(size_class) + ": ";
    if (std::isinf(budget_ms))
        return text + "measuring all " + std::to_string(left) + " candidates left of " +
               std::to_string(total) + " (each is built, then timed)";
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%.1f s", budget_ms / 1000);
    return text + "measuring for about " + seconds + ", " + std::to_string(left) + " of " +
           std::to_string(total) + " candidates left (later runs measure the rest)";
}

std::string describe_measurement(const TuningOutcome& outcome, const std::string& runner_up)
{
    const ContestResult& contest = outcome.contest;
    if (!outcome.not_measured.empty())
        return "Tuning: nothing measured now (" + outcome.not_measured + "): " +
               (outcome.measured == 0 ? std::string("the default runs")
                                      : "the default runs until the tuning has finished (" +
                                            std::to_string(outcome.measured) + " of " +
                                            std::to_string(outcome.total) + " measured)");
    if (contest.median_ms.empty()) return "Tuning: the choice came from the cache";
    std::string text = "Tuned for " + describe(outcome.size_class) + " on a " +
                       std::to_string(outcome.measured_size.width) + "x" +
                       std::to_string(outcome.measured_size.height) +
                       " image: " + count(outcome.measured_now, "candidate") + " measured in " +
                       std::to_string(static_cast<int>(outcome.seconds * 1000)) + " ms, " +
                       std::to_string(outcome.measured) + " of " + std::to_string(outcome.total) +
                       (outcome.finished() ? " (tuning finished)"
                                           : " so far (the default runs until it has finished)") +
                       "; ";
    text += "against the best so far, " + std::to_string(outcome.rounds) +
            " rounds each: the winner " + milliseconds(contest.median_ms[contest.winner]);
    if (!contest.runner_up) return text + ", the only candidate";
    const std::string other =
        runner_up + " (" + milliseconds(contest.median_ms[*contest.runner_up]);
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f%%", 100 * std::abs(contest.margin()));
    if (contest.margin() >= 0) return text + ", " + percent + " ahead of " + other + ")";
    return text + ", tied with " + other + ", " + percent + " faster), which goes to the simpler";
}

std::string describe_confirmation(const TuningOutcome& outcome, const std::string& winner,
                                  const std::string& runner_up)
{
    const ContestResult& contest = outcome.confirmation;
    if (!outcome.confirmed_size || contest.median_ms.empty()) return "";
    std::string text = "; then " + std::to_string(outcome.finalists.size()) + " finalists on the " +
                       std::to_string(outcome.confirmed_size->width) + "x" +
                       std::to_string(outcome.confirmed_size->height) +
                       " image itself, 3 rounds: " + winner + " " +
                       milliseconds(contest.median_ms[contest.winner]);
    if (!contest.runner_up) return text;
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f%%", 100 * std::abs(contest.margin()));
    const std::string other =
        runner_up + " (" + milliseconds(contest.median_ms[*contest.runner_up]) + ")";
    return text + (contest.margin() >= 0 ? ", " + std::string(percent) + " ahead of " + other
                                         : ", tied with " + other + ", which goes to the simpler");
}

std::string describe_cache_use(const TuningOutcome& result)
{
    const std::string path = tuning_cache_path().string();
    if (path.empty())
        return "(not cached: no cache folder; set SDK_TUNING_CACHE, XDG_CACHE_HOME or HOME)";
    if (result.from_cache) return "(from the tuning cache " + path + ")";
    if (!result.not_measured.empty()) return "(nothing measured, nothing cached)";
    return (result.cached ? "(cached in " : "(not cached: cannot write ") + path + ")";
}

}  // namespace sdk
