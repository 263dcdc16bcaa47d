#include "app/sample_io.hpp"

#include "imageio/image_file.hpp"
#include "imageio/file_io.hpp"
#include "imageio/luminance.hpp"
#include "runtime/trace.hpp"

namespace sdk {

OutputSet reserve_outputs(const CommonOptions& options,
                          const std::vector<std::filesystem::path>& outputs)
{
    std::vector<std::filesystem::path> folders;
    if (options.save_raw) folders.push_back(*options.save_raw);
    std::vector<std::filesystem::path> files = outputs;
    if (options.trace) files.push_back(*options.trace);
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
    if (!pipeline) return to_luminance(read_image(input));
    const Image picture = pipeline->time("read " + input.filename().string(), 0,
                                         [&] { return read_image(input); });
    return pipeline->time("RGB to luminance", picture.pixels.size(),
                          [&] { return to_luminance(picture); });
}

}  // namespace sdk
