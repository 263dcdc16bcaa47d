// SPDX-License-Identifier: Apache-2.0
#include "file_runs.hpp"

#include "jpeg_decoding.hpp"

#include "samples/app/run_floor.hpp"
#include "common/imageio/bmp.hpp"
#include "common/imageio/file_io.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/program.hpp"

#ifdef SDK_BENCH_OPENCV_FILES
#include "opencv_baselines.hpp"
#endif

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

extern char** environ;

namespace sdk::bench {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// A folder of its own in the temporary folder, removed with everything in it at the end.
class ScratchFolder {
public:
    ScratchFolder()
    {
        std::string name = (fs::temp_directory_path() / "sdk-bench-XXXXXX").string();
        if (!mkdtemp(name.data()))
            throw std::runtime_error("cannot create a folder in " +
                                     fs::temp_directory_path().string() + ": " +
                                     std::strerror(errno));
        path_ = name;
    }
    ~ScratchFolder()
    {
        std::error_code ignored;
        fs::remove_all(path_, ignored);
    }
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

// A 24-bit BMP of random pixels, as a photograph is stored: random bytes leave no file system
// or cache shortcut to flatter a run.
void write_random_rgb_bmp(const fs::path& path, Size size, unsigned seed = 7)
{
    Image image{size.width, size.height, 3, std::vector<std::uint8_t>(3 * size.pixels())};
    std::mt19937_64 generator(seed);
    for (std::size_t i = 0; i + 8 <= image.pixels.size(); i += 8) {
        const std::uint64_t bits = generator();
        std::memcpy(&image.pixels[i], &bits, 8);
    }
    write_bmp(path, image);
}

// Runs the command as a child process and waits for it; a failure names the sample and status.
void run_process(const std::vector<std::string>& words)
{
    std::vector<char*> argv;
    for (const auto& word : words) argv.push_back(const_cast<char*>(word.c_str()));
    argv.push_back(nullptr);
    pid_t child = 0;
    const int error = posix_spawn(&child, argv[0], nullptr, nullptr, argv.data(), environ);
    if (error != 0)
        throw std::runtime_error("cannot start " + words[0] + ": " + std::strerror(error));
    int status = 0;
    while (waitpid(child, &status, 0) < 0)
        if (errno != EINTR) throw std::runtime_error("waiting for " + words[0] + " failed");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        throw std::runtime_error(fs::path(words[0]).filename().string() + " failed (status " +
                                 std::to_string(status) + ") on its bench image");
}

// A program beside bench on the device bench runs on.
std::vector<std::string> command_on_device(const std::string& program,
                                           const DeviceSelection& selection)
{
    std::vector<std::string> words{(executable_directory() / program).string()};
    if (selection.platform) words.insert(words.end(), {"-p", std::to_string(*selection.platform)});
    if (selection.device) words.insert(words.end(), {"-d", std::to_string(*selection.device)});
    if (selection.type) {
        const char* names[] = {"all", "cpu", "gpu", "accelerator"};  // DeviceType's order
        words.insert(words.end(), {"-t", names[static_cast<int>(*selection.type)]});
    }
    return words;
}

// The sample's command line: the device bench runs on, the input, the output, nothing printed.
std::vector<std::string> sample_command(const std::string& sample, const DeviceSelection& selection,
                                        const fs::path& input, const fs::path& output)
{
    std::vector<std::string> words = command_on_device(sample, selection);
    words.insert(words.end(), {"-q", "-i", input.string(), "-o", output.string()});
    return words;
}

// The files a job reads and writes: a random BMP to a BMP (the device's side at its limit), or
// what users feed and ask for, PNG out of a BMP and a photo-like JPEG (no restart markers, as
// cameras write them) to PNG (the host's codecs).
enum class FileKinds { bmp_to_bmp, bmp_to_png, jpeg_to_png };

struct FileRun {
    explicit FileRun(FileKinds kinds)
        : input(folder.path() / (kinds == FileKinds::jpeg_to_png ? "input.jpg" : "input.bmp")),
          output(folder.path() / (kinds == FileKinds::bmp_to_bmp ? "output.bmp" : "output.png"))
    {
    }
    ScratchFolder folder;
    fs::path input;
    fs::path output;
    std::unique_ptr<FloorMeter> floor;
};

// One run of the job, file in to file out: a sample as a process, or OpenCV in this process.
using FileJob = std::function<void(const fs::path& input, const fs::path& output)>;

void time_file_job(benchmark::State& state, const OpenClContext* cl,
                   const DeviceSelection& selection, Size size, FileKinds kinds, const FileJob& job)
{
    guarded(state, [&] {
        const std::string key =
            "file/" + std::to_string(static_cast<int>(kinds)) + "/" + size_name(size);
        auto& run = reuse_setup<FileRun>(key, [&] {
            auto made = std::make_shared<FileRun>(kinds);
            if (kinds == FileKinds::jpeg_to_png) {
                const std::vector<std::uint8_t> jpeg = photo_like_jpeg(size, Restarts::none);
                write_file_atomically(made->input, jpeg.data(), jpeg.size());
            } else {
                write_random_rgb_bmp(made->input, size);
            }
            // The floor writes the 8-bit BMP's bytes whatever the format: the pixels any output
            // must at least hold.
            made->floor =
                std::make_unique<FloorMeter>(*cl, made->input, made->output,
                                             bmp_grey_header(size.width, size.height).size() +
                                                 bmp_grey_stride(size.width) * size.height);
            return made;
        });
        const auto start_stop = command_on_device("opencl_start_stop", selection);
        job(run.input, run.output);  // warm-up: the driver's and PoCL's caches, the page cache
        Samples job_seconds, floor, read, write, link, driver;
        // Every iteration: the floor (samples/app/run_floor.hpp), then beside it what the driver
        // costs any OpenCL process here, started and stopped with nothing in between
        // (opencl_start_stop), then the job.
        for (auto _ : state) {
            const FloorParts parts = run.floor->measure();
            floor.add(parts.total_ms() / 1e3);
            read.add(parts.read_ms / 1e3);
            write.add(parts.write_ms / 1e3);
            link.add(parts.link_ms / 1e3);
            const auto driver_start = Clock::now();
            run_process(start_stop);
            driver.add(seconds_since(driver_start));
            const auto start = Clock::now();
            job(run.input, run.output);
            const double seconds = seconds_since(start);
            state.SetIterationTime(seconds);
            job_seconds.add(seconds);
        }
        set_counters(state, job_seconds, size.pixels());
        state.counters["floor_ms"] = floor.median() * 1e3;
        state.counters["floor_read_ms"] = read.median() * 1e3;
        state.counters["floor_write_ms"] = write.median() * 1e3;
        state.counters["floor_link_ms"] = link.median() * 1e3;
        state.counters["driver_ms"] = driver.median() * 1e3;
        if (floor.median() > 0)
            state.counters["over_floor"] = job_seconds.median() / floor.median();
        state.counters["over_floor_and_driver"] =
            job_seconds.median() / (floor.median() + driver.median());
    });
}

void register_file_job(const std::string& name, const OpenClContext& cl,
                       const DeviceSelection& selection, Size size, FileJob job,
                       FileKinds kinds = FileKinds::bmp_to_bmp)
{
    benchmark::RegisterBenchmark(name.c_str(), time_file_job, &cl, selection, size, kinds,
                                 std::move(job))
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
}

// A folder of kBatchPhotos photos of the size (random pixels, a different image each), filtered by
// sobel in one process (samples/app/batch.hpp), PNG results; the same photos one process each
// for the comparison, run in the same iterations.
constexpr int kBatchPhotos = 8;

struct BatchRun {
    ScratchFolder folder;
    fs::path photos = folder.path() / "photos";
    fs::path results = folder.path() / "results";
};

void time_batch(benchmark::State& state, const DeviceSelection& selection, Size size)
{
    guarded(state, [&] {
        auto& run = reuse_setup<BatchRun>("file/batch/" + size_name(size), [&] {
            auto made = std::make_shared<BatchRun>();
            fs::create_directory(made->photos);
            for (int photo = 0; photo < kBatchPhotos; ++photo)
                write_random_rgb_bmp(made->photos / ("photo-" + std::to_string(photo) + ".bmp"),
                                     size, 7u + photo);
            return made;
        });
        std::vector<std::string> batch =
            sample_command("sobel", selection, run.photos, run.results);
        const auto one_by_one = [&] {
            for (const auto& photo : fs::directory_iterator(run.photos))
                run_process(sample_command("sobel", selection, photo.path(),
                                           run.results / (photo.path().stem().string() + ".png")));
        };
        run_process(batch);  // warm-up: the driver's and PoCL's caches, the page cache
        Samples batch_seconds, single_seconds;
        for (auto _ : state) {
            fs::remove_all(run.results);
            fs::create_directory(run.results);
            const auto single_start = Clock::now();
            one_by_one();
            single_seconds.add(seconds_since(single_start));
            fs::remove_all(run.results);
            const auto start = Clock::now();
            run_process(batch);
            const double seconds = seconds_since(start);
            state.SetIterationTime(seconds);
            batch_seconds.add(seconds);
        }
        set_counters(state, batch_seconds, kBatchPhotos * size.pixels());
        state.counters["photos_per_s"] = kBatchPhotos / batch_seconds.median();
        state.counters["one_process_each_photos_per_s"] = kBatchPhotos / single_seconds.median();
    });
}

}  // namespace

void register_file_runs(const OpenClContext& cl, const DeviceSelection& selection, Size size)
{
    for (const std::string sample : {"sobel", "sobel_no_vectors", "fir_float", "morphology_packed"})
        register_file_job("file/" + sample + "/process/" + size_name(size), cl, selection, size,
                          [sample, selection](const fs::path& input, const fs::path& output) {
                              run_process(sample_command(sample, selection, input, output));
                          });
    const FileJob sobel = [selection](const fs::path& input, const fs::path& output) {
        run_process(sample_command("sobel", selection, input, output));
    };
    register_file_job("file/sobel/bmp_to_png/" + size_name(size), cl, selection, size, sobel,
                      FileKinds::bmp_to_png);
    register_file_job("file/sobel/jpeg_to_png/" + size_name(size), cl, selection, size, sobel,
                      FileKinds::jpeg_to_png);
    benchmark::RegisterBenchmark(("file/sobel/batch/" + size_name(size)).c_str(), time_batch,
                                 selection, size)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
#ifdef SDK_BENCH_OPENCV_FILES
    // OpenCV doing sobel's job in this (warm) process: read, grey, Sobel, magnitude, write.
    register_file_job("file/opencv_sobel/job/" + size_name(size), cl, selection, size,
                      opencv_sobel_job);
#endif
}

}  // namespace sdk::bench
