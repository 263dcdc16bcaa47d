// SPDX-License-Identifier: Apache-2.0
#include "samples/app/batch.hpp"

#include "samples/app/messages.hpp"
#include "samples/app/photos_in_flight.hpp"
#include "samples/app/sample_io.hpp"

#include "common/imageio/bmp.hpp"
#include "common/imageio/cores.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/image_file.hpp"
#include "common/imageio/input_file.hpp"
#include "common/imageio/jpeg.hpp"
#include "common/imageio/output_set.hpp"
#include "common/imageio/png.hpp"
#include "common/imageio/temporary_files.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/pipeline_timer.hpp"
#include "common/runtime/process_start.hpp"
#include "common/runtime/program.hpp"
#include "common/runtime/json_text.hpp"
#include "common/runtime/trace.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <system_error>
#include <thread>

#include <unistd.h>

namespace sdk {
namespace {

namespace fs = std::filesystem;

std::string quoted(const fs::path& path)
{
    return "'" + path.string() + "'";
}

// Whether a folder's file is one of its photos: an image by its first bytes, or a file that
// cannot be read (kept, so that it fails by name rather than vanish from the batch).
bool is_photo(const fs::path& file)
{
    try {
        detect_image_format(InputFile(file));
        return true;
    } catch (const ImageError&) {
        return false;  // read, and not an image: a README or a sidecar file beside the photos
    } catch (const std::exception&) {
        return true;
    }
}

// A photo's pixels by its header, 0 where it cannot be read (the photo then fails by name when
// its turn comes).
std::uint64_t pixels_of(const fs::path& photo)
{
    try {
        const InputFile file(photo);
        switch (detect_image_format(file)) {
            case ImageFormat::bmp: {
                const BmpLayout layout = read_bmp_layout(file);
                return layout.width * layout.height;
            }
            case ImageFormat::png: {
                const ImageHeader header = read_png_header(file);
                return std::uint64_t{header.width} * header.height;
            }
            case ImageFormat::jpeg: {
                const ImageHeader header = read_jpeg_header(file);
                return std::uint64_t{header.width} * header.height;
            }
        }
    } catch (const std::exception&) {
    }
    return 0;
}

std::vector<fs::path> photos_in_folder(const fs::path& folder, std::vector<std::string>* skipped)
{
    std::vector<fs::path> photos;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
        const std::string name = entry.path().filename().string();
        // Dot files are hidden by convention, and a run's own temporaries are named so.
        if (name.empty() || name[0] == '.' || entry.is_directory(error)) continue;
        if (is_photo(entry.path())) photos.push_back(entry.path());
    }
    if (error) throw FileError("cannot read the folder " + quoted(folder) + ": " + error.message());
    if (photos.empty())
        throw FileError(quoted(folder) + " is a directory with no BMP, PNG or JPEG file in it");
    std::sort(photos.begin(), photos.end());
    // A link to another photo of the folder (latest.png -> IMG_0001.png) is that photo again:
    // left out, saying so, where the batch refused the folder whole as if the user had listed a
    // file twice.
    std::map<fs::path, fs::path> not_links;  // a photo's file -> its name, links left out
    for (const fs::path& photo : photos)
        if (!fs::is_symlink(photo, error)) not_links.emplace(normalised(photo), photo);
    std::vector<fs::path> kept;
    for (const fs::path& photo : photos) {
        const auto same = not_links.find(normalised(photo));
        if (fs::is_symlink(photo, error) && same != not_links.end()) {
            if (skipped)
                skipped->push_back("Skipped " + printable(photo.string()) + ": a link to " +
                                   printable(same->second.filename().string()) +
                                   ", which the batch reads already");
            continue;
        }
        kept.push_back(photo);
    }
    return kept;
}

// Options that describe one run, not a photo's: each refused in a batch, saying why.
struct RefusedInBatch {
    const char* option;
    const char* why;
};
constexpr std::array<RefusedInBatch, 5> kRefusedInBatch{{
    {"--save-raw", "writes one run's arrays into one folder; run it on one photo"},
    {"--floor", "measures one photo's job; run it on one photo"},
    {"--iterations", "times one photo's kernel; run it on one photo"},
    {"--save-gradients", "writes beside one output; run it on one photo"},
    {"--retune",
     "would measure again for every photo; run it on one photo, and the batch uses "
     "its choice"},
}};

void refuse_single_run_options(CLI::App& app)
{
    for (const RefusedInBatch& refused : kRefusedInBatch) {
        const CLI::Option* option = app.get_option_no_throw(refused.option);
        if (option && option->count() > 0)
            throw UsageError(std::string(refused.option) + " is not for a batch: it " +
                             refused.why);
    }
    const CLI::Option* output = app.get_option_no_throw("--output");
    if (output && output->count() == 0)
        throw UsageError("a batch needs -o FOLDER, the folder its results go into");
}

// Where a photo's time goes, by the names its steps are timed under (the step table's lines).
enum class Stage { start, decode, device, encode };
constexpr std::array<const char*, 4> kStageNames{"device start", "decode", "device", "encode"};

bool starts_with(const std::string& text, const std::string& prefix)
{
    return text.rfind(prefix, 0) == 0;
}

Stage stage_of(const std::string& step)
{
    if (step == "start the program" || step == "start the OpenCL driver" ||
        step == "find the device" || step == "create context" || step == "build kernels" ||
        starts_with(step, "build kernel "))
        return Stage::start;
    if (starts_with(step, "open ") || starts_with(step, "read ") || starts_with(step, "RGB to") ||
        starts_with(step, "wait for "))
        return Stage::decode;
    if (starts_with(step, "write ") || starts_with(step, "compress") ||
        step == "put the outputs in place")
        return Stage::encode;
    return Stage::device;  // uploads, kernels, downloads, and the host's share of the filter
}

// A photo's device stage, split: the device's own time on the commands enqueued during its
// device steps (each command's profiling START to END) is its working time; the rest of those
// steps is the host's: its driver calls, its copies into and out of staging memory, and waiting
// (for a lock, the driver, a core, or commands queued before its own).
class PhotoDeviceWork {
public:
    void step(const PipelineTimer::Step& step)
    {
        if (stage_of(step.name) == Stage::device) steps_.emplace_back(step.start, step.end);
    }
    void command(const cl::Event& event)
    {
        commands_.emplace_back(std::chrono::steady_clock::now(), event);
    }
    // The photo's working milliseconds; then forgets the photo, for the next one.
    double take_working_ms()
    {
        double ms = 0;
        for (const auto& [enqueued, event] : commands_)
            for (const auto& [start, end] : steps_)
                if (start <= enqueued && enqueued <= end) {
                    ms += command_ms(event);
                    break;
                }
        steps_.clear();
        commands_.clear();
        return ms;
    }

private:
    using Moment = std::chrono::steady_clock::time_point;
    std::vector<std::pair<Moment, Moment>> steps_;
    std::vector<std::pair<Moment, cl::Event>> commands_;
};

// What the batch's threads share, each piece behind the one lock: the next photo, the counts,
// the stages' sums and the terminal.
class BatchProgress {
public:
    // The thread of the first photos, run alone, is the first; add_workers adds the others.
    BatchProgress(std::size_t photos, bool quiet) : photos_(photos), quiet_(quiet)
    {
        add_workers(1);
    }

    // `count` more threads photos run on, one --trace track each; before they start.
    void add_workers(std::size_t count)
    {
        const std::lock_guard<std::mutex> hold(lock_);
        for (std::size_t added = 0; added < count; ++added) {
            tracks_.emplace_back();
            tracks_.back().name = "photos on thread " + std::to_string(tracks_.size());
        }
    }

    void add_step(const PipelineTimer::Step& step, std::size_t worker, const BatchPhoto& photo)
    {
        const std::lock_guard<std::mutex> hold(lock_);
        const Stage stage = stage_of(step.name);
        stage_ms_[static_cast<std::size_t>(stage)] += step.ms;
        // For --trace: the step as a bar on its thread's track, named after its photo.
        const std::string photo_name = photo.input.filename().string();
        tracks_[worker].events.push_back({photo_name + ": " + step.name,
                                          kStageNames[static_cast<std::size_t>(stage)],
                                          since_start_ns(step.start), since_start_ns(step.end),
                                          "{\"photo\": " + json_string(photo.input.string()) +
                                              ", \"bytes\": " + std::to_string(step.bytes) + "}"});
    }

    // The batch's timeline: every photo's steps, a track per thread, 0 = the batch's start.
    std::string trace_json(const std::string& name) const
    {
        const std::lock_guard<std::mutex> hold(lock_);
        return chrome_trace_json(name + " batch", tracks_,
                                 "{\"host_clock\": \"std::chrono::steady_clock, 0 = the batch's "
                                 "start\", \"photos\": " +
                                     std::to_string(photos_) + "}");
    }

    // A photo done: its line on stdout (written), or its error already on stderr (failed);
    // `device_working_ms` is its device stage's working time (PhotoDeviceWork).
    void finished(const BatchPhoto& photo, bool written, double device_working_ms)
    {
        const std::lock_guard<std::mutex> hold(lock_);
        ++(written ? written_ : failed_);
        device_working_ms_ += device_working_ms;
        clear_progress_line();
        if (written && !quiet_)
            std::cout << "Wrote " << printable(photo.output.string()) << "\n" << std::flush;
        show_progress_line();
    }

    // Before an error's line on stderr: the progress line out of its way.
    void before_error()
    {
        const std::lock_guard<std::mutex> hold(lock_);
        clear_progress_line();
    }

    std::size_t written() const
    {
        const std::lock_guard<std::mutex> hold(lock_);
        return written_;
    }

    std::size_t failed() const
    {
        const std::lock_guard<std::mutex> hold(lock_);
        return failed_;
    }

    // The time is the whole process's, from its start (process_start) to now, after its last
    // result was put in place: what a user waits, device start and program loading included.
    void print_summary(std::ostream& out, unsigned jobs, std::size_t devices) const
    {
        const std::lock_guard<std::mutex> hold(lock_);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - process_start())
                .count();
        out << std::fixed << std::setprecision(2) << "Batch: " << written_ << " of " << photos_
            << " photos written in " << seconds << " s from the process's start, device start "
            << "included, " << static_cast<double>(written_) / seconds << " photos/s, " << jobs
            << " in flight at once";
        if (devices > 1) out << " on " << devices << " devices";
        if (failed_ > 0) out << "; " << failed_ << " failed";
        // A usage or build error stops the batch: the photos it did not start are counted too.
        if (const std::size_t not_started = photos_ - written_ - failed_; not_started > 0)
            out << "; " << not_started << " not started (the batch stopped at the error above)";
        out << "\nTime in each stage, summed over the photos (stages of different photos "
               "overlap):\n";
        double total = 0;
        for (const double ms : stage_ms_) total += ms;
        std::size_t busiest = 0;
        for (std::size_t stage = 0; stage < stage_ms_.size(); ++stage) {
            if (stage_ms_[stage] > stage_ms_[busiest]) busiest = stage;
            out << "  " << std::left << std::setw(14) << kStageNames[stage] << std::right
                << std::setw(11) << std::setprecision(1) << stage_ms_[stage] << " ms"
                << std::setw(6) << std::setprecision(0)
                << (total > 0 ? 100 * stage_ms_[stage] / total : 0) << "%\n";
            if (stage != static_cast<std::size_t>(Stage::device)) continue;
            const double working = std::min(device_working_ms_, stage_ms_[stage]);
            out << std::setprecision(1) << "    working" << std::setw(16) << working
                << " ms  the device's own time on its transfers and kernels\n"
                << "    waiting" << std::setw(16) << stage_ms_[stage] - working
                << " ms  the rest: driver calls, staging copies, waiting for both\n";
        }
        out << "The busiest stage: " << kStageNames[busiest] << "\n";
    }

private:
    std::int64_t since_start_ns(std::chrono::steady_clock::time_point moment) const
    {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(moment - start_).count();
    }

    double elapsed_seconds() const
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

    // On a terminal, once the batch has run a second: "[k/N photos, x.x photos/s]".
    void show_progress_line()
    {
        if (!on_terminal_ || elapsed_seconds() < 1.0 || written_ + failed_ == photos_) return;
        std::ostringstream line;
        line << std::fixed << std::setprecision(1) << "\r[" << written_ + failed_ << "/" << photos_
             << " photos, " << static_cast<double>(written_) / elapsed_seconds() << " photos/s]";
        std::cerr << line.str() << std::flush;
        showing_ = true;
    }

    void clear_progress_line()
    {
        if (showing_) std::cerr << "\r\033[K" << std::flush;
        showing_ = false;
    }

    mutable std::mutex lock_;
    const std::size_t photos_;
    const bool quiet_;
    const bool on_terminal_ = ::isatty(STDERR_FILENO) == 1;
    const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    std::size_t written_ = 0;
    std::size_t failed_ = 0;
    bool showing_ = false;
    std::array<double, 4> stage_ms_{};
    double device_working_ms_ = 0;
    std::vector<TraceTrack> tracks_;
};

// The folders -o makes (`-o new/deeper/results`: all three when none exists), removed again at the
// end, deepest first, if the batch left them empty: a batch that writes nothing leaves nothing.
class MadeFolders {
public:
    explicit MadeFolders(const fs::path& folder)
    {
        std::error_code error;
        fs::path missing = fs::absolute(folder, error).lexically_normal();
        if (error) return;
        if (missing.filename().empty()) missing = missing.parent_path();  // "results/"
        std::error_code not_there;  // set for every missing folder: only its answer matters
        while (missing.has_relative_path() && !fs::exists(fs::symlink_status(missing, not_there))) {
            missing_.push_back(missing);
            missing = missing.parent_path();
        }
    }
    ~MadeFolders()
    {
        for (const fs::path& folder : missing_) {
            std::error_code error;
            if (!fs::is_directory(folder, error) || !fs::is_empty(folder, error)) break;
            fs::remove(folder, error);
        }
    }
    MadeFolders(const MadeFolders&) = delete;
    MadeFolders& operator=(const MadeFolders&) = delete;

private:
    std::vector<fs::path> missing_;  // deepest first
};

}  // namespace

bool is_batch(const std::vector<fs::path>& inputs)
{
    std::error_code ignored;
    return inputs.size() > 1 || (inputs.size() == 1 && fs::is_directory(inputs.front(), ignored));
}

std::vector<fs::path> photos_of(const std::vector<fs::path>& inputs,
                                std::vector<std::string>* skipped)
{
    std::vector<fs::path> photos;
    for (const fs::path& input : inputs) {
        std::error_code ignored;
        if (!fs::is_directory(input, ignored)) {
            photos.push_back(input);
            continue;
        }
        for (const fs::path& photo : photos_in_folder(input, skipped)) photos.push_back(photo);
    }
    return photos;
}

std::vector<BatchPhoto> plan_batch(const std::vector<fs::path>& photos, const fs::path& folder,
                                   const std::string& format)
{
    std::error_code error;
    if (fs::exists(folder, error) && !fs::is_directory(folder, error))
        throw UsageError("-o " + quoted(folder) +
                         ": a batch writes its results into a folder, "
                         "and this is a file");
    if (fs::is_symlink(fs::symlink_status(folder, error)) && !fs::exists(folder, error))
        throw UsageError("-o " + quoted(folder) + ": a symbolic link to " +
                         quoted(fs::read_symlink(folder, error)) +
                         ", which does not exist; make that folder, or name another");
    std::map<fs::path, fs::path> by_file;  // a photo's file (links and dots resolved) -> as given
    std::map<fs::path, fs::path> by_result;
    std::vector<BatchPhoto> plan;
    for (const fs::path& photo : photos) {
        const auto [earlier, first] = by_file.emplace(normalised(photo), photo);
        if (!first)
            throw UsageError(
                quoted(photo) + " is in the batch twice" +
                (earlier->second == photo ? "" : " (as " + quoted(earlier->second) + ")"));
        BatchPhoto planned{photo, folder / photo.stem()};
        planned.output += format == "bmp" ? ".bmp" : ".png";
        const auto [same_name, unique] = by_result.emplace(normalised(planned.output), photo);
        if (!unique)
            throw UsageError(quoted(same_name->second) + " and " + quoted(photo) +
                             " would both be written as " + quoted(planned.output) +
                             " (one stem, one result)");
        plan.push_back(planned);
    }
    for (const BatchPhoto& planned : plan) {
        const auto input = by_file.find(normalised(planned.output));
        if (input != by_file.end())
            throw UsageError(quoted(planned.output) + " would replace the input " +
                             quoted(input->second));
    }
    return plan;
}

int run_batch(CLI::App& app, const CommonOptions& options, const SampleBody& body)
{
    const std::string name = app.get_name().empty() ? "sample" : app.get_name();
    std::vector<BatchPhoto> plan;
    // --devices all: the photos' threads take the devices in turn, thread k device k mod n.
    std::vector<DeviceSelection> devices{options.device};
    std::vector<std::string> skipped;  // links to photos the batch reads already
    const int refused = exit_status_of(name, [&] {
        refuse_single_run_options(app);
        if (options.output.empty()) throw UsageError("-o: an empty path names no folder");
        plan = plan_batch(photos_of(options.inputs, &skipped), options.output,
                          options.output_format.empty() ? "png" : options.output_format);
        if (options.trace)
            for (const BatchPhoto& planned : plan)
                if (normalised(*options.trace) == normalised(planned.input) ||
                    normalised(*options.trace) == normalised(planned.output))
                    throw UsageError("--trace " + quoted(*options.trace) +
                                     " is one of the batch's " +
                                     "photos or results; name another file");
        if (options.devices == "all") devices = every_device_like(options.device);
    });
    if (refused != 0) return refused;
    if (!options.quiet)
        for (const std::string& line : skipped) std::cout << line << "\n";

    // Before any thread starts (the workers, the drivers'): the stopping signals go to the
    // thread that removes temporaries, so a photo in flight leaves none (temporary_files.hpp).
    take_stopping_signals();
    reuse_contexts();
    const MadeFolders made_folders(options.output);
    std::error_code error;
    fs::create_directories(options.output, error);
    if (error) {
        std::cerr << name << ": cannot create the folder " << quoted(options.output) << ": "
                  << error.message() << "\n";
        return 1;
    }
    // The trace is the batch's own output: reserved now, before any photo, with the checks of a
    // single run's outputs (not a device, a FIFO or a folder; its folder there), and written at
    // the end. The drivers start first, so that their signal handlers are behind the set's.
    std::optional<OutputSet> trace_file;
    if (options.trace) {
        const int status = exit_status_of(name, [&] {
            let_the_drivers_start();
            refuse_replacing_what_runs_read({*options.trace});
            std::vector<fs::path> inputs;
            for (const BatchPhoto& planned : plan) inputs.push_back(planned.input);
            trace_file.emplace(inputs, std::vector<fs::path>{*options.trace});
        });
        if (status != 0) return status;
    }

    BatchProgress progress(plan.size(), options.quiet);
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    std::atomic<int> stopped_with{0};  // the exit status of an error that stopped the batch

    // `worker`: the thread's number, its track in --trace (0 runs the first photo alone).
    const auto run_photos = [&](std::size_t last, std::size_t worker) {
        const BatchPhoto* current = nullptr;
        PhotoDeviceWork device_work;
        observe_steps_on_this_thread([&](const PipelineTimer::Step& step) {
            if (!current) return;
            progress.add_step(step, worker, *current);
            device_work.step(step);
        });
        observe_commands_on_this_thread(
            [&](const cl::Event& event) { device_work.command(event); });
        // `last` is 1 for the first photo, run alone: then no index is taken past it.
        while (!stop && next < last) {
            const std::size_t index = next++;
            if (index >= last) break;
            const BatchPhoto& photo = plan[index];
            current = &photo;
            CommonOptions photo_options = options;
            photo_options.inputs = {photo.input};
            photo_options.input = photo.input;
            photo_options.output = photo.output;
            photo_options.quiet = true;
            photo_options.device = devices[worker % devices.size()];
            photo_options.trace.reset();  // the batch writes one timeline of every photo
            bool build_failed = false;
            const auto work = [&] {
                try {
                    body(photo_options);
                } catch (const BuildError&) {
                    build_failed = true;
                    progress.before_error();
                    throw;
                } catch (...) {
                    progress.before_error();
                    throw;
                }
            };
            const ImageInFlight in_flight;  // its codecs share the cores with the others'
            const int status = exit_status_of(name, work, photo.input.string());
            if (status == 2 || build_failed) {  // not the photo: every photo would fail so
                stopped_with = status;
                stop = true;
            }
            progress.finished(photo, status == 0, device_work.take_working_ms());
        }
        observe_steps_on_this_thread({});
        observe_commands_on_this_thread({});
    };
    // The first photo alone: it starts the device, builds the programs and, for a size class
    // not yet measured, tunes on a quiet machine; the others reuse all three. A photo refused
    // before the device started (at its header) started nothing, so the photos go one at a time
    // until one is written: two threads starting a driver at once crashed PoCL.
    while (!stop && next < plan.size() && progress.written() == 0) run_photos(next + 1, 0);
    // Then the others, as many at once as the machine holds (photos_in_flight.hpp): decided now
    // that the device has started, as its memory is asked of the driver. The largest photo sets
    // what each photo in flight may need: every header is read for it, about 0.1 to 0.3 ms a
    // photo (2000 camera JPEGs: 0.2 to 0.6 s on the 2-core VM), under 1% of their batch.
    unsigned jobs = 1;
    std::vector<std::thread> workers;
    if (!stop && next < plan.size()) {
        std::uint64_t largest = 0;
        for (std::size_t index = next; index < plan.size(); ++index)
            largest = std::max(largest, pixels_of(plan[index].input));
        std::string cut;
        jobs = jobs_for(options.jobs, plan.size() - next,
                        photos_in_flight(this_machine(devices, largest)), cut);
        if (!cut.empty() && !options.quiet) {
            progress.before_error();
            note(cut);
        }
        progress.add_workers(jobs);
        for (unsigned worker = 1; worker <= jobs; ++worker)
            workers.emplace_back(run_photos, plan.size(), worker);
    }
    for (std::thread& worker : workers) worker.join();

    if (trace_file) {
        const int status = exit_status_of(name, [&] {
            const std::string json = progress.trace_json(name);
            write_file_atomically(*options.trace,
                                  reinterpret_cast<const std::uint8_t*>(json.data()), json.size());
            trace_file->commit();
        });
        if (status != 0) return status;
        if (!options.quiet) std::cout << "Wrote " << printable(options.trace->string()) << "\n";
    }

    if (!options.quiet) progress.print_summary(std::cout, jobs, devices.size());
    if (stopped_with != 0) return stopped_with;
    return progress.failed() > 0 ? 1 : 0;
}

}  // namespace sdk
