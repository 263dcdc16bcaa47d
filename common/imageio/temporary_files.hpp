// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <filesystem>

namespace sdk {

// Temporary files a run has created and not yet renamed into place. While one is remembered,
// they are all removed when the process is stopped by a signal sent to it (SIGINT, SIGTERM, SIGHUP,
// SIGQUIT, SIGABRT, SIGALRM, SIGUSR1, SIGUSR2: Ctrl-C, Ctrl-\, kill, timeout), by SIGPIPE (its
// output piped into a reader that left, as `| head -1`), dies of an abort (an assertion inside the
// OpenCL driver) or a crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE: a fault inside the driver), or is
// ended by exit() inside a library (then with one line on stderr, "<program>: ..."); SIGXFSZ is
// ignored, so a write past the file size limit fails (EFBIG) rather than ending the process.
// The stopping signals are blocked in the main thread before it starts others (the first call,
// or take_stopping_signals below), inherited by every thread started later, and taken by one
// waiting thread, so no other handler (the driver's) stands between a signal and the clean-up. A
// signal the process was told to ignore, as under nohup, stays ignored. Each signal still ends the
// process as it would have, with its own status, after the driver's handler for it (if any) has
// run; a driver's crash report (after SIGABRT or SIGQUIT) is not printed for a signal sent from
// outside.
void remember_temporary(const std::filesystem::path& path);

// SIGXFSZ ignored, so that a write past RLIMIT_FSIZE fails with EFBIG. Called again as each file
// is opened for writing: an OpenCL compiler may have put its own handler there since the run
// began (Intel's CPU runtime installs LLVM's crash handler, which asks on stderr for a bug report).
void ignore_file_size_signal();
void forget_temporary(const std::filesystem::path& path);

// A folder the run made for its outputs: on the same signals it is removed if it is empty by
// then (its temporaries gone first), as a failed run's discarded output set removes it.
void remember_created_folder(const std::filesystem::path& path);
void forget_created_folder(const std::filesystem::path& path);

// Blocks the stopping signals in this thread (so in every thread it starts afterwards) and starts
// the thread that waits for them, once per process; remember_temporary and SignalsDeferred call
// it. A program that starts threads (an OpenCL driver does) before its first temporary calls it
// first: a thread started earlier takes stopping signals through whatever handler is installed.
void take_stopping_signals();

// For its lifetime, a stopping signal waits: a set of renames, once started, runs to its end,
// and the signal then stops the process as it would have (the destructor of the last one alive
// does not return when a signal waited). Threads may hold them at once.
class SignalsDeferred {
public:
    SignalsDeferred();
    ~SignalsDeferred();
    SignalsDeferred(const SignalsDeferred&) = delete;
    SignalsDeferred& operator=(const SignalsDeferred&) = delete;
};

}  // namespace sdk
