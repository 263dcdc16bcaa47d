// SPDX-License-Identifier: Apache-2.0
// The benchmark suite (Google Benchmark): every kernel variant on every size, timed on the device
// by its profiling event (START..END, manual time), against the device's own buffer copy as the
// yardstick; the same filters through OpenCV on the CPU when it is built in; and each sample's
// whole pipeline (upload, kernels, download) and start-up on the host's clock, which on small
// images can cost more than the kernel; and encoding a PNG output on the host's cores.
//
//   bench [-p N] [-d N] [-t cpu|gpu|all] [--sizes 512x512,3264x2448] [--benchmark_* flags]
//
// Counters: median_ms (median iteration), Mpix/s, GB/s of the bytes the kernel must move (each
// input read once, each output written once) and copy_fraction, that over copy_bandwidth's GB/s.
#include "bench_support.hpp"
#include "file_runs.hpp"
#include "jpeg_decoding.hpp"
#include "png_encoding.hpp"
#include "common/runtime/errors.hpp"
#include "samples/app/cli.hpp"
#include "kernels/fir/fir_filter.hpp"
#include "kernels/fir/fir_tuning.hpp"
#include "kernels/morphology/morphology_filter.hpp"
#include "kernels/morphology/morphology_tuning.hpp"
#include "kernels/sobel/sobel_filter.hpp"
#include "kernels/image_views.hpp"
#include "kernels/sobel/sobel_tuning.hpp"
#include "common/runtime/transfers.hpp"
#include "common/runtime/profiling.hpp"
#include "common/runtime/program.hpp"
#ifdef SDK_BENCH_OPENCV
#include "opencv_baselines.hpp"
#endif

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace sdk::bench {
namespace {

constexpr const char* kDefaultSizes = "512x512,3264x2448,8192x8192,16384x16384";

// What every benchmark needs from the run: the device and what it measured as its copy speed.
struct Suite {
    DeviceSelection selection;
    OpenClContext cl;
    DeviceLimits limits;
    std::uint64_t copy_bytes = 0;
    std::optional<double> copy_gbps;  // set by copy_bandwidth, or measured on first need
};

double device_seconds(const cl::Event& event)
{
    while_doing("waiting for a timed command", [&] { event.wait(); });
    return event_times(event).run_ms / 1e3;
}

// [Copy bandwidth]
// The yardstick: clEnqueueCopyBuffer between two large buffers of the device, bytes read plus
// bytes written, as the filters' GB/s count them. No kernel of ours can beat what the driver's
// own copy reaches, so copy_fraction says how close a filter comes to being memory bound.
class BufferCopy {
public:
    BufferCopy(const OpenClContext& cl, std::uint64_t bytes) : queue_(cl.queue), bytes_(bytes)
    {
        while_doing("allocating the copy benchmark's buffers", [&] {
            source_ = cl::Buffer(cl.context, CL_MEM_READ_WRITE, bytes);
            destination_ = cl::Buffer(cl.context, CL_MEM_READ_WRITE, bytes);
            // Written once before timing: some drivers only back a buffer with memory on first use.
            queue_.enqueueFillBuffer(source_, cl_uchar{1}, 0, bytes);
            queue_.enqueueFillBuffer(destination_, cl_uchar{0}, 0, bytes);
        });
        run_seconds();
    }
    double run_seconds()
    {
        cl::Event event;
        while_doing("copying a buffer", [&] {
            queue_.enqueueCopyBuffer(source_, destination_, 0, 0, bytes_, nullptr, &event);
        });
        return device_seconds(event);
    }
    std::uint64_t bytes_moved() const { return 2 * bytes_; }

private:
    cl::CommandQueue queue_;
    cl::Buffer source_;
    cl::Buffer destination_;
    std::uint64_t bytes_;
};
// [Copy bandwidth]

void time_copy(benchmark::State& state, Suite* suite)
{
    guarded(state, [&] {
        const DeviceNeeds needs{suite->copy_bytes, 2 * suite->copy_bytes};
        if (auto why = skip_reason(needs, suite->limits)) return state.SkipWithError(why->c_str());
        auto& copy = reuse_setup<BufferCopy>("copy_bandwidth", [&] {
            return std::make_shared<BufferCopy>(suite->cl, suite->copy_bytes);
        });
        Samples samples;
        for (auto _ : state) {
            const double seconds = copy.run_seconds();
            state.SetIterationTime(seconds);
            samples.add(seconds);
        }
        if (samples.median() <= 0) throw std::runtime_error("the copy took no time");
        suite->copy_gbps = static_cast<double>(copy.bytes_moved()) / samples.median() / 1e9;
        set_counters(state, samples, 0, copy.bytes_moved(), suite->copy_gbps);
        state.counters["bytes"] = static_cast<double>(copy.bytes_moved());
    });
}

// When --benchmark_filter left copy_bandwidth out, the first filter measures it quietly.
double copy_gbps(Suite& suite)
{
    if (!suite.copy_gbps) {
        BufferCopy copy(suite.cl, suite.copy_bytes);
        Samples samples;
        for (int i = 0; i < 11; ++i) samples.add(copy.run_seconds());
        if (samples.median() <= 0) throw std::runtime_error("the copy took no time");
        suite.copy_gbps = static_cast<double>(copy.bytes_moved()) / samples.median() / 1e9;
    }
    return *suite.copy_gbps;
}

// One kernel of a filter on an uploaded image, timed by its event; the device work only.
class TimedKernel {
public:
    virtual ~TimedKernel() = default;
    virtual double run_seconds() = 0;
    virtual std::uint64_t bytes_moved() const = 0;
    // Shown in the benchmark's label (the JSON's "label"), e.g. what auto chose.
    virtual std::string label() const { return {}; }
};

// A kernel whose work-group shape can change between launches on the same buffers.
class ShapeableKernel : public TimedKernel {
public:
    virtual void set_work_group(const WorkGroupShape& shape) = 0;
};

class SobelKernel final : public ShapeableKernel {
public:
    SobelKernel(const OpenClContext& cl, SobelVariant variant, const Image& image)
        : sobel_(cl, variant, Border::replicate)
    {
        sobel_.upload(image);
    }
    // What the sample's --variant auto runs: the tuned variant and work-group shape.
    SobelKernel(const OpenClContext& cl, const SobelChoice& choice, const Image& image)
        : sobel_(cl, choice.variant, Border::replicate)
    {
        sobel_.set_work_group(choice.group_x, choice.group_y);
        sobel_.upload(image);
    }
    void set_work_group(const WorkGroupShape& shape) override
    {
        sobel_.set_work_group(shape.x, shape.y);
    }
    // The image variant's time includes its copy of the buffer into the image, which it needs
    // on every run whose luminance the device wrote to a buffer (as the sample's does).
    double run_seconds() override
    {
        const double kernel = device_seconds(sobel_.run());
        return sobel_.last_copy()() ? kernel + device_seconds(sobel_.last_copy()) : kernel;
    }
    std::uint64_t bytes_moved() const override { return sobel_.bytes_moved(); }
    std::string label() const override { return label_; }
    void set_label(std::string label) { label_ = std::move(label); }

private:
    SobelFilter sobel_;
    std::string label_;
};

// A FIR filter's K*K pass in one variant (the 3x3 buffer kernel is fir_float's default), or
// with `separable` a column-times-row window's separable path (buffer: two 1-D passes; local:
// one kernel, the row sums in local memory).
class FirKernel final : public ShapeableKernel {
public:
    FirKernel(const OpenClContext& cl, const Image& image, FirVariant variant = FirVariant::buffer,
              int size = 3, bool separable = false)
        : fir_(cl, Border::replicate,
               separable ? separable_window_coefficients(size) : full_window_coefficients(size),
               MemoryMode::copy, variant)
    {
        fir_.upload(image);
    }
    void set_work_group(const WorkGroupShape& shape) override
    {
        fir_.set_work_group(shape.x, shape.y);
    }
    double run_seconds() override { return fir_.run_ms() / 1000; }
    std::uint64_t bytes_moved() const override { return fir_.bytes_moved(); }

private:
    FirFilter fir_;
};

// The passes of an operation on the packed image, timed and counted per pass (a closing is a
// dilation and an erosion), so that a closing compares with a single dilation.
class MorphologyKernel final : public ShapeableKernel {
public:
    MorphologyKernel(const OpenClContext& cl, const StructuringElement& element,
                     MorphologyOperation operation, const Image& image)
        : morphology_(cl, element),
          passes_(passes_of(operation)),
          roi_(whole_image(image.width, image.height))
    {
        morphology_.upload(image).event.wait();
        morphology_.binarise_and_pack(Binarisation{}).event.wait();
    }
    void set_work_group(const WorkGroupShape& shape) override
    {
        morphology_.set_work_group(shape.x, shape.y);
    }
    double run_seconds() override
    {
        // Each pass reads the previous one's result, as in the sample; the kernels do the same
        // work whatever the bits, so repeating the operation on its own output times it fairly.
        double seconds = 0;
        for (const MorphologyPass pass : passes_) {
            const PipelineStep step = morphology_.run_pass(pass, roi_);
            seconds += device_seconds(step.event);
            bytes_per_pass_ = step.bytes;
        }
        return seconds / static_cast<double>(passes_.size());
    }
    std::uint64_t bytes_moved() const override { return bytes_per_pass_; }

private:
    MorphologyFilter morphology_;
    std::vector<MorphologyPass> passes_;
    Roi roi_;
    std::uint64_t bytes_per_pass_ = 0;
};

using MakeKernel = std::function<std::shared_ptr<TimedKernel>(const OpenClContext&, const Image&)>;

struct Work {
    std::string name;  // "kernel/sobel/16x4/512x512": what the setup is kept under
    Size size;
    DeviceNeeds needs;
};

void time_kernel(benchmark::State& state, Suite* suite, const Work& work, const MakeKernel& make)
{
    guarded(state, [&] {
        if (auto why = skip_reason(work.needs, suite->limits))
            return state.SkipWithError(why->c_str());
        const double copy = copy_gbps(*suite);
        auto& kernel = reuse_setup<TimedKernel>(work.name, [&] {
            auto made = make(suite->cl, bench_image(work.size));
            made->run_seconds();  // warm-up: first launches pay for lazy set-up
            return made;
        });
        Samples samples;
        for (auto _ : state) {
            const double seconds = kernel.run_seconds();
            state.SetIterationTime(seconds);
            samples.add(seconds);
        }
        set_counters(state, samples, work.size.pixels(), kernel.bytes_moved(), copy);
        if (const std::string label = kernel.label(); !label.empty()) state.SetLabel(label);
    });
}

void register_kernel(Suite& suite, const std::string& filter, const std::string& variant, Size size,
                     DeviceNeeds needs, MakeKernel make)
{
    const Work work{"kernel/" + filter + "/" + variant + "/" + size_name(size), size, needs};
    benchmark::RegisterBenchmark(work.name.c_str(), time_kernel, &suite, work, std::move(make))
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
}

// Auto's choice against every candidate it chooses from, interleaved: each iteration is one round
// in which auto's choice and every candidate take a turn (warmed up first), so that a burst of
// load lands on all of them alike rather than on whichever was timed at that moment. A turn is
// the tuner's (time_turn): one launch to bring the entrant's own data back into the caches, then
// launches covering 1 ms, their median. Each round runs the entrants in a new random order:
// where an image's buffers are about the size of the last-level cache, what the entrant before
// left there still shows through the warm-up (PoCL, 3264x2448: auto's choice took 1.47 ms when
// it always ran first, after another variant's buffers, and 0.85 ms as the candidate that
// followed five launches on its own buffers), and a fixed order would judge the positions.
// Each one's median over the rounds is a counter (`auto_ms`, `fastest_ms`, `c<i>_ms` in the
// candidates' order, named in the label), and `auto_over_fastest` is the issue's figure: auto's
// median over the fastest candidate's. The iteration's time is the whole round's kernel time,
// warm-ups included, so that --benchmark_min_time is the contest's budget.
struct Entrant {
    std::string name;
    std::shared_ptr<TimedKernel> kernel;
};
struct AutoContest {
    std::string auto_choice;
    std::vector<Entrant> candidates;
    std::shared_ptr<TimedKernel> auto_kernel;
};
using MakeContest = std::function<AutoContest(const OpenClContext&, const Image&)>;

void time_auto_contest(benchmark::State& state, Suite* suite, const Work& work,
                       const MakeContest& make)
{
    guarded(state, [&] {
        if (auto why = skip_reason(work.needs, suite->limits))
            return state.SkipWithError(why->c_str());
        auto& contest = reuse_setup<AutoContest>(work.name, [&] {
            auto made = std::make_shared<AutoContest>(make(suite->cl, bench_image(work.size)));
            made->auto_kernel->run_seconds();  // warm-up: first launches pay for lazy set-up
            for (auto& candidate : made->candidates) candidate.kernel->run_seconds();
            return made;
        });
        double round_seconds = 0;
        const auto turn_seconds = [&round_seconds](TimedKernel& kernel) {
            return time_turn([&](unsigned count) {
                       std::vector<double> ms;
                       for (unsigned n = 0; n < count; ++n) {
                           const double seconds = kernel.run_seconds();
                           round_seconds += seconds;
                           ms.push_back(seconds * 1e3);
                       }
                       return ms;
                   }) /
                   1e3;
        };
        Samples auto_samples;
        std::vector<Samples> candidate_samples(contest.candidates.size());
        std::vector<std::size_t> order(contest.candidates.size() + 1);  // 0: auto, i + 1: c<i>
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::mt19937 shuffler(19);
        for (auto _ : state) {
            round_seconds = 0;
            std::shuffle(order.begin(), order.end(), shuffler);
            for (const std::size_t entrant : order) {
                if (entrant == 0)
                    auto_samples.add(turn_seconds(*contest.auto_kernel));
                else
                    candidate_samples[entrant - 1].add(
                        turn_seconds(*contest.candidates[entrant - 1].kernel));
            }
            state.SetIterationTime(round_seconds);
        }
        std::size_t fastest = 0;
        std::string names;
        for (std::size_t i = 0; i < candidate_samples.size(); ++i) {
            state.counters["c" + std::to_string(i) + "_ms"] = candidate_samples[i].median() * 1e3;
            if (candidate_samples[i].median() < candidate_samples[fastest].median()) fastest = i;
            names += (i ? " " : "") + std::string("c") + std::to_string(i) + "=" +
                     contest.candidates[i].name;
        }
        const double fastest_seconds = candidate_samples.at(fastest).median();
        state.counters["auto_ms"] = auto_samples.median() * 1e3;
        state.counters["fastest_ms"] = fastest_seconds * 1e3;
        if (fastest_seconds > 0)
            state.counters["auto_over_fastest"] = auto_samples.median() / fastest_seconds;
        state.SetLabel("auto: " + contest.auto_choice +
                       "; fastest: " + contest.candidates[fastest].name + "; " + names);
    });
}

void register_auto_contest(Suite& suite, const std::string& filter, Size size, DeviceNeeds needs,
                           MakeContest make)
{
    const Work work{"auto_vs_candidates/" + filter + "/" + size_name(size), size, needs};
    benchmark::RegisterBenchmark(work.name.c_str(), time_auto_contest, &suite, work,
                                 std::move(make))
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
}

// One shape of a work-group contest: sets its shape on the shared kernel, then runs it.
class WithShape final : public TimedKernel {
public:
    WithShape(std::shared_ptr<ShapeableKernel> kernel, const WorkGroupShape& shape)
        : kernel_(std::move(kernel)), shape_(shape)
    {
    }
    double run_seconds() override
    {
        kernel_->set_work_group(shape_);
        return kernel_->run_seconds();
    }
    std::uint64_t bytes_moved() const override { return kernel_->bytes_moved(); }

private:
    std::shared_ptr<ShapeableKernel> kernel_;
    WorkGroupShape shape_;
};

// A contest whose choice is a work-group shape (fir_float, morphology_packed's passes). Every
// shape runs on the same buffers, as in the tuner and the sample: where the memory behind a
// buffer lies can matter as much as the shape (PoCL at 16384x16384: the same Sobel kernel and
// shape took 58 ms in one bench process and 92-94 ms in two others), so buffers of their own
// would judge the buffers, not the shapes.
AutoContest work_group_contest(const Tuned<WorkGroupShape>& tuned,
                               const std::vector<WorkGroupShape>& candidates,
                               const std::shared_ptr<ShapeableKernel>& kernel)
{
    AutoContest contest{
        shape_text(tuned.choice), {}, std::make_shared<WithShape>(kernel, tuned.choice)};
    for (const WorkGroupShape& shape : candidates)
        contest.candidates.push_back(
            {shape_text(shape), std::make_shared<WithShape>(kernel, shape)});
    return contest;
}

// A contest whose choice is a variant and a work-group shape (sobel, fir_float): auto's choice
// and every candidate, one kernel per variant made on first use, its shapes taking turns on its
// buffers, as in the tuner.
template <typename Choice>
AutoContest variant_contest(
    const Choice& choice, const std::vector<Choice>& candidates,
    const std::function<std::shared_ptr<ShapeableKernel>(decltype(Choice::variant))>& make,
    const std::function<std::string(decltype(Choice::variant))>& name)
{
    std::map<decltype(Choice::variant), std::shared_ptr<ShapeableKernel>> kernels;
    const auto kernel_of = [&](decltype(Choice::variant) variant) {
        auto& kernel = kernels[variant];
        if (!kernel) kernel = make(variant);
        return kernel;
    };
    AutoContest contest{
        describe(choice),
        {},
        std::make_shared<WithShape>(kernel_of(choice.variant),
                                    WorkGroupShape{choice.group_x, choice.group_y})};
    for (const Choice& candidate : candidates) {
        const WorkGroupShape shape{candidate.group_x, candidate.group_y};
        contest.candidates.push_back(
            {name(candidate.variant) + "@" + shape_text(shape),
             std::make_shared<WithShape>(kernel_of(candidate.variant), shape)});
    }
    return contest;
}

// A sample's pipeline on the host's clock: upload, kernels, download, finished when the result
// is in host memory. Buffers are (re)allocated as the sample does it.
using Pipeline = std::function<void(const Image&)>;
using MakePipeline = std::function<Pipeline(const OpenClContext&)>;

Pipeline sobel_pipeline(const OpenClContext& cl, SobelVariant variant)
{
    auto sobel = std::make_shared<SobelFilter>(cl, variant, Border::replicate);
    return [sobel](const Image& image) {
        sobel->upload(image);
        sobel->run();
        sobel->download();
    };
}

Pipeline fir_pipeline(const OpenClContext& cl)
{
    auto fir = std::make_shared<FirFilter>(cl, Border::replicate);
    return [fir](const Image& image) {
        fir->upload(image);
        fir->run();
        fir->download();
    };
}

// Binarise and pack, the operation's passes, unpack: MorphologyFilter::run, as the sample does.
Pipeline morphology_pipeline(const OpenClContext& cl, MorphologyShape shape,
                             MorphologyOperation operation)
{
    auto morphology = std::make_shared<MorphologyFilter>(cl, shape);
    return [morphology, operation](const Image& image) {
        morphology->upload(image);
        morphology->run(Binarisation{}, operation, whole_image(image.width, image.height));
        morphology->download();
    };
}

void time_pipeline(benchmark::State& state, Suite* suite, const Work& work,
                   const MakePipeline& make)
{
    guarded(state, [&] {
        if (auto why = skip_reason(work.needs, suite->limits))
            return state.SkipWithError(why->c_str());
        const Image& image = bench_image(work.size);
        auto& pipeline = reuse_setup<Pipeline>(work.name, [&] {
            auto made = std::make_shared<Pipeline>(make(suite->cl));
            (*made)(image);  // warm-up
            return made;
        });
        const Samples samples = time_real(state, [&] { pipeline(image); });
        set_counters(state, samples, work.size.pixels());
    });
}

void register_pipeline(Suite& suite, const std::string& filter, const std::string& variant,
                       Size size, DeviceNeeds needs, MakePipeline make)
{
    const Work work{"e2e/" + filter + "/" + variant + "/" + size_name(size), size, needs};
    benchmark::RegisterBenchmark(work.name.c_str(), time_pipeline, &suite, work, std::move(make))
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
}

// Start-up: what a sample pays before its first pixel: a context, or a program built from source
// once the driver has seen it (NVIDIA and PoCL keep compiled programs in a cache on disk; the
// first build after an edit costs more).
void time_startup(benchmark::State& state, const std::function<void()>& start)
{
    guarded(state, [&] {
        start();  // the first build compiles; later ones may hit the driver's cache
        const Samples samples = time_real(state, start);
        state.counters["median_ms"] = samples.median() * 1e3;
    });
}

void register_startup(const std::string& what, std::function<void()> start)
{
    benchmark::RegisterBenchmark(("startup/" + what).c_str(), time_startup, std::move(start))
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
}

void register_all(Suite& suite, const std::vector<Size>& sizes)
{
    const std::vector<SobelVariant> sobel_variants{
        SobelVariant::no_vectors,  SobelVariant::vector_16x1, SobelVariant::vector_16x4,
        SobelVariant::packed_16x4, SobelVariant::local_tile,  SobelVariant::image};
    // Where the device has no images (or none this large), the image entries are left out.
    const auto runs_here = [&suite](SobelVariant variant, std::size_t width, std::size_t height) {
        return sobel_variant_unavailable(suite.cl, variant, width, height).empty();
    };

    // First, so that the filters after it compare with this run's copy speed.
    benchmark::RegisterBenchmark("copy_bandwidth", time_copy, &suite)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);

    const OpenClContext& cl = suite.cl;
    register_startup("context", [selection = suite.selection] { make_context(selection); });
    for (const SobelVariant variant : sobel_variants) {
        if (!runs_here(variant, 0, 0)) continue;
        register_startup("sobel/" + variant_name(variant), [&cl, variant] {
            const SobelFilter sobel(cl, variant, Border::replicate);
        });
    }
    register_startup("fir/fir_float", [&cl] { const FirFilter fir(cl, Border::replicate); });
    register_startup("morphology/diamond",
                     [&cl] { const MorphologyFilter morphology(cl, MorphologyShape::diamond); });

    for (const Size size : sizes) {
        const std::uint64_t pixels = size.pixels();
        const std::uint64_t packed =
            divide_round_up(size.width, 32) * 4 * std::uint64_t{size.height};
        // Device images have padded rows (pitch_for, common/runtime/transfers.hpp): Sobel's bytes,
        // fir_float's floats.
        const std::uint64_t pitched = std::uint64_t{pitch_for(size.width)} * size.height;
        const std::uint64_t float_pitched = std::uint64_t{pitch_for(4 * size.width)} * size.height;
        const DeviceNeeds sobel_needs{pitched, 3 * pitched};
        const DeviceNeeds fir_needs{float_pitched, 2 * float_pitched};
        const DeviceNeeds morphology_needs{std::max(pixels, packed), 2 * pixels + 3 * packed};

        // 1. The kernels alone, on the device's clock.
        for (const SobelVariant variant : sobel_variants) {
            if (!runs_here(variant, size.width, size.height)) continue;
            register_kernel(suite, "sobel", variant_name(variant), size, sobel_needs,
                            [variant](const OpenClContext& context, const Image& image) {
                                return std::make_shared<SobelKernel>(context, variant, image);
                            });
        }
        // The fastest variant and work-group shape for this device and this size, as
        // --variant auto picks them (and caches them, like the sample; set SDK_TUNING_CACHE to
        // a fresh file to make it measure). The fixed variants above run 32x8 groups.
        register_kernel(suite, "sobel", "auto", size, sobel_needs,
                        [size](const OpenClContext& context, const Image& image) {
                            const SobelChoice choice =
                                choose_sobel_kernel(context, Border::replicate, size.width,
                                                    size.height, Tuning::finish)
                                    .choice;
                            std::cerr << "kernel/sobel/auto/" << size_name(size) << ": "
                                      << describe(choice) << '\n';
                            auto kernel = std::make_shared<SobelKernel>(context, choice, image);
                            kernel->set_label(describe(choice));
                            return kernel;
                        });
        // Auto's choice and every candidate it chooses from, interleaved (bench/plot.py's
        // "auto against every candidate" table), for each tuned filter. The tuners cache their
        // choices like the samples; set SDK_TUNING_CACHE to a fresh file to make them measure.
        // One filter per variant, its shapes taking turns on its buffers, as in the tuner.
        register_auto_contest(
            suite, "sobel", size, sobel_needs,
            // The image kernel is auto's candidate only where it reads
            // the buffer itself (kernels/sobel/sobel_tuning.cpp says why).
            [size, images = runs_here(SobelVariant::image, size.width, size.height) &&
                            images_from_buffers(suite.cl, pitch_for(size.width))](
                const OpenClContext& context, const Image& image) {
                return variant_contest<SobelChoice>(
                    choose_sobel_kernel(context, Border::replicate, size.width, size.height,
                                        Tuning::finish)
                        .choice,
                    sobel_candidates(true, images),
                    [&](SobelVariant variant) {
                        return std::make_shared<SobelKernel>(context, variant, image);
                    },
                    variant_name);
            });
        register_auto_contest(suite, "fir", size, fir_needs,
                              [size](const OpenClContext& context, const Image& image) {
                                  // The image kernel only where auto's tuner lets it compete: not
                                  // here (PoCL).
                                  return variant_contest<FirChoice>(
                                      choose_fir_kernel(context, Border::replicate, 3, size.width,
                                                        size.height, Tuning::finish)
                                          .choice,
                                      fir_candidates(false),
                                      [&](FirVariant variant) {
                                          return std::make_shared<FirKernel>(context, image,
                                                                             variant);
                                      },
                                      fir_variant_name);
                              });
        register_auto_contest(
            suite, "morphology_diamond_dilate", size, morphology_needs,
            [size](const OpenClContext& context, const Image& image) {
                return work_group_contest(
                    choose_morphology_work_group(context, MorphologyShape::diamond, size.width,
                                                 size.height, Tuning::finish),
                    morphology_candidates(),
                    std::make_shared<MorphologyKernel>(context, MorphologyShape::diamond,
                                                       MorphologyOperation::dilate, image));
            });
        register_kernel(suite, "fir", "fir_float", size, fir_needs,
                        [](const OpenClContext& context, const Image& image) {
                            return std::make_shared<FirKernel>(context, image);
                        });
        // The K*K pass by where it reads its pixels and by window, "kernel/fir/local/7x7/SIZE"
        // (bench/plot.py charts time against radius from these; scripts/compare-gpu-libraries.sh
        // finds them under kernel/fir/), and a separable 15x15 beside them: its two passes
        // ("separable/15x15") and its one kernel in local memory ("separable_local/15x15").
        for (const FirVariant variant : {FirVariant::buffer, FirVariant::local, FirVariant::image})
            for (const int k : {3, 7, 15}) {
                if (!fir_variant_unavailable(suite.cl, variant, size.width, size.height).empty())
                    continue;
                register_kernel(
                    suite, "fir",
                    fir_variant_name(variant) + "/" + std::to_string(k) + "x" + std::to_string(k),
                    size, fir_needs,
                    [variant, k](const OpenClContext& context, const Image& image) {
                        return std::make_shared<FirKernel>(context, image, variant, k);
                    });
            }
        register_kernel(suite, "fir", "separable/15x15", size,
                        {fir_needs.largest_buffer, fir_needs.total + float_pitched},
                        [](const OpenClContext& context, const Image& image) {
                            return std::make_shared<FirKernel>(context, image, FirVariant::buffer,
                                                               15, true);
                        });
        register_kernel(suite, "fir", "separable_local/15x15", size, fir_needs,
                        [](const OpenClContext& context, const Image& image) {
                            return std::make_shared<FirKernel>(context, image, FirVariant::local,
                                                               15, true);
                        });
        register_kernel(suite, "morphology", "square_dilate", size, morphology_needs,
                        [](const OpenClContext& context, const Image& image) {
                            return std::make_shared<MorphologyKernel>(
                                context, MorphologyShape::square, MorphologyOperation::dilate,
                                image);
                        });
        // A long element against the 3x3 square above, at the same size: the rectangle's runs
        // are built by doubling shifts (morphology_runs.cl), so 31x31 should cost a small
        // multiple of 3x3, not 107 times its pixels.
        register_kernel(suite, "morphology", "rectangle_31x31_dilate", size, morphology_needs,
                        [](const OpenClContext& context, const Image& image) {
                            return std::make_shared<MorphologyKernel>(
                                context, StructuringElement(MorphologyShape::rectangle, 31, 31),
                                MorphologyOperation::dilate, image);
                        });
        register_kernel(suite, "morphology", "diamond_close_per_pass", size, morphology_needs,
                        [](const OpenClContext& context, const Image& image) {
                            return std::make_shared<MorphologyKernel>(
                                context, MorphologyShape::diamond, MorphologyOperation::close,
                                image);
                        });

        // 2. The same filters with OpenCV on the host.
#ifdef SDK_BENCH_OPENCV
        register_opencv_baselines(size);
#endif

        // 3. Each sample's pipeline. SobelFilter and FirFilter allocate new buffers on every
        //    upload while the old ones still exist: one more image's worth at the peak.
        for (const SobelVariant variant : sobel_variants)
            register_pipeline(suite, "sobel", variant_name(variant), size,
                              {sobel_needs.largest_buffer, sobel_needs.total + pitched},
                              [variant](const OpenClContext& context) {
                                  return sobel_pipeline(context, variant);
                              });
        register_pipeline(suite, "fir", "fir_float", size,
                          {fir_needs.largest_buffer, fir_needs.total + 4 * pixels}, fir_pipeline);
        register_pipeline(suite, "morphology", "square_dilate", size, morphology_needs,
                          [](const OpenClContext& context) {
                              return morphology_pipeline(context, MorphologyShape::square,
                                                         MorphologyOperation::dilate);
                          });
        register_pipeline(suite, "morphology", "diamond_close", size, morphology_needs,
                          [](const OpenClContext& context) {
                              return morphology_pipeline(context, MorphologyShape::diamond,
                                                         MorphologyOperation::close);
                          });

        // 4. What a user waits for: each sample as a process, file in to file out, against
        //    the floor measured in the same iterations.
        register_file_runs(cl, suite.selection, size);

        // 5. Writing a PNG output, on the host's cores alone.
        register_png_encoding(size);

        // 6. Reading a JPEG input, with and without restart markers.
        register_jpeg_decoding(cl, size);
    }
}

// Google Benchmark 1.8 wants --benchmark_min_time=0.5s and warns about a bare 0.5 once per
// benchmark; 1.7 takes only the bare number. Either spelling works with bench.
std::string min_time_for_library(std::string argument)
{
    const std::string flag = "--benchmark_min_time=";
    if (argument.rfind(flag, 0) != 0 || argument.size() == flag.size()) return argument;
#ifdef SDK_BENCHMARK_MIN_TIME_BARE
    if (argument.back() == 's') argument.pop_back();
#else
    if (std::isdigit(static_cast<unsigned char>(argument.back()))) argument += 's';
#endif
    return argument;
}

std::uint64_t copy_size(const OpenClContext& cl, unsigned copy_mib)
{
    // The largest the device allows if smaller, and two of them must fit with room to spare.
    const std::uint64_t wanted = std::uint64_t{copy_mib} << 20;
    const std::uint64_t global = cl.device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
    return std::min({wanted, cl.max_allocation_bytes(), global / 4}) & ~std::uint64_t{4095};
}

void add_device_context(const OpenClContext& cl, std::uint64_t copy_bytes)
{
    const cl::Platform platform(cl.device.getInfo<CL_DEVICE_PLATFORM>());
    benchmark::AddCustomContext("opencl_device", cl.device_name());
    const std::string platform_name = platform.getInfo<CL_PLATFORM_NAME>();
    const std::string platform_version = platform.getInfo<CL_PLATFORM_VERSION>();
    benchmark::AddCustomContext("opencl_platform", platform_name + " (" + platform_version + ")");
    benchmark::AddCustomContext("opencl_driver", cl.device.getInfo<CL_DRIVER_VERSION>());
    benchmark::AddCustomContext("opencl_device_version", cl.device.getInfo<CL_DEVICE_VERSION>());
    benchmark::AddCustomContext("opencl_compute_units",
                                std::to_string(cl.device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>()));
    benchmark::AddCustomContext(
        "opencl_global_memory_MiB",
        std::to_string(cl.device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>() >> 20));
    benchmark::AddCustomContext("opencl_max_allocation_MiB",
                                std::to_string(cl.max_allocation_bytes() >> 20));
    benchmark::AddCustomContext("copy_bandwidth_buffer_MiB", std::to_string(copy_bytes >> 20));
#ifdef SDK_BENCH_OPENCV
    benchmark::AddCustomContext("opencv", opencv_description());
#else
    benchmark::AddCustomContext("opencv", "not built in");
#endif
}

}  // namespace
}  // namespace sdk::bench

int main(int argc, char** argv)
{
    using namespace sdk::bench;

    // 1. Our options first; everything else (the --benchmark_* flags) goes to Google Benchmark.
    CLI::App app{"Times every kernel variant and sample pipeline with Google Benchmark", "bench"};
    app.allow_extras();
    sdk::DeviceSelection selection;
    bool list_devices = false;
    std::string sizes_text = kDefaultSizes;
    unsigned copy_mib = 256;
    app.add_option("-p,--platform", selection.platform, "OpenCL platform index");
    app.add_option("-d,--device", selection.device, "OpenCL device index within the platform");
    app.add_option("-t,--type", selection.type,
                   "device type (default: the first GPU, else the first device)")
        ->transform(CLI::CheckedTransformer(
            std::map<std::string, sdk::DeviceType>{{"cpu", sdk::DeviceType::cpu},
                                                   {"gpu", sdk::DeviceType::gpu},
                                                   {"accelerator", sdk::DeviceType::accelerator},
                                                   {"all", sdk::DeviceType::all}},
            CLI::ignore_case));
    app.add_flag("--list-devices", list_devices, "list OpenCL platforms and devices, then exit");
    app.add_option("--sizes", sizes_text,
                   "image sizes, WIDTHxHEIGHT separated by commas; sizes whose buffers the device "
                   "cannot hold are reported as skipped")
        ->capture_default_str();
    app.add_option("--copy-mib", copy_mib,
                   "size of each buffer of the copy_bandwidth yardstick (at most the device's "
                   "largest allocation)")
        ->check(CLI::Range(1u, 65536u))
        ->capture_default_str();
    app.footer(
        "Google Benchmark's flags pass through, e.g. --benchmark_filter=kernel/sobel "
        "--benchmark_min_time=0.1 --benchmark_repetitions=5 --benchmark_out=bench.json "
        "--benchmark_out_format=json; they are listed below.");
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& help) {
        app.exit(help);
        std::vector<std::string> help_arguments{argv[0], "--help"};
        std::vector<char*> help_argv{help_arguments[0].data(), help_arguments[1].data()};
        int help_argc = 2;
        benchmark::Initialize(&help_argc, help_argv.data());  // prints its flags and exits
        return 0;
    } catch (const CLI::ParseError& error) {
        std::cerr << "bench: " << error.what() << " (try --help)\n";
        return 2;
    }
    try {
        if (list_devices) {
            sdk::list_devices(std::cout);
            return 0;
        }
        const std::vector<Size> sizes = parse_sizes(sizes_text);
        std::vector<std::string> benchmark_arguments{argv[0]};
        for (const auto& extra : app.remaining())
            benchmark_arguments.push_back(min_time_for_library(extra));
        std::vector<char*> benchmark_argv;
        for (auto& argument : benchmark_arguments) benchmark_argv.push_back(argument.data());
        int benchmark_argc = static_cast<int>(benchmark_argv.size());
        benchmark::Initialize(&benchmark_argc, benchmark_argv.data());
        if (benchmark::ReportUnrecognizedArguments(benchmark_argc, benchmark_argv.data())) return 2;

        // 2. The device, its limits, and the benchmarks for every size: those whose buffers it
        //    cannot hold skip themselves with the reason.
        Suite suite{selection, sdk::make_context(selection), {}, 0, std::nullopt};
        suite.limits = {suite.cl.max_allocation_bytes(),
                        suite.cl.device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>()};
        suite.copy_bytes = copy_size(suite.cl, copy_mib);
        add_device_context(suite.cl, suite.copy_bytes);
        register_all(suite, sizes);

        // 3. Run. The kept setup's OpenCL objects go before the context, not in a static
        //    destructor at exit, which would race the runtime's own teardown.
        struct ReleaseSetup {
            ~ReleaseSetup() { reset_setup(); }
        } release_setup;
        const std::size_t ran = benchmark::RunSpecifiedBenchmarks();
        benchmark::Shutdown();
        if (ran == 0) {
            std::cerr << "bench: no benchmark matches --benchmark_filter\n";
            return 1;
        }
        if (failure_count() > 0) {
            std::cerr << "bench: " << failure_count() << " benchmarks failed (see ERROR above)\n";
            return 1;
        }
        return 0;
    } catch (const sdk::UsageError& error) {
        std::cerr << "bench: " << error.what() << " (try --help)\n";
        return 2;
    } catch (const sdk::BuildError& error) {
        std::cerr << error.log() << "\nbench: " << error.what() << "\n";
        return 1;
    } catch (const std::exception& error) {
        std::cerr << "bench: " << error.what() << "\n";
        return 1;
    }
}
