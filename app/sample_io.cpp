#include "app/sample_io.hpp"

#include "imageio/image_file.hpp"
#include "imageio/file_io.hpp"
#include "imageio/luminance.hpp"

namespace sdk {

OutputSet reserve_outputs(const CommonOptions& options,
                          const std::vector<std::filesystem::path>& outputs)
{
    std::vector<std::filesystem::path> folders;
    if (options.save_raw) folders.push_back(*options.save_raw);
    return OutputSet({options.input}, outputs, folders);
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
