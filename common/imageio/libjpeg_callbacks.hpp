// SPDX-License-Identifier: Apache-2.0
#pragma once
// What both JPEG decoders (jpeg.cpp: a whole file on one thread; jpeg_parallel.cpp: restart
// intervals on all cores) give libjpeg to call: error handlers and source callbacks.
//
// Errors: libjpeg reports an error by calling error_exit,
// which must not return; ours longjmps back to the setjmp of the step that called into libjpeg.
// A longjmp skips destructors, so the functions holding a setjmp, and our callbacks, keep no C++
// object with a destructor alive across a call into libjpeg: images, buffers and decompressors
// live in their callers, which the jump never leaves. An exception from our own reading code is
// caught in the callback, kept as an exception_ptr and thrown again afterwards.
#include <csetjmp>
#include <cstdio>  // jpeglib.h uses FILE without including it
#include <exception>

#include <jerror.h>
#include <jpeglib.h>

namespace sdk::libjpeg {

// libjpeg's error manager with what our handlers need beside it. libjpeg only sees the first
// member; our handlers get back to the whole from that pointer (a standard-layout struct starts
// at its first member).
struct Errors {
    jpeg_error_mgr manager;
    std::jmp_buf jump;
    std::exception_ptr exception;  // thrown by our reading code inside a callback
    char reason[JMSG_LENGTH_MAX + 64] = {};
    long warnings = 0;  // recoverable damage libjpeg decoded around
};

inline Errors& errors_of(j_common_ptr cinfo)
{
    return *reinterpret_cast<Errors*>(cinfo->err);
}
inline Errors& errors_of(j_decompress_ptr cinfo)
{
    return errors_of(reinterpret_cast<j_common_ptr>(cinfo));
}

[[noreturn]] inline void jump_back(j_common_ptr cinfo)
{
    std::longjmp(errors_of(cinfo).jump, 1);
}
[[noreturn]] inline void jump_back(j_decompress_ptr cinfo)
{
    jump_back(reinterpret_cast<j_common_ptr>(cinfo));
}

[[noreturn]] inline void on_error(j_common_ptr cinfo)
{
    Errors& errors = errors_of(cinfo);
    if (errors.reason[0] == '\0') (*cinfo->err->format_message)(cinfo, errors.reason);
    jump_back(cinfo);
}

// Whether a warning leaves every pixel as the file meant it: bytes skipped between two segments,
// a header field of an unknown revision, a progressive scan that refines coefficients again. The
// others say image data was lost (a segment ended early, a code that does not decode, a restart
// marker out of place) and libjpeg decoded around it, filling the rest flat grey: a damaged photo
// that looked written.
inline bool pixels_whole_after(int warning)
{
    return warning == JWRN_EXTRANEOUS_DATA || warning == JWRN_ADOBE_XFORM ||
           warning == JWRN_JFIF_MAJOR || warning == JWRN_BOGUS_PROGRESSION;
}

// Warnings (level < 0) that lose image data are errors (jumping back with libjpeg's text as the
// reason); the others are counted; trace messages are ignored. Nothing is printed: stderr is
// kept for the one line that says why a run failed.
inline void on_message(j_common_ptr cinfo, int level)
{
    if (level >= 0) return;
    Errors& errors = errors_of(cinfo);
    if (pixels_whole_after(cinfo->err->msg_code)) {
        ++errors.warnings;
        return;
    }
    if (errors.reason[0] == '\0') (*cinfo->err->format_message)(cinfo, errors.reason);
    jump_back(cinfo);
}

inline void use_errors(Errors& errors, j_decompress_ptr cinfo)
{
    cinfo->err = jpeg_std_error(&errors.manager);
    errors.manager.error_exit = on_error;
    errors.manager.emit_message = on_message;
}

inline void do_nothing(j_decompress_ptr) {}

// A source manager that gets its bytes from `fill` and skips them with `skip`; nothing needs
// doing when the decoder starts or ends.
inline void use_source(jpeg_source_mgr& manager, boolean (*fill)(j_decompress_ptr),
                       void (*skip)(j_decompress_ptr, long))
{
    manager.init_source = do_nothing;
    manager.fill_input_buffer = fill;
    manager.skip_input_data = skip;
    manager.resync_to_restart = jpeg_resync_to_restart;
    manager.term_source = do_nothing;
}

}  // namespace sdk::libjpeg
