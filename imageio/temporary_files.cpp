#include "imageio/temporary_files.hpp"

#include <array>
#include <atomic>
#include <climits>
#include <csignal>
#include <cstring>
#include <mutex>

#include <unistd.h>

namespace sdk {
namespace {

// The signal handler may run on any thread (the OpenCL runtime has its own) and may only call
// async-signal-safe functions: no allocation, no locks. So the paths live in fixed slots, each
// published by an atomic flag set after its bytes are written.
struct Slot {
    std::atomic<bool> used{false};
    char path[PATH_MAX] = {};
};
std::array<Slot, 64> slots;
std::mutex slots_mutex;  // between threads of the program; the handler only reads

std::atomic<int> deferring{0};  // how many SignalsDeferred are alive (threads may nest them)
std::atomic<int> deferred_signal{0};

constexpr std::array<int, 3> kStoppingSignals = {SIGINT, SIGTERM, SIGHUP};

void remove_remembered_and_stop(int signal_number)
{
    if (deferring.load() > 0) {
        deferred_signal.store(signal_number);
        return;
    }
    for (Slot& slot : slots) {
        if (slot.used.load(std::memory_order_acquire)) ::unlink(slot.path);
    }
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
}

void install_handlers_once()
{
    static std::once_flag once;
    std::call_once(once, [] {
        for (const int signal_number : kStoppingSignals) {
            struct sigaction previous {};
            if (::sigaction(signal_number, nullptr, &previous) != 0) continue;
            if (previous.sa_handler == SIG_IGN) continue;  // nohup, or the parent's wish
            struct sigaction action {};
            action.sa_handler = remove_remembered_and_stop;
            sigemptyset(&action.sa_mask);
            ::sigaction(signal_number, &action, nullptr);
        }
    });
}

}  // namespace

void remember_temporary(const std::filesystem::path& path)
{
    install_handlers_once();
    const std::string text = path.string();
    if (text.size() >= PATH_MAX) return;  // no such path could have been created
    std::lock_guard<std::mutex> lock(slots_mutex);
    for (Slot& slot : slots) {
        if (slot.used.load()) continue;
        std::memcpy(slot.path, text.c_str(), text.size() + 1);
        slot.used.store(true, std::memory_order_release);
        return;
    }
    // More than 64 temporaries at once: this one is still removed on every normal path, only
    // not on a signal. No run here comes near it.
}

void forget_temporary(const std::filesystem::path& path)
{
    const std::string text = path.string();
    std::lock_guard<std::mutex> lock(slots_mutex);
    for (Slot& slot : slots) {
        if (slot.used.load() && text == slot.path) {
            slot.used.store(false, std::memory_order_release);
            return;
        }
    }
}

SignalsDeferred::SignalsDeferred()
{
    install_handlers_once();  // a signal's default action would not wait for the end of the scope
    deferring.fetch_add(1);
}

SignalsDeferred::~SignalsDeferred()
{
    if (deferring.fetch_sub(1) != 1) return;  // the outermost one raises what arrived
    if (const int signal_number = deferred_signal.exchange(0)) remove_remembered_and_stop(signal_number);
}

}  // namespace sdk
