// SPDX-License-Identifier: Apache-2.0
// _dl_find_object for programs that link GCC's unwinder in (-static-libgcc, SDK_PORTABLE_BUNDLE).
// GCC 12's libgcc_eh.a, built against glibc 2.35 or newer (Debian 12: 2.36), finds a throwing
// function's unwind tables with glibc's _dl_find_object, whose symbol version GLIBC_2.35 would
// keep the program from starting on glibc 2.34. Defined here, in the program, the linker binds
// the unwinder to this one and the program needs no GLIBC_2.35: it looks the address up with
// dl_iterate_phdr (GLIBC_2.17 on aarch64), as GCC's unwinder did before glibc 2.35. Only the
// eh_frame field matters to the unwinder (unwind-dw2-fde-dip.c); the others are filled as
// far as the program headers tell. Exceptions are the error path here, so the walk over the
// loaded objects on each lookup costs nothing that matters.
#include <dlfcn.h>
#include <link.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>

// glibc 2.35's <dlfcn.h> declares _dl_find_object with DLFO_STRUCT_HAS_EH_DBASE; against an
// older C library the unwinder never calls it and this file defines nothing.
#ifdef DLFO_STRUCT_HAS_EH_DBASE

namespace {

struct Lookup {
    std::uintptr_t address;
    dl_find_object* result;
    bool found;
};

int look_in(dl_phdr_info* object, std::size_t, void* data)
{
    auto& lookup = *static_cast<Lookup*>(data);
    std::uintptr_t map_start = UINTPTR_MAX;
    std::uintptr_t map_end = 0;
    std::uintptr_t eh_frame = 0;
    bool holds_address = false;
    for (ElfW(Half) i = 0; i < object->dlpi_phnum; ++i) {
        const ElfW(Phdr)& segment = object->dlpi_phdr[i];
        const std::uintptr_t start = object->dlpi_addr + segment.p_vaddr;
        if (segment.p_type == PT_LOAD) {
            const std::uintptr_t end = start + segment.p_memsz;
            map_start = std::min(map_start, start);
            map_end = std::max(map_end, end);
            holds_address = holds_address || (lookup.address >= start && lookup.address < end);
        } else if (segment.p_type == PT_GNU_EH_FRAME) {
            eh_frame = start;
        }
    }
    if (!holds_address) return 0;  // the next object
    *lookup.result = {};
    lookup.result->dlfo_map_start = reinterpret_cast<void*>(map_start);
    lookup.result->dlfo_map_end = reinterpret_cast<void*>(map_end);
    lookup.result->dlfo_eh_frame = reinterpret_cast<void*>(eh_frame);
    lookup.found = true;
    return 1;  // stop
}

}  // namespace

// Hidden: it serves the unwinder linked into this program and is not exported, so the driver's
// own libraries, loaded later, keep glibc's (an exported one would take their calls too).
extern "C" __attribute__((visibility("hidden"))) int _dl_find_object(
    void* address, dl_find_object* result) noexcept
{
    Lookup lookup{reinterpret_cast<std::uintptr_t>(address), result, false};
    dl_iterate_phdr(look_in, &lookup);
    return lookup.found ? 0 : -1;
}

#endif
