#pragma once

#include <filesystem>

namespace sdk {

// Temporary files a run has created and not yet renamed into place. While one is remembered,
// SIGINT, SIGTERM and SIGHUP remove every remembered file before the process stops as the
// signal asks (the handlers are installed on the first call; a signal the process was told to
// ignore, as under nohup, stays ignored). Ctrl-C half-way through a run leaves no hidden
// ".out.bmp.tmp-*" behind.
void remember_temporary(const std::filesystem::path& path);
void forget_temporary(const std::filesystem::path& path);

// For its lifetime, a stopping signal waits: a set of renames, once started, runs to its end,
// and the signal then stops the process as it would have (a signal that arrives meanwhile is
// raised again by the destructor of the last one alive). Threads may hold them at once.
class SignalsDeferred {
public:
    SignalsDeferred();
    ~SignalsDeferred();
    SignalsDeferred(const SignalsDeferred&) = delete;
    SignalsDeferred& operator=(const SignalsDeferred&) = delete;
};

}  // namespace sdk
