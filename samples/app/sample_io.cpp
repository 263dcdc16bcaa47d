// SPDX-License-Identifier: Apache-2.0
#include "samples/app/sample_io.hpp"

#include "common/imageio/image_file.hpp"
#include "common/imageio/file_io.hpp"
#include "common/imageio/luminance.hpp"
#include "common/imageio/temporary_files.hpp"
#include "common/runtime/opencl.hpp"
#include "common/runtime/program.hpp"
#include "common/runtime/trace.hpp"

#include <system_error>
#include <vector>

#include <sys/stat.h>

namespace sdk {

// The OpenCL drivers install signal handlers of their own when first asked for their devices
// (PoCL's LLVM does, for SIGABRT among others, and passes an abort on to nobody). Asked before
// the output set installs its handlers, they are behind them: the set's handler runs first,
// removes the temporaries, then hands the signal to theirs. Errors wait for the device's choice.
void let_the_drivers_start()
{
    try {
        std::vector<cl::Platform> platforms;
        cl::Platform::get(&platforms);
        for (const auto& platform : platforms) {
            std::vector<cl::Device> devices;
            platform.getDevices(CL_DEVICE_TYPE_ALL, &devices);
        }
    } catch (const cl::Error&) {
    }
}

void refuse_replacing_what_runs_read(const std::vector<std::filesystem::path>& outputs)
{
    // Listed once per process, each file known by its device and inode (every spelling and
    // link of it alike), so that a batch's photos pay one stat() an output.
    struct ReadFile {
        dev_t device;
        ino_t inode;
        std::filesystem::path path;
    };
    static const std::vector<ReadFile> read_files = [] {
        std::vector<std::filesystem::path> paths{default_input_image()};
        std::error_code error;
        for (const auto& entry : std::filesystem::directory_iterator(executable_directory(), error))
            if (entry.path().extension() == ".cl") paths.push_back(entry.path());
        std::vector<ReadFile> files;
        for (const auto& path : paths) {
            struct stat info {};
            if (::stat(path.c_str(), &info) == 0) files.push_back({info.st_dev, info.st_ino, path});
        }
        return files;
    }();
    for (const auto& output : outputs) {
        struct stat info {};
        if (::stat(output.c_str(), &info) != 0) continue;  // not there: none of them
        for (const ReadFile& file : read_files)
            if (file.device == info.st_dev && file.inode == info.st_ino)
                throw FileError("refusing to write '" + output.string() + "': it is '" +
                                file.path.string() + "', which every run of the samples reads");
    }
}

OutputSet reserve_outputs(const CommonOptions& options,
                          const std::vector<std::filesystem::path>& outputs,
                          PipelineTimer& pipeline)
{
    take_stopping_signals();  // before the drivers start their threads
    pipeline.time("start the OpenCL driver", 0, let_the_drivers_start);
    std::vector<std::filesystem::path> folders;
    if (options.save_raw) folders.push_back(*options.save_raw);
    std::vector<std::filesystem::path> files = outputs;
    if (options.trace) files.push_back(*options.trace);
    refuse_replacing_what_runs_read(files);
    return OutputSet({options.input}, files, folders);
}

void write_trace(const CommonOptions& options, const PipelineTimer& pipeline,
                 const OpenClContext& cl)
{
    if (!options.trace) return;
    const std::string json = run_trace_json(pipeline, cl);
    AtomicFile file(*options.trace);
    file.write(json.data(), json.size());
    file.commit();
}

Image load_luminance(const std::filesystem::path& input, PipelineTimer* pipeline)
{
    Image picture = pipeline ? pipeline->time("read " + input.filename().string(), 0,
                                              [&] { return read_image_for_luminance(input); })
                             : read_image_for_luminance(input);
    if (picture.channels == 1) return picture;
    if (!pipeline) return to_luminance(picture);
    return pipeline->time("RGB to luminance", picture.pixels.size(),
                          [&] { return to_luminance(picture); });
}

}  // namespace sdk
