// SPDX-License-Identifier: Apache-2.0
#include "common/runtime/errors.hpp"

#include "common/runtime/resource_limits.hpp"

#include <cstdio>
#include <iostream>

#include <sys/resource.h>

namespace sdk {

std::string cl_error_name(cl_int code)
{
    switch (code) {
#define SDK_CL_ERROR(name) \
    case name:             \
        return #name;
        SDK_CL_ERROR(CL_SUCCESS)
        SDK_CL_ERROR(CL_DEVICE_NOT_FOUND)
        SDK_CL_ERROR(CL_DEVICE_NOT_AVAILABLE)
        SDK_CL_ERROR(CL_COMPILER_NOT_AVAILABLE)
        SDK_CL_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        SDK_CL_ERROR(CL_OUT_OF_RESOURCES)
        SDK_CL_ERROR(CL_OUT_OF_HOST_MEMORY)
        SDK_CL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE)
        SDK_CL_ERROR(CL_MEM_COPY_OVERLAP)
        SDK_CL_ERROR(CL_IMAGE_FORMAT_MISMATCH)
        SDK_CL_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        SDK_CL_ERROR(CL_BUILD_PROGRAM_FAILURE)
        SDK_CL_ERROR(CL_MAP_FAILURE)
        SDK_CL_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        SDK_CL_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        SDK_CL_ERROR(CL_COMPILE_PROGRAM_FAILURE)
        SDK_CL_ERROR(CL_LINKER_NOT_AVAILABLE)
        SDK_CL_ERROR(CL_LINK_PROGRAM_FAILURE)
        SDK_CL_ERROR(CL_DEVICE_PARTITION_FAILED)
        SDK_CL_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        SDK_CL_ERROR(CL_INVALID_VALUE)
        SDK_CL_ERROR(CL_INVALID_DEVICE_TYPE)
        SDK_CL_ERROR(CL_INVALID_PLATFORM)
        SDK_CL_ERROR(CL_INVALID_DEVICE)
        SDK_CL_ERROR(CL_INVALID_CONTEXT)
        SDK_CL_ERROR(CL_INVALID_QUEUE_PROPERTIES)
        SDK_CL_ERROR(CL_INVALID_COMMAND_QUEUE)
        SDK_CL_ERROR(CL_INVALID_HOST_PTR)
        SDK_CL_ERROR(CL_INVALID_MEM_OBJECT)
        SDK_CL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        SDK_CL_ERROR(CL_INVALID_IMAGE_SIZE)
        SDK_CL_ERROR(CL_INVALID_SAMPLER)
        SDK_CL_ERROR(CL_INVALID_BINARY)
        SDK_CL_ERROR(CL_INVALID_BUILD_OPTIONS)
        SDK_CL_ERROR(CL_INVALID_PROGRAM)
        SDK_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
        SDK_CL_ERROR(CL_INVALID_KERNEL_NAME)
        SDK_CL_ERROR(CL_INVALID_KERNEL_DEFINITION)
        SDK_CL_ERROR(CL_INVALID_KERNEL)
        SDK_CL_ERROR(CL_INVALID_ARG_INDEX)
        SDK_CL_ERROR(CL_INVALID_ARG_VALUE)
        SDK_CL_ERROR(CL_INVALID_ARG_SIZE)
        SDK_CL_ERROR(CL_INVALID_KERNEL_ARGS)
        SDK_CL_ERROR(CL_INVALID_WORK_DIMENSION)
        SDK_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE)
        SDK_CL_ERROR(CL_INVALID_WORK_ITEM_SIZE)
        SDK_CL_ERROR(CL_INVALID_GLOBAL_OFFSET)
        SDK_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST)
        SDK_CL_ERROR(CL_INVALID_EVENT)
        SDK_CL_ERROR(CL_INVALID_OPERATION)
        SDK_CL_ERROR(CL_INVALID_GL_OBJECT)
        SDK_CL_ERROR(CL_INVALID_BUFFER_SIZE)
        SDK_CL_ERROR(CL_INVALID_MIP_LEVEL)
        SDK_CL_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
        SDK_CL_ERROR(CL_INVALID_PROPERTY)
        SDK_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR)
        SDK_CL_ERROR(CL_INVALID_COMPILER_OPTIONS)
        SDK_CL_ERROR(CL_INVALID_LINKER_OPTIONS)
        SDK_CL_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef SDK_CL_ERROR
        // The ICD loader's own code when no vendor driver is registered (cl_khr_icd).
        case -1001:
            return "CL_PLATFORM_NOT_FOUND_KHR";
        default:
            return "unknown OpenCL error " + std::to_string(code);
    }
}

namespace {
std::string describe(const std::string& doing, const cl::Error& error)
{
    std::string function = error.what() ? error.what() : "an OpenCL call";
    std::string text = "while " + doing + ": " + function + " failed with " +
                       cl_error_name(error.err()) + " (" + std::to_string(error.err()) + ")";
    // A driver out of host memory is often the process's own limit, not the machine's (Mesa's
    // rusticl says CL_OUT_OF_RESOURCES for a buffer it cannot allocate).
    if (error.err() == CL_OUT_OF_HOST_MEMORY || error.err() == CL_MEM_OBJECT_ALLOCATION_FAILURE ||
        error.err() == CL_OUT_OF_RESOURCES) {
        if (const std::string limit = memory_limit_note(); !limit.empty()) text += "; " + limit;
    }
    // A GPU driver short of file descriptors (it opens its device files as it starts) fails
    // with codes of its own (NVIDIA's -9999): a tight limit is worth naming whatever the code.
    if (rlimit files{}; ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur <= 256)
        text += "; " + open_files_limit_note();
    return text;
}
}  // namespace

namespace {
std::string& note_name()
{
    static std::string name = "sample";
    return name;
}
}  // namespace

void set_note_name(const std::string& name)
{
    note_name() = name;
}

void note(const std::string& line)
{
    std::cerr << printable(note_name() + ": " + line) + "\n" << std::flush;
}

std::string printable(const std::string& text)
{
    std::string shown;
    shown.reserve(text.size());
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte != 0x7f) {
            shown += c;  // UTF-8's bytes too: names in any script are printed as they are
        } else if (c == '\n') {
            shown += "\\n";
        } else if (c == '\t') {
            shown += "\\t";
        } else if (c == '\r') {
            shown += "\\r";
        } else {
            char escaped[5];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            shown += escaped;
        }
    }
    return shown;
}

std::string out_of_memory_while(const std::string& doing)
{
    return "while " + doing + ": " + out_of_memory_message("", 0);
}

OpenClError::OpenClError(const std::string& doing, const cl::Error& error)
    : std::runtime_error(describe(doing, error)), code_(error.err())
{
}

}  // namespace sdk
