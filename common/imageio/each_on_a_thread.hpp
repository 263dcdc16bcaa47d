// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <cstddef>
#include <system_error>
#include <thread>
#include <vector>

namespace sdk {

// Runs work(0) ... work(count - 1) at once: work(0) on the calling thread, each other on a
// thread of its own, and returns when all are done. Where no thread can be had (a process
// limit), that one runs on the calling thread instead. `work` must not throw.
template <typename Work>
void run_each_on_a_thread(std::size_t count, const Work& work)
{
    std::vector<std::thread> helpers;
    std::vector<std::size_t> left_over;
    for (std::size_t i = 1; i < count; ++i) {
        try {
            helpers.emplace_back([&work, i] { work(i); });
        } catch (const std::system_error&) {
            left_over.push_back(i);
        }
    }
    if (count > 0) work(0);
    for (const std::size_t i : left_over) work(i);
    for (std::thread& helper : helpers) helper.join();
}

}  // namespace sdk
