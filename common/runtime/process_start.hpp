// SPDX-License-Identifier: Apache-2.0
#pragma once
// When this process started, for times that should count all of it (a batch's summary): the
// loading of its libraries, the OpenCL driver's start and everything before the work itself.
#include <chrono>

namespace sdk {

// The moment the process started, on steady_clock: the kernel's record of it (Linux's
// /proc/self/stat, in clock ticks since boot: steps of 10 ms), set when the process was
// created, before its program was loaded; to the microsecond by the scheduler's count of the
// main thread's time before main() (/proc/self/schedstat) where that falls within the record's
// tick. Where neither can be read, the moment this library's statics were set up, after the
// libraries were loaded and before main(). Asked once.
std::chrono::steady_clock::time_point process_start();

}  // namespace sdk
