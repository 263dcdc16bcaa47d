// SPDX-License-Identifier: Apache-2.0
#pragma once
// The end-to-end tests' way to run a sample: a child process with exactly the arguments given (no
// shell), its output into files, a time limit, and what it did collected as an Outcome.
#include "common/imageio/file_io.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace e2etest {

namespace fs = std::filesystem;

// A sample that hangs is a failure too; kernel builds on a slow CPU device take seconds.
constexpr std::chrono::seconds kTimeLimit{120};

// Built with AddressSanitizer: the samples' memory and limits are not a plain build's.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

constexpr int kFailure = 1;
constexpr int kUsageError = 2;

struct Outcome {
    bool exited = false;      // false: killed by a signal or the time limit
    int status = -1;          // the exit status when exited
    std::string how;          // for failure messages: "exit status 1", "killed by signal 11", ...
    int signal = 0;           // the signal that stopped it, when not exited
    long peak_memory_kb = 0;  // its largest resident set (getrusage's ru_maxrss)
    std::string out;
    std::string err;
};

// A sample's stderr without the lines an OpenCL driver prints itself while it compiles our
// kernels, which no sample can keep from the terminal: Mesa's rusticl (22.3, on llvmpipe) warns
// "Treating load_kernel_arg in control flow as uniform, results may be incorrect" for some
// morphology kernels, once per compile, so in whichever test compiles them first. Their results
// are checked bit for bit against the C++ reference there, as everywhere (docs/portability.md).
inline std::string without_driver_chatter(const std::string& err)
{
    static const std::string kMesaUniformArgument =
        "MESA: warning: Treating load_kernel_arg in control flow as uniform";
    std::string kept;
    std::istringstream lines(err);
    for (std::string line; std::getline(lines, line);)
        if (line.rfind(kMesaUniformArgument, 0) != 0) kept += line + "\n";
    if (!err.empty() && err.back() != '\n' && !kept.empty()) kept.pop_back();
    return kept;
}

// The samples under test: every one that samples/CMakeLists.txt adds with add_sample.
inline std::vector<std::string> sample_names()
{
    std::vector<std::string> names;
    std::stringstream list(SDK_SAMPLES);
    for (std::string name; std::getline(list, name, ',');) names.push_back(name);
    return names;
}

// A sample's error is one line: the tests count them.
inline std::size_t count_lines(const std::string& text)
{
    return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

inline std::string read_text(const fs::path& path)
{
    const auto bytes = sdk::read_file(path);
    return std::string(bytes.begin(), bytes.end());
}

// How a child is started: limits a test needs (0 = none).
struct RunOptions {
    std::uint64_t file_size_limit =
        0;  // RLIMIT_FSIZE: a write past it fails (EFBIG), as a full disk
    std::uint64_t open_files_limit = 0;              // RLIMIT_NOFILE, as `ulimit -n`
    std::uint64_t address_space_bytes = 0;           // RLIMIT_AS, as `ulimit -v` (which counts KiB)
    std::map<std::string, std::string> environment;  // set (or replaced) in the child's environment
};

struct Started {
    pid_t pid = -1;
    fs::path out_path;
    fs::path err_path;
};

// Starts `program` with exactly `arguments` (no shell: nothing is quoted or expanded) in
// `working_folder`, stdin from /dev/null, stdout and stderr into files under `logs`.
inline Started start_program(const fs::path& program, const std::vector<std::string>& arguments,
                             const fs::path& working_folder, const fs::path& logs,
                             const RunOptions& options = {})
{
    Started started{-1, logs / "stdout.txt", logs / "stderr.txt"};
    // Everything the child needs is prepared before fork(): after it, only async-signal-safe calls.
    std::vector<std::string> words{program.string()};
    words.insert(words.end(), arguments.begin(), arguments.end());
    std::vector<char*> argv;
    for (auto& word : words) argv.push_back(word.data());
    argv.push_back(nullptr);
    std::vector<std::string> settings;
    for (char** entry = environ; *entry; ++entry) {
        const std::string setting = *entry;
        if (!options.environment.count(setting.substr(0, setting.find('='))))
            settings.push_back(setting);
    }
    for (const auto& [name, value] : options.environment) settings.push_back(name + "=" + value);
    std::vector<char*> envp;
    for (auto& setting : settings) envp.push_back(setting.data());
    envp.push_back(nullptr);

    const pid_t child = ::fork();
    if (child < 0) {
        ADD_FAILURE() << "fork: " << std::strerror(errno);
        return started;
    }
    if (child == 0) {
        const int input = ::open("/dev/null", O_RDONLY);
        const int output = ::open(started.out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int error = ::open(started.err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (input < 0 || output < 0 || error < 0 || ::dup2(input, 0) < 0 || ::dup2(output, 1) < 0 ||
            ::dup2(error, 2) < 0 || ::chdir(working_folder.c_str()) != 0) {
            ::_exit(126);
        }
        // Nothing else of the test's: the child starts with 0, 1 and 2, as from a shell, so an
        // open-files limit means what `ulimit -n` does there.
        ::close_range(3, ~0u, 0);
        if (options.file_size_limit) {
            const struct rlimit limit {
                options.file_size_limit, options.file_size_limit
            };
            ::signal(SIGXFSZ, SIG_IGN);  // the write then fails with EFBIG instead of a core dump
            if (::setrlimit(RLIMIT_FSIZE, &limit) != 0) ::_exit(126);
        }
        const std::pair<decltype(RLIMIT_AS), std::uint64_t> limits[] = {
            {RLIMIT_NOFILE, options.open_files_limit}, {RLIMIT_AS, options.address_space_bytes}};
        for (const auto& [resource, value] : limits) {
            const struct rlimit limit {
                value, value
            };
            if (value && ::setrlimit(resource, &limit) != 0) ::_exit(126);
        }
        ::execve(argv[0], argv.data(), envp.data());
        ::_exit(127);
    }
    started.pid = child;
    return started;
}

// Waits for a started child (killing it after kTimeLimit) and collects what it did.
inline Outcome wait_for(const Started& started)
{
    Outcome outcome;
    if (started.pid < 0) return outcome;
    int wait_status = 0;
    struct rusage usage {};
    const auto deadline = std::chrono::steady_clock::now() + kTimeLimit;
    for (;;) {
        const pid_t done = ::wait4(started.pid, &wait_status, WNOHANG, &usage);
        if (done == started.pid) break;
        if (done < 0 && errno != EINTR) {
            ADD_FAILURE() << "waitpid: " << std::strerror(errno);
            return outcome;
        }
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(started.pid, SIGKILL);
            ::waitpid(started.pid, &wait_status, 0);
            outcome.how = "killed after " + std::to_string(kTimeLimit.count()) + " s";
            return outcome;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    outcome.peak_memory_kb = usage.ru_maxrss;
    if (WIFEXITED(wait_status)) {
        outcome.exited = true;
        outcome.status = WEXITSTATUS(wait_status);
        outcome.how = "exit status " + std::to_string(outcome.status);
    } else {
        outcome.signal = WTERMSIG(wait_status);
        outcome.how = "killed by signal " + std::to_string(outcome.signal);
    }
    outcome.out = read_text(started.out_path);
    outcome.err = without_driver_chatter(read_text(started.err_path));
    return outcome;
}

inline Outcome run_program(const fs::path& program, const std::vector<std::string>& arguments,
                           const fs::path& working_folder, const fs::path& logs,
                           const RunOptions& options = {})
{
    return wait_for(start_program(program, arguments, working_folder, logs, options));
}

}  // namespace e2etest
