// SPDX-License-Identifier: Apache-2.0
#include "common/imageio/temporary_files.hpp"

#include <array>
#include <atomic>
#include <climits>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <thread>

#include <errno.h>
#include <pthread.h>
#include <unistd.h>

namespace sdk {
namespace {

// Removal may run in a signal handler (an abort) or an exit hook, on any thread, and may then
// only call async-signal-safe functions: no allocation, no locks. So the paths live in fixed
// slots, each published by an atomic flag set after its bytes are written.
struct Slot {
    std::atomic<bool> used{false};
    bool folder = false;  // a folder the run made (removed only while empty), not a file
    char path[PATH_MAX] = {};
};

// The slots, as one table that removal reads through a single atomic pointer. A run's outputs fit
// the first 64; a batch holds a temporary or two per photo in flight (samples/app/batch.hpp),
// and as many photos as the machine allows may be in flight, so a full table is replaced by one
// twice its size (remember below). A replaced table is never freed: a handler on another thread
// may still be reading it (each table points to the one it replaced, so none is a leak). Its
// size and its slots travel together behind the one pointer, so a reader never pairs a new size
// with an old table.
struct Table {
    std::size_t size;
    Slot* slots;
    const Table* replaced;
};
std::array<Slot, 64> first_slots;
Table first_table{first_slots.size(), first_slots.data(), nullptr};
std::atomic<const Table*> table{&first_table};
std::mutex slots_mutex;  // between threads of the program; removal only reads

// Every signal sent to a process whose default action ends it, short of SIGKILL (which cannot be
// caught). SIGQUIT is among them: PoCL's LLVM installs a handler for it that returns, and the
// run then went on as if nothing had been asked. So is SIGABRT sent by another process (`kill
// -ABRT`): Intel's CPU runtime installs LLVM's crash handler for it while it compiles, which
// prints a crash report under a 5 s alarm and returns; the alarm, unblocked by that handler, then
// ended the run with its temporaries left. An abort() inside the process unblocks SIGABRT in its
// own thread and still runs the handler below. SIGPIPE is apart (below): it comes from a write.
constexpr std::array<int, 8> kStoppingSignals = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,
                                                 SIGABRT, SIGALRM, SIGUSR1, SIGUSR2};

// Signals after which an OpenCL compiler's LLVM prints a crash report ("PLEASE submit a bug
// report", a stack dump): when one was sent from outside, nothing crashed, and their handlers
// are not run.
bool reports_a_crash(int signal_number)
{
    return signal_number == SIGABRT || signal_number == SIGQUIT;
}

// Returns whether anything was remembered. Files go first, then the folders made for them, each
// only if empty (rmdir): as many passes as folders, so a folder inside another goes first
// whatever the slots' order.
bool remove_remembered() noexcept
{
    const Table& slots = *table.load(std::memory_order_acquire);
    bool any = false;
    std::size_t folders = 0;
    for (std::size_t i = 0; i < slots.size; ++i) {
        const Slot& slot = slots.slots[i];
        if (!slot.used.load(std::memory_order_acquire)) continue;
        any = true;
        if (slot.folder)
            ++folders;
        else
            ::unlink(slot.path);
    }
    for (std::size_t pass = 0; pass < folders; ++pass) {
        for (std::size_t i = 0; i < slots.size; ++i) {
            const Slot& slot = slots.slots[i];
            if (slot.used.load(std::memory_order_acquire) && slot.folder) ::rmdir(slot.path);
        }
    }
    return any;
}

// Hands the signal to the handler someone else installed for it (PoCL's LLVM removes its own
// files so), if any, then stops the process the signal's default way.
[[noreturn]] void pass_on_and_stop(int signal_number, siginfo_t* info,
                                   const struct sigaction& other)
{
    if (other.sa_flags & SA_SIGINFO) {
        if (other.sa_sigaction) other.sa_sigaction(signal_number, info, nullptr);
    } else if (other.sa_handler != SIG_DFL && other.sa_handler != SIG_IGN) {
        other.sa_handler(signal_number);
    }
    std::signal(signal_number, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, signal_number);
    ::pthread_sigmask(SIG_UNBLOCK, &only, nullptr);
    std::raise(signal_number);
    ::_exit(128 + signal_number);  // not reached: the default action ends the process
}

// Stopping signals are blocked in the thread that first remembers a temporary (the program's
// main thread) and so in every thread it starts afterwards, the OpenCL driver's included, and
// taken by one waiting thread. No handler runs for them, the driver's neither: it cannot
// interrupt a thread holding a lock, and a handler the driver installs later (PoCL's LLVM does,
// when first asked for devices) cannot stand between the signal and the clean-up.
std::mutex deferral_mutex;
std::condition_variable deferral_ended;
int deferring = 0;      // how many SignalsDeferred are alive (threads may nest them)
bool stopping = false;  // a signal waits for the deferral to end
pid_t waiting_in = 0;   // the process whose waiting thread runs (a forked child has none)
sigset_t waited;        // the stopping signals not ignored when the waiting began
pthread_t waiting_thread;

// SIGPIPE, from a write to a pipe whose reader is gone (`sample ... | head -1`), goes to the thread
// that wrote, not to the process: blocked there, it would wait on that thread for ever, unseen by
// the waiting thread. So it is not blocked; its handler hands it on to the waiting thread, which
// takes it as it takes the others (a set of renames in progress first runs to its end).
bool pipe_taken = false;  // SIGPIPE was not ignored when the waiting began
struct sigaction before_pipe {};

void hand_pipe_to_waiting_thread(int, siginfo_t*, void*)
{
    if (waiting_in == ::getpid()) {
        ::pthread_kill(waiting_thread, SIGPIPE);
        return;
    }
    std::signal(SIGPIPE, SIG_DFL);  // a forked child: stop as it would have
    std::raise(SIGPIPE);
}

void wait_for_stopping_signals(sigset_t taken)
{
    for (;;) {
        siginfo_t info{};
        const int signal_number = ::sigwaitinfo(&taken, &info);
        if (signal_number < 0) continue;                    // EINTR
        std::unique_lock<std::mutex> lock(deferral_mutex);  // held to the end: no new deferral
        stopping = true;
        deferral_ended.wait(lock, [] { return deferring == 0; });
        remove_remembered();
        struct sigaction current {};
        ::sigaction(signal_number, nullptr, &current);
        if (reports_a_crash(signal_number)) current = {};  // SIG_DFL: stop as the signal would
        pass_on_and_stop(signal_number, &info, signal_number == SIGPIPE ? before_pipe : current);
    }
}

// Called with deferral_mutex held.
void start_waiting_once_per_process()
{
    if (waiting_in == ::getpid()) return;
    sigemptyset(&waited);
    for (const int signal_number : kStoppingSignals) {
        struct sigaction previous {};
        if (::sigaction(signal_number, nullptr, &previous) != 0) continue;
        if (previous.sa_handler == SIG_IGN) continue;  // nohup, or the parent's wish
        sigaddset(&waited, signal_number);
    }
    ::pthread_sigmask(SIG_BLOCK, &waited, nullptr);
    // The waiting thread takes SIGPIPE too, blocked in it alone (from its start: it inherits
    // this thread's mask, which is restored after).
    sigset_t taken = waited;
    struct sigaction pipe {};
    pipe_taken = ::sigaction(SIGPIPE, nullptr, &pipe) == 0 && pipe.sa_handler != SIG_IGN;
    if (pipe_taken) sigaddset(&taken, SIGPIPE);
    sigset_t previous;
    ::pthread_sigmask(SIG_BLOCK, &taken, &previous);
    std::thread waiting(wait_for_stopping_signals, taken);
    waiting_thread = waiting.native_handle();
    waiting.detach();
    ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    waiting_in = ::getpid();
}

// An abort (an assertion inside the OpenCL driver) or a crash (a driver's segmentation fault,
// bus error, illegal instruction or arithmetic fault) cannot wait: the temporaries go at once,
// the handler installed before (the driver's own, if any) runs, and the signal then ends the
// process as it would have.
constexpr std::array<int, 5> kCrashSignals = {SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGFPE};
std::array<struct sigaction, kCrashSignals.size()> before_crash{};

void remove_remembered_and_crash(int signal_number, siginfo_t* info, void*)
{
    remove_remembered();
    for (std::size_t i = 0; i < kCrashSignals.size(); ++i)
        if (kCrashSignals[i] == signal_number)
            pass_on_and_stop(signal_number, info, before_crash[i]);
    pass_on_and_stop(signal_number, info, {});
}

// exit() called while temporaries exist is not the program's own way out (that returns from
// main after the output set is gone): a library ended the run, such as LLVM inside PoCL when it
// cannot write its kernel cache ("IO failure on output stream").
void remove_remembered_at_exit()
{
    if (!remove_remembered()) return;
    const char* name = program_invocation_short_name;
    const char* why =
        ": the run was ended inside a library (the OpenCL driver's message, if any, is "
        "above); its output files were not written\n";
    [[maybe_unused]] ssize_t ignored = ::write(2, name, std::strlen(name));
    ignored = ::write(2, why, std::strlen(why));
}

void unblock_in_child()
{
    // A program the driver starts (a linker, a compiler) must stop on Ctrl-C as usual.
    ::pthread_sigmask(SIG_UNBLOCK, &waited, nullptr);
}

void install_handlers_once()
{
    take_stopping_signals();
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_sigaction = remove_remembered_and_crash;
        action.sa_flags = SA_SIGINFO;
        sigemptyset(&action.sa_mask);
        for (std::size_t i = 0; i < kCrashSignals.size(); ++i)
            ::sigaction(kCrashSignals[i], &action, &before_crash[i]);
        // After the drivers' handlers too (they start before the first temporary).
        if (pipe_taken) {
            struct sigaction pipe {};
            pipe.sa_sigaction = hand_pipe_to_waiting_thread;
            pipe.sa_flags = SA_SIGINFO | SA_RESTART;
            sigemptyset(&pipe.sa_mask);
            ::sigaction(SIGPIPE, &pipe, &before_pipe);
        }
        ignore_file_size_signal();
        std::atexit(remove_remembered_at_exit);
        std::at_quick_exit(remove_remembered_at_exit);
    });
}

}  // namespace

void take_stopping_signals()
{
    static std::once_flag once;
    std::call_once(once, [] { ::pthread_atfork(nullptr, nullptr, unblock_in_child); });
    std::lock_guard<std::mutex> lock(deferral_mutex);
    start_waiting_once_per_process();
}

void ignore_file_size_signal()
{
    // Past RLIMIT_FSIZE a write fails with EFBIG, which each writer reports, instead of SIGXFSZ
    // ending the process with no word and no clean-up.
    std::signal(SIGXFSZ, SIG_IGN);
}

namespace {

void remember(const std::filesystem::path& path, bool folder)
{
    install_handlers_once();
    const std::string text = path.string();
    if (text.size() >= PATH_MAX) return;  // no such path could have been created
    std::lock_guard<std::mutex> lock(slots_mutex);
    const Table* slots = table.load();
    Slot* free_slot = nullptr;
    for (std::size_t i = 0; i < slots->size && !free_slot; ++i)
        if (!slots->slots[i].used.load()) free_slot = &slots->slots[i];
    if (!free_slot) {
        // Full: a table twice the size, with every remembered path copied before it is
        // published, so that a removal reading either table finds them all. Without the memory
        // for it, this path is still removed on every normal path, only not on a signal.
        auto* bigger_slots = new (std::nothrow) Slot[2 * slots->size];
        auto* bigger =
            bigger_slots ? new (std::nothrow) Table{2 * slots->size, bigger_slots, slots} : nullptr;
        if (!bigger) {
            delete[] bigger_slots;
            return;
        }
        for (std::size_t i = 0; i < slots->size; ++i) {
            const Slot& slot = slots->slots[i];
            Slot& copy = bigger->slots[i];
            std::memcpy(copy.path, slot.path, sizeof copy.path);
            copy.folder = slot.folder;
            copy.used.store(slot.used.load(), std::memory_order_relaxed);
        }
        free_slot = &bigger->slots[slots->size];
        table.store(bigger, std::memory_order_release);
    }
    std::memcpy(free_slot->path, text.c_str(), text.size() + 1);
    free_slot->folder = folder;
    free_slot->used.store(true, std::memory_order_release);
}

void forget(const std::filesystem::path& path)
{
    const std::string text = path.string();
    std::lock_guard<std::mutex> lock(slots_mutex);
    const Table* slots = table.load();
    for (std::size_t i = 0; i < slots->size; ++i) {
        Slot& slot = slots->slots[i];
        if (slot.used.load() && text == slot.path) {
            slot.used.store(false, std::memory_order_release);
            return;
        }
    }
}

}  // namespace

void remember_temporary(const std::filesystem::path& path)
{
    remember(path, false);
}
void forget_temporary(const std::filesystem::path& path)
{
    forget(path);
}
void remember_created_folder(const std::filesystem::path& path)
{
    remember(path, true);
}
void forget_created_folder(const std::filesystem::path& path)
{
    forget(path);
}

SignalsDeferred::SignalsDeferred()
{
    take_stopping_signals();  // a signal's default action would not wait for the end of the scope
    std::lock_guard<std::mutex> lock(deferral_mutex);
    ++deferring;
}

SignalsDeferred::~SignalsDeferred()
{
    bool stop = false;
    {
        std::lock_guard<std::mutex> lock(deferral_mutex);
        stop = --deferring == 0 && stopping;
    }
    deferral_ended.notify_all();
    // The signal that waited ends the process now, as it would have: nothing after the scope runs.
    while (stop) ::pause();
}

}  // namespace sdk
