// SPDX-License-Identifier: Apache-2.0
#include "samples/app/messages.hpp"

#include "common/runtime/errors.hpp"
#include "common/runtime/program.hpp"
#include "common/runtime/resource_limits.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>

namespace sdk {

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
    // at_quick_exit's handlers still run: temporary_files.cpp removes what a failed run left.
    std::quick_exit(status);
}

}  // namespace sdk
