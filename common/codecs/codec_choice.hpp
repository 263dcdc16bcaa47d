// SPDX-License-Identifier: Apache-2.0
#pragma once

#include "common/runtime/device.hpp"
#include "common/runtime/transfers.hpp"

#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace sdk {

// Where the photo path's two codecs run their data-parallel half: the PNG output's compression
// (zlib on the host's cores, or the device's encoder, common/codecs/png_deflate/) and a JPEG
// input's inverse DCT (libjpeg on the host, or the device's, common/codecs/jpeg_idct/). Both give
// the same pixels either way; which is faster depends on the device (on a CPU device such as PoCL
// the host is expected to win), so both are chosen one way, per device:
//   host     the host, always
//   device   the device, always, when it can (else the host, said once on stderr)
//   measure  the cached winner for this device; when none is cached, both are timed once and
//            the winner is kept in the tuning cache (common/runtime/tuning_cache.hpp; --retune does
//            not touch it: delete the line `png_deflate ...` or `jpeg_idct ...` to measure again)
//   unset    the cached winner for this device; with none, for PNG compression on a GPU or
//            other non-CPU device a measurement, as with measure; else the host
// Each is set by its option (--png-deflate, --jpeg-idct) or else by its environment variable
// (SDK_PNG_DEFLATE, SDK_JPEG_IDCT), so that a batch script can set it once.
enum class CodecSetting { unset, host, device, measure };
enum class CodecPlace { host, device };

struct CodecSettings {
    CodecSetting png_deflate = CodecSetting::unset;
    CodecSetting jpeg_idct = CodecSetting::unset;
};

// Fills each setting the command line left unset from its environment variable. A value other
// than host, device or measure (case ignored) is a UsageError naming the variable; empty is unset.
void read_codec_environment(CodecSettings& settings);

// The rule both codecs follow: where `setting` runs the codec, given this device's cached
// winner, whether the device can run it, and whether unset measures (codec_choice.cpp says
// when); nothing when it must be measured now (measure, or unset where it measures, with
// nothing cached, on a device that can).
std::optional<CodecPlace> codec_place(CodecSetting setting, std::optional<CodecPlace> cached,
                                      bool device_can, bool unset_measures = false);
std::string place_name(CodecPlace place);

// A JPEG starts decoding when it is opened, before the device is known, and must know then
// whether to stop at its coefficients: the setting's answer for the device `selection` found
// last time (recorded by choose_codecs), whose cached choice a later run reads. A guess only:
// both paths give the same pixels, so a selection that now finds another device costs time.
bool expect_jpeg_idct_on_device(const CodecSettings& settings, const DeviceSelection& selection);

// After the context is made: records which device `selection` found (where this device has an
// IDCT choice cached, or an older record names another), settles both codecs for it, measuring what
// `measure` asks for and finds uncached (once per context; one line on `log` each, as tuning
// prints), and hands the PNG writer the device's encoder when that is the choice. Before measuring
// it calls `settle_first` (when given), so that nothing else of the run competes for the cores: the
// photo's decoding ahead. Returns the choices for this device (a JPEG already decoding keeps its
// own path).
struct CodecChoice {
    CodecPlace png_deflate = CodecPlace::host;
    CodecPlace jpeg_idct = CodecPlace::host;
};
CodecChoice choose_codecs(const CodecSettings& settings, const DeviceSelection& selection,
                          const OpenClContext& cl, MemoryMode mode, std::ostream& log,
                          const std::function<void()>& settle_first = {});

// The tuning cache's keys: the device a selection found, and each codec's winner on a device.
std::string device_found_key(const DeviceSelection& selection);
std::string png_deflate_key(const cl::Device& device);
std::string jpeg_idct_key(const cl::Device& device);

}  // namespace sdk
