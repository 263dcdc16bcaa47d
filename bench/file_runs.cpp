#include "file_runs.hpp"

#include "imageio/bmp.hpp"
#include "imageio/input_file.hpp"
#include "runtime/errors.hpp"
#include "runtime/program.hpp"
#include "runtime/transfers.hpp"

#ifdef SDK_BENCH_OPENCV_FILES
#include "opencv_baselines.hpp"
#endif

#include <fcntl.h>
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
                                     fs::temp_directory_path().string() + ": " + std::strerror(errno));
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
void write_random_rgb_bmp(const fs::path& path, Size size)
{
    Image image{size.width, size.height, 3, std::vector<std::uint8_t>(3 * size.pixels())};
    std::mt19937_64 generator(7);
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

// The floor: what the machine must move for the job, whatever the program. Each part is the
// plainest fast way to move those bytes: the whole input read from the page cache (InputFile
// splits a large read over threads), the output's bytes written to a new file in one write, and
// on a device with memory of its own, both crossing the host link from pinned host memory.
// Beside it, not in it: what the driver costs any OpenCL process on this machine, started and
// stopped with nothing in between (opencl_start_stop, a process of its own).
class Floor {
public:
    Floor(const OpenClContext& cl, const fs::path& input, const fs::path& output,
          std::uint64_t output_bytes, std::vector<std::string> start_stop)
        : input_(input), output_(output), read_buffer_(fs::file_size(input)),
          write_buffer_(output_bytes, 0x5a), start_stop_(std::move(start_stop))
    {
        if (cl.device.getInfo<CL_DEVICE_HOST_UNIFIED_MEMORY>()) return;
        // One pinned buffer, mapped once, as large as the larger transfer, and device buffers
        // for each: the link's own speed, with nothing else in the way.
        const std::size_t largest = std::max(read_buffer_.size(), write_buffer_.size());
        while_doing("allocating the floor's pinned and device buffers", [&] {
            queue_ = cl.queue;
            pinned_ = cl::Buffer(cl.context, CL_MEM_ALLOC_HOST_PTR, largest);
            pinned_host_ = queue_.enqueueMapBuffer(pinned_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0,
                                                   largest);
            std::memset(pinned_host_, 0x5a, largest);
            device_in_ = cl::Buffer(cl.context, CL_MEM_READ_WRITE, read_buffer_.size());
            device_out_ = cl::Buffer(cl.context, CL_MEM_READ_WRITE, write_buffer_.size());
        });
    }
    ~Floor()
    {
        if (pinned_host_) {
            queue_.enqueueUnmapMemObject(pinned_, pinned_host_);
            queue_.finish();
        }
    }
    Floor(const Floor&) = delete;
    Floor& operator=(const Floor&) = delete;

    struct Parts {
        double read = 0, write = 0, link = 0;
        double driver = 0;  // the driver's start and stop, not part of total()
        double total() const { return read + write + link; }
    };

    Parts measure()
    {
        Parts parts;
        auto start = Clock::now();
        InputFile(input_).read_at(0, read_buffer_.data(), read_buffer_.size());
        parts.read = seconds_since(start);

        start = Clock::now();
        write_all();
        parts.write = seconds_since(start);
        fs::remove(output_);

        if (pinned_host_) {
            start = Clock::now();
            while_doing("timing the host link", [&] {
                queue_.enqueueWriteBuffer(device_in_, CL_TRUE, 0, read_buffer_.size(), pinned_host_);
                queue_.enqueueReadBuffer(device_out_, CL_TRUE, 0, write_buffer_.size(), pinned_host_);
            });
            parts.link = seconds_since(start);
        }

        start = Clock::now();
        run_process(start_stop_);
        parts.driver = seconds_since(start);
        return parts;
    }

private:
    void write_all()
    {
        const int file = ::open(output_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (file < 0) throw std::runtime_error("cannot create " + output_.string());
        std::size_t done = 0;
        while (done < write_buffer_.size()) {
            const ssize_t wrote = ::write(file, write_buffer_.data() + done, write_buffer_.size() - done);
            if (wrote <= 0) {
                ::close(file);
                throw std::runtime_error("cannot write " + output_.string() + ": " + std::strerror(errno));
            }
            done += static_cast<std::size_t>(wrote);
        }
        ::close(file);
    }

    fs::path input_;
    fs::path output_;
    std::vector<unsigned char> read_buffer_;
    std::vector<unsigned char> write_buffer_;
    cl::CommandQueue queue_;
    cl::Buffer pinned_;
    void* pinned_host_ = nullptr;
    cl::Buffer device_in_;
    cl::Buffer device_out_;
    std::vector<std::string> start_stop_;
};

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

struct FileRun {
    ScratchFolder folder;
    fs::path input = folder.path() / "input.bmp";
    fs::path output = folder.path() / "output.bmp";
    std::unique_ptr<Floor> floor;
};

// One run of the job, file in to file out: a sample as a process, or OpenCV in this process.
using FileJob = std::function<void(const fs::path& input, const fs::path& output)>;

void time_file_job(benchmark::State& state, const OpenClContext* cl, const DeviceSelection& selection,
                   Size size, const FileJob& job)
{
    guarded(state, [&] {
        auto& run = reuse_setup<FileRun>("file/" + size_name(size), [&] {
            auto made = std::make_shared<FileRun>();
            write_random_rgb_bmp(made->input, size);
            made->floor = std::make_unique<Floor>(*cl, made->input, made->folder.path() / "floor.bmp",
                                                  bmp_grey_header(size.width, size.height).size() +
                                                      bmp_grey_stride(size.width) * size.height,
                                                  command_on_device("opencl_start_stop", selection));
            return made;
        });
        job(run.input, run.output);  // warm-up: the driver's and PoCL's caches, the page cache
        Samples job_seconds, floor, read, write, link, driver;
        for (auto _ : state) {
            const Floor::Parts parts = run.floor->measure();
            floor.add(parts.total());
            read.add(parts.read);
            write.add(parts.write);
            link.add(parts.link);
            driver.add(parts.driver);
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
        if (floor.median() > 0) state.counters["over_floor"] = job_seconds.median() / floor.median();
        state.counters["over_floor_and_driver"] =
            job_seconds.median() / (floor.median() + driver.median());
    });
}

void register_file_job(const std::string& name, const OpenClContext& cl,
                       const DeviceSelection& selection, Size size, FileJob job)
{
    benchmark::RegisterBenchmark(name.c_str(), time_file_job, &cl, selection, size, std::move(job))
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
}

}  // namespace

void register_file_runs(const OpenClContext& cl, const DeviceSelection& selection, Size size)
{
    for (const std::string sample : {"sobel", "sobel_no_vectors", "fir_float", "morphology_packed"})
        register_file_job("file/" + sample + "/process/" + size_name(size), cl, selection, size,
                          [sample, selection](const fs::path& input, const fs::path& output) {
                              run_process(sample_command(sample, selection, input, output));
                          });
#ifdef SDK_BENCH_OPENCV_FILES
    // OpenCV doing sobel's job in this (warm) process: read, grey, Sobel, magnitude, write.
    register_file_job("file/opencv_sobel/job/" + size_name(size), cl, selection, size,
                      opencv_sobel_job);
#endif
}

}  // namespace sdk::bench
