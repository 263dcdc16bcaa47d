// SPDX-License-Identifier: Apache-2.0
#include "common/codecs/codec_choice.hpp"

#include "common/codecs/jpeg_idct/jpeg_idct_filter.hpp"
#include "common/codecs/png_deflate/png_deflate_encoder.hpp"
#include "common/imageio/deflate_parallel.hpp"
#include "common/imageio/jpeg.hpp"
#include "common/imageio/png_writer.hpp"
#include "common/runtime/errors.hpp"
#include "common/runtime/program.hpp"
#include "common/runtime/tuning_cache.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <random>
#include <utility>
#include <vector>

namespace sdk {
namespace {

// What tells the two codecs apart: their cache key, their environment variable, their name in a
// line.
// `measured_unasked`: whether unset measures, on a device that is not the host's own cores (a
// CPU device such as PoCL runs on the cores zlib and libjpeg already use well). The PNG encoder
// does: its measurement answers for whole runs. The IDCT does not: its measurement, on a small
// photo made in memory, can favour the device where whole runs lose (docs/whole_run.md).
struct Codec {
    const char* key;
    const char* variable;
    const char* what;
    bool measured_unasked;
};
constexpr Codec kPngDeflate{"png_deflate", "SDK_PNG_DEFLATE", "PNG compression", true};
constexpr Codec kJpegIdct{"jpeg_idct", "SDK_JPEG_IDCT", "the JPEG inverse DCT", false};

// `device`: device_key's text for the device.
std::string codec_key(const Codec& codec, const std::string& device)
{
    return std::string(codec.key) + " " + device;
}

void read_variable(const Codec& codec, CodecSetting& setting)
{
    if (setting != CodecSetting::unset) return;  // the option wins
    const char* value = std::getenv(codec.variable);
    if (!value || !*value) return;
    std::string wanted = value;
    for (char& c : wanted) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (wanted == "host")
        setting = CodecSetting::host;
    else if (wanted == "device")
        setting = CodecSetting::device;
    else if (wanted == "measure")
        setting = CodecSetting::measure;
    else
        throw UsageError(std::string(codec.variable) + "='" + value +
                         "': expected host, device or measure");
}

std::optional<CodecPlace> cached_place(const std::string& key)
{
    const std::optional<std::string> value = read_tuning_entry(tuning_cache_path(), key);
    if (!value) return std::nullopt;
    if (*value == "device") return CodecPlace::device;
    if (*value == "host") return CodecPlace::host;
    return std::nullopt;  // a line we did not write: as if none
}

// Said once a process: a batch's photos would each say it again.
void note_once(std::once_flag& said, const std::string& line)
{
    std::call_once(said, [&] { note(line); });
}

// The median of three timed runs of `work`, in milliseconds.
double median_ms(const std::function<void()>& work)
{
    std::vector<double> ms;
    for (int run = 0; run < 3; ++run) {
        const auto start = std::chrono::steady_clock::now();
        work();
        ms.push_back(
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count());
    }
    std::sort(ms.begin(), ms.end());
    return ms[1];
}

struct Timings {
    double host_ms = 0;
    double device_ms = 0;
    CodecPlace winner() const
    {
        return device_ms < host_ms ? CodecPlace::device : CodecPlace::host;
    }
};

// "Measured PNG compression (on a 4096x4096 edge image, median of 3): host H ms, device D ms;
// the host, cached": one line, as tuning says what it measured.
void report(std::ostream& log, const Codec& codec, const std::string& image, const Timings& times,
            bool cached)
{
    char figures[96];
    std::snprintf(figures, sizeof figures, "host %.1f ms, device %.1f ms", times.host_ms,
                  times.device_ms);
    log << "Measured " << codec.what << " (on " << image << ", median of 3): " << figures
        << "; the " << place_name(times.winner())
        << (cached ? ", cached" : ", not cached (the tuning cache cannot be written)") << "\n";
}

// ---- PNG compression ----

// png_deflate.cl's program and the device's encoder, made once per context: a batch's photos
// share the encoder, and the measurement's encoder shares the program, so a first run on a GPU
// compiles it once. Never destroyed: releasing OpenCL objects from static destructors at exit
// races the runtime's own teardown. An older context's stay, unused.
struct PngDeflateOnContext {
    cl_context context = nullptr;
    cl::Program program;
    PngDeflateEncoder* encoder = nullptr;  // made when a run first compresses on the device
};
std::mutex png_deflate_mutex;

// The current context's; the caller holds png_deflate_mutex.
PngDeflateOnContext& png_deflate_on(const OpenClContext& cl)
{
    static PngDeflateOnContext* current = nullptr;
    if (!current || current->context != cl.context())
        current = new PngDeflateOnContext{cl.context(), build_program(cl, "png_deflate.cl", "")};
    return *current;
}

cl::Program png_deflate_program(const OpenClContext& cl)
{
    std::lock_guard<std::mutex> lock(png_deflate_mutex);
    return png_deflate_on(cl).program;
}

PngDeflateEncoder& encoder_for(const OpenClContext& cl)
{
    std::lock_guard<std::mutex> lock(png_deflate_mutex);
    PngDeflateOnContext& on = png_deflate_on(cl);
    if (!on.encoder) on.encoder = new PngDeflateEncoder(cl, on.program);
    return *on.encoder;
}

PngRowsEncoder device_encoder(PngDeflateEncoder& encoder)
{
    return [&encoder](const Image& image, std::size_t first_row, std::size_t count, bool last,
                      std::vector<std::uint8_t>& out) {
        return encoder.compress_rows(image, first_row, count, last, out);
    };
}

// An edge image: mostly zero, thin lines of varied bytes. 4096x4096: a chunk for each of 16
// cores on the host, two of the device encoder's chunks in flight.
constexpr std::size_t kEdgeSide = 4096;
Image edge_image()
{
    Image image{kEdgeSide, kEdgeSide, 1, std::vector<std::uint8_t>(kEdgeSide * kEdgeSide, 0)};
    std::mt19937 generator(1);
    for (std::size_t y = 0; y < kEdgeSide; ++y)
        for (std::size_t x = 0; x < kEdgeSide; ++x)
            if ((x * 7 + y * 3) % 61 < 3 || generator() % 50 == 0)
                image.pixels[y * kEdgeSide + x] = static_cast<std::uint8_t>(generator());
    return image;
}

Timings measure_png_deflate(const OpenClContext& cl)
{
    const Image image = edge_image();
    // An encoder of its own on `cl`, which records nothing (settle_both): the run's shared one,
    // encoder_for's, records the run's commands for --trace.
    PngDeflateEncoder encoder(cl, png_deflate_program(cl));
    const PngRowsEncoder device = device_encoder(encoder);
    const DeflateRows device_rows = png_deflate_rows(image, device);
    const PngRowsEncoder zlib;
    const DeflateRows host_rows = png_deflate_rows(image, zlib);
    // Each cut as the PNG writer will cut it: the encoder's few large chunks, zlib's per core.
    const auto compress = [](const DeflateRows& rows, const DeflateChunking& chunking) {
        return [&rows, chunking] {
            deflate_rows(
                rows, [](const std::uint8_t*, std::size_t) {}, chunking);
        };
    };
    compress(device_rows, encoder.chunking())();  // compiles, allocates
    Timings times;
    times.device_ms = median_ms(compress(device_rows, encoder.chunking()));
    times.host_ms = median_ms(compress(host_rows, {}));
    return times;
}

// ---- the JPEG inverse DCT ----

// A camera-like photo, made in memory rather than the user's (which may be huge): 1920x1440
// (2.8 Mpx), colour gradients under noise, so that the entropy decoding has a camera's work,
// compressed by libjpeg at quality 90 with its default 4:2:0 chroma.
constexpr std::size_t kPhotoWidth = 1920;
constexpr std::size_t kPhotoHeight = 1440;
std::vector<std::uint8_t> camera_like_jpeg()
{
    Image photo{kPhotoWidth, kPhotoHeight, 3,
                std::vector<std::uint8_t>(kPhotoWidth * kPhotoHeight * 3)};
    std::mt19937 generator(2);
    std::uint8_t* pixel = photo.pixels.data();
    for (std::size_t y = 0; y < kPhotoHeight; ++y)
        for (std::size_t x = 0; x < kPhotoWidth; ++x) {
            const auto noise = static_cast<std::uint32_t>(generator());  // a byte a channel
            const std::size_t base[3] = {x * 200 / kPhotoWidth, y * 200 / kPhotoHeight,
                                         (x + y) * 100 / (kPhotoWidth + kPhotoHeight) + 60};
            for (int c = 0; c < 3; ++c)
                *pixel++ = static_cast<std::uint8_t>(base[c] + (noise >> (8 * c) & 0x37));
        }
    return encode_jpeg(photo, 90);
}

// Host: libjpeg decodes the luminance, which is uploaded. Device: libjpeg entropy-decodes it to
// coefficients, which are uploaded, and the kernel makes the luminance. Each run once untimed
// first (the kernel's first launch, the allocator's first pages).
Timings measure_jpeg_idct(const OpenClContext& cl, MemoryMode mode)
{
    const std::vector<std::uint8_t> photo = camera_like_jpeg();
    const std::string name = "the measurement's photo";
    const std::size_t row_pitch = pitch_for(kPhotoWidth);
    const cl::Buffer luminance = create_image_buffer(
        cl, mode, CL_MEM_READ_WRITE, row_pitch * kPhotoHeight, "the measurement's luminance");
    JpegIdctFilter idct(cl, mode);
    JpegDecoding luminance_only;
    luminance_only.luminance_only = true;
    const auto host = [&] {
        const Image image = decode_jpeg(photo.data(), photo.size(), name, luminance_only);
        upload_rows(cl, mode, luminance, image.pixels.data(), image.width, image.height, row_pitch,
                    "the measurement's luminance");
    };
    const auto device = [&] {
        const std::optional<JpegLuminanceCoefficients> plane =
            decode_jpeg_luminance_coefficients(photo.data(), photo.size(), name);
        if (!plane) throw std::logic_error("the measurement's photo has no luminance plane");
        idct.upload(*plane, 0, plane->height);
        idct.run(row_pitch, luminance).wait();
    };
    device();
    host();
    Timings times;
    times.host_ms = median_ms(host);
    times.device_ms = median_ms(device);
    return times;
}

// ---- both ----

// One codec's place on this device: its setting, the cache, and a measurement when `measure`
// finds nothing cached.
CodecPlace settle(const Codec& codec, CodecSetting setting, const OpenClContext& cl,
                  bool device_can, const std::string& image,
                  const std::function<Timings()>& measure, std::ostream& log,
                  const std::function<void()>& settle_first)
{
    const std::string key = codec_key(codec, device_key(cl.device));
    const bool cpu = (cl.device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_CPU) != 0;
    const std::optional<CodecPlace> place =
        codec_place(setting, cached_place(key), device_can, codec.measured_unasked && !cpu);
    if (place) return *place;
    if (settle_first) settle_first();
    const Timings times = measure();
    const bool cached = write_tuning_entry(tuning_cache_path(), key, place_name(times.winner()));
    report(log, codec, image, times, cached);
    return times.winner();
}

std::once_flag png_device_refused;

CodecChoice settle_both(const CodecSettings& settings, const OpenClContext& cl, MemoryMode mode,
                        std::ostream& log, const std::function<void()>& settle_first)
{
    CodecChoice choice;
    const OpenClContext measuring = cl.unrecorded();
    const std::string encoder_refusal = PngDeflateEncoder::unavailable(cl.device);
    if (settings.png_deflate == CodecSetting::device && !encoder_refusal.empty())
        note_once(png_device_refused, "PNG compression on the device: " + encoder_refusal +
                                          "; compressing on the host");
    choice.png_deflate = settle(
        kPngDeflate, settings.png_deflate, cl, encoder_refusal.empty(),
        "a " + std::to_string(kEdgeSide) + "x" + std::to_string(kEdgeSide) + " edge image",
        [&] { return measure_png_deflate(measuring); }, log, settle_first);
    if (choice.png_deflate == CodecPlace::device) {
        PngDeflateEncoder& encoder = encoder_for(cl);
        use_png_rows_encoder(device_encoder(encoder), encoder.chunking());
    } else {
        use_png_rows_encoder({});
    }

    choice.jpeg_idct = settle(
        kJpegIdct, settings.jpeg_idct, cl, /*device_can=*/true,
        "a " + std::to_string(kPhotoWidth) + "x" + std::to_string(kPhotoHeight) +
            " camera-like JPEG",
        [&] { return measure_jpeg_idct(measuring, mode); }, log, settle_first);
    return choice;
}

// Which variables, beside -p, -d and -t, change the devices a selection finds: the ICD loader's
// list of drivers, and the drivers' own lists of visible devices.
constexpr const char* kDeviceVariables[] = {"OCL_ICD_VENDORS",      "OCL_ICD_FILENAMES",
                                            "POCL_DEVICES",         "CUDA_VISIBLE_DEVICES",
                                            "ROCR_VISIBLE_DEVICES", "ZE_AFFINITY_MASK"};

}  // namespace

void read_codec_environment(CodecSettings& settings)
{
    read_variable(kPngDeflate, settings.png_deflate);
    read_variable(kJpegIdct, settings.jpeg_idct);
}

std::optional<CodecPlace> codec_place(CodecSetting setting, std::optional<CodecPlace> cached,
                                      bool device_can, bool unset_measures)
{
    switch (setting) {
        case CodecSetting::host:
            return CodecPlace::host;
        case CodecSetting::device:
            return device_can ? CodecPlace::device : CodecPlace::host;
        case CodecSetting::measure:
            if (!device_can) return CodecPlace::host;
            return cached;  // nothing: measure now
        case CodecSetting::unset:
            break;
    }
    if (!device_can) return CodecPlace::host;
    if (cached) return cached;
    if (!unset_measures) return CodecPlace::host;
    return std::nullopt;  // measured, as the kernels are tuned
}

std::string place_name(CodecPlace place)
{
    return place == CodecPlace::device ? "device" : "host";
}

std::string device_found_key(const DeviceSelection& selection)
{
    std::string key = "device_found";
    if (selection.platform) key += " -p " + std::to_string(*selection.platform);
    if (selection.device) key += " -d " + std::to_string(*selection.device);
    if (selection.type) {
        static const char* const types[] = {"all", "cpu", "gpu", "accelerator"};
        key += std::string(" -t ") + types[static_cast<int>(*selection.type)];
    }
    for (const char* variable : kDeviceVariables)
        if (const char* value = std::getenv(variable))
            key += std::string(" ") + variable + "=" + value;
    // The file's separators cannot come from the environment.
    for (char& c : key)
        if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    return key;
}

std::string png_deflate_key(const cl::Device& device)
{
    return codec_key(kPngDeflate, device_key(device));
}
std::string jpeg_idct_key(const cl::Device& device)
{
    return codec_key(kJpegIdct, device_key(device));
}

bool expect_jpeg_idct_on_device(const CodecSettings& settings, const DeviceSelection& selection)
{
    if (settings.jpeg_idct == CodecSetting::host) return false;
    if (settings.jpeg_idct == CodecSetting::device) return true;
    const std::filesystem::path cache = tuning_cache_path();
    const std::optional<std::string> device = read_tuning_entry(cache, device_found_key(selection));
    if (!device) return false;
    return cached_place(codec_key(kJpegIdct, *device)) == CodecPlace::device;
}

CodecChoice choose_codecs(const CodecSettings& settings, const DeviceSelection& selection,
                          const OpenClContext& cl, MemoryMode mode, std::ostream& log,
                          const std::function<void()>& settle_first)
{
    // Once per context: a batch's photos each start a run on the same one, side by side, and
    // the first settles it for the others (the batch runs it alone).
    static std::mutex mutex;
    static std::vector<std::pair<cl_context, CodecChoice>> settled;
    std::lock_guard<std::mutex> lock(mutex);
    std::optional<CodecChoice> choice;
    for (const auto& [context, settled_choice] : settled)
        if (context == cl.context()) choice = settled_choice;
    if (!choice) {
        choice = settle_both(settings, cl, mode, log, settle_first);
        settled.emplace_back(cl.context(), *choice);
    }
    // The record a later run's guess reads: written where it finds this device's cached choice,
    // or corrects an older record; a run that has nothing to remember writes no cache.
    const std::filesystem::path cache = tuning_cache_path();
    const std::string found = device_key(cl.device);
    const std::string record = device_found_key(selection);
    const std::optional<std::string> recorded = read_tuning_entry(cache, record);
    if (recorded != found && (recorded || read_tuning_entry(cache, jpeg_idct_key(cl.device))))
        write_tuning_entry(cache, record, found);
    return *choice;
}

}  // namespace sdk
