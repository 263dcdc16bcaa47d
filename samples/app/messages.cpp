// SPDX-License-Identifier: Apache-2.0
#include "samples/app/messages.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/program.hpp"
#include "common/runtime/resource_limits.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <new>

#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sdk {
namespace {

// The process's end, handed on to an heir. When the last user of a process's memory and of its
// open files is gone, the kernel frees them: every page unmapped and, for a GPU, the driver's
// device files closed, which tears its context down (on an H200, 90-115 ms after the outputs were
// in place; on PoCL, 4 ms of unmapping LLVM's libraries). The heir is a child that shares the
// process's memory (CLONE_VM: nothing copied) and holds its own copies of the drivers' device
// files, so the process's own end frees nothing and is quick; the heir waits for the process to end
// (the write end of a pipe closes then), then ends, and the freeing happens there, after the user's
// wait (the linker `mold` hides its slow exit with a child too). With SDK_WAIT_FOR_TEARDOWN=1 the
// process frees its own, which is what a driver's stop costs.
alignas(64) unsigned char heir_stack[64 * 1024];
int heir_reads = -1;  // the pipe's read end
int heir_waits = -1;  // its write end: the process holds it until it ends

// The heir runs on the calling thread's thread-local storage and beside the process's own
// threads, so it calls the kernel only: no allocation, no lock, nothing written but its stack
// (and errno).
// It keeps its copies of character devices (the drivers' device files) and `kept`, and closes the
// rest: above all standard input, output and error, so that a pipe's reader sees the process's end.
void close_all_but_devices(int kept)
{
    const int listing = ::open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (listing < 0) {
        for (int fd = 0; fd <= 2; ++fd) ::close(fd);
        return;
    }
    alignas(8) char entries[4096];
    for (;;) {
        const ssize_t bytes = ::getdents64(listing, entries, sizeof entries);
        if (bytes <= 0) break;
        for (ssize_t at = 0; at < bytes;) {
            const auto* entry = reinterpret_cast<const struct dirent64*>(entries + at);
            at += entry->d_reclen;
            int fd = 0;
            bool number = entry->d_name[0] != '\0';
            for (const char* digit = entry->d_name; *digit != '\0'; ++digit) {
                number = number && *digit >= '0' && *digit <= '9';
                fd = fd * 10 + (*digit - '0');
            }
            if (!number || fd == listing || fd == kept) continue;
            struct stat file {};
            if (fd > 2 && ::fstat(fd, &file) == 0 && S_ISCHR(file.st_mode)) continue;
            ::close(fd);
        }
    }
    ::close(listing);
}

int heir(void*)
{
    close_all_but_devices(heir_reads);
    ::close(heir_waits);  // again if it went already: the heir must not wait on itself
    char byte;
    while (::read(heir_reads, &byte, 1) < 0 && errno == EINTR) {
    }
    ::_exit(0);
}

// Valgrind runs a program on a simulated CPU that makes threads and forks but no other children
// (it stops the run, "Valgrind does not support general clone()"); it preloads its own library,
// vgpreload_core, into the program.
bool under_valgrind()
{
    const char* preloaded = std::getenv("LD_PRELOAD");
    return preloaded && std::strstr(preloaded, "vgpreload") != nullptr;
}

void hand_the_freeing_to_an_heir()
{
    if (const char* wait = std::getenv("SDK_WAIT_FOR_TEARDOWN"); wait && *wait == '1') return;
    if (under_valgrind()) return;
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) return;
    heir_reads = ends[0];
    heir_waits = ends[1];
    // No heir (a limit on processes, an emulator that only makes threads): the process frees
    // its own, as without one.
    if (::clone(heir, heir_stack + sizeof heir_stack, CLONE_VM | SIGCHLD, nullptr) < 0)
        ::close(heir_waits);
    ::close(heir_reads);
}

}  // namespace

int exit_status_of(const std::string& name, const std::function<void()>& work,
                   const std::string& subject)
{
    // Each message is one write: a batch's photos fail side by side, and lines must not mix.
    const auto line = [&](const std::string& what) {
        const bool named = subject.empty() || what.find(subject) != std::string::npos;
        return printable(name + ": " + (named ? "" : subject + ": ") + what);
    };
    const auto say = [](const std::string& text) { std::cerr << text << std::flush; };
    try {
        work();
        return 0;
    } catch (const UsageError& error) {
        say(line(error.what()) + " (try --help)\n");
        return 2;
    } catch (const BuildError& error) {
        say(error.log() + "\n" + line(error.what()) + "\n");
        return 1;
    } catch (const std::bad_alloc&) {
        // An allocation no step names: at least say it was memory, and what limits it.
        say(line(out_of_memory_message("", 0)) + "\n");
        return 1;
    } catch (const std::exception& error) {
        say(line(error.what()) + "\n");
        return 1;
    }
}

std::ostream& null_stream()
{
    // One per thread: a batch's photos run quiet side by side, and a write sets the stream's state.
    thread_local std::ostream discard(nullptr);
    return discard;
}

void end_process(int status)
{
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    std::exit(status);
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
    std::exit(status);
#endif
#endif
    hand_the_freeing_to_an_heir();
    // at_quick_exit's handlers still run: temporary_files.cpp removes what a failed run left.
    std::quick_exit(status);
}

}  // namespace sdk
