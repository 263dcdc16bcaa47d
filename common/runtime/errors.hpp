// SPDX-License-Identifier: Apache-2.0
#pragma once
#include "common/runtime/opencl.hpp"
#include "common/runtime/resource_limits.hpp"

#include <cstdint>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>

namespace sdk {

// "CL_INVALID_WORK_GROUP_SIZE" for -54; "unknown OpenCL error -9999" for codes no header names.
std::string cl_error_name(cl_int code);

// An OpenCL call that failed, said the way a person reads it:
// "while enqueueing the sobel kernel: clEnqueueNDRangeKernel failed with CL_INVALID_WORK_GROUP_SIZE
// (-54)".
class OpenClError : public std::runtime_error {
public:
    OpenClError(const std::string& doing, const cl::Error& error);
    cl_int code() const { return code_; }

private:
    cl_int code_;
};

// A request that cannot be carried out as asked (an option's value, a parameter out of range):
// the samples exit with status 2 for it, like CLI11's own parse errors.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::string out_of_memory_while(const std::string& doing);

// `text` with its control characters written as C escapes ("\n", "\x1b"): a file name put in a
// message or a "Wrote ..." line cannot then split the line or drive the terminal (a photo named
// with "\x1b[2J" cleared the screen).
std::string printable(const std::string& text);

// A line on stderr that is not an error, "<name>: <line>" (the name set_note_name gave, the
// sample's), in one write: a batch's photos say things side by side.
void note(const std::string& line);
// Set once, before any thread starts ("sample" until then).
void set_note_name(const std::string& name);

// Runs `call`, turning a cl::Error into an OpenClError that says what was being done, and a
// std::bad_alloc from inside the call (a driver's compiler out of memory, say) into one line
// that names the step and the memory limit.
template <typename Call>
auto while_doing(const std::string& doing, Call&& call) -> decltype(call())
{
    try {
        return std::forward<Call>(call)();
    } catch (const cl::Error& error) {
        throw OpenClError(doing, error);
    } catch (const std::bad_alloc&) {
        throw std::runtime_error(out_of_memory_while(doing));
    }
}

// Runs `allocate`, turning a std::bad_alloc into a runtime_error that says how many bytes were
// asked for and for what, and the limit or the memory left ("out of memory allocating ...").
template <typename Allocate>
auto while_allocating(std::uint64_t bytes, const std::string& what, Allocate&& allocate)
    -> decltype(allocate())
{
    try {
        return std::forward<Allocate>(allocate)();
    } catch (const std::bad_alloc&) {
        throw std::runtime_error(out_of_memory_message(what, bytes));
    }
}

}  // namespace sdk
