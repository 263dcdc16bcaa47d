// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a sample says besides its results: notes on stderr, a failure as one line and an exit
// status, the stream -q prints to, and the process's end.
#include "common/runtime/errors.hpp"

#include <functional>
#include <ostream>
#include <string>

namespace sdk {

// note(), a line on stderr that is not an error, is the runtime's (common/runtime/errors.hpp):
// the codecs say things too. run_sample names the sample it starts with (set_note_name).

// A stream that discards everything: what -q/--quiet prints to.
std::ostream& null_stream();

// Runs `work`, turning a failure into one line on stderr, "<name>: <what and why>" (a build
// failure's log before it), and an exit status: 0, 2 for a usage error, 1 for anything else.
// With a `subject` (a batch's photo), the line names it too unless the message already does.
int exit_status_of(const std::string& name, const std::function<void()>& work,
                   const std::string& subject = "");

// The process ends now with `status`, its outputs in place (or, after a failure, none), standard
// output and error flushed. What is left at a normal exit is teardown a user waits for and needs
// nothing from: the drivers' libraries torn down and their threads joined, static objects and the
// heap freed by hand. std::quick_exit skips it; the operating system frees the process's memory
// and files and ends its threads anyway, and that freeing (a GPU driver's context torn down when
// its device files close) is left to an heir, a child that ends after the process
// (messages.cpp). Under a sanitizer it exits normally, so that the leak check runs.
[[noreturn]] void end_process(int status);

}  // namespace sdk
