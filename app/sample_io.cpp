#include "app/sample_io.hpp"

#include "imageio/image_file.hpp"
#include "imageio/file_io.hpp"
#include "imageio/luminance.hpp"

namespace sdk {

void check_output_paths(const std::filesystem::path& input,
                        const std::vector<std::filesystem::path>& outputs)
{
    for (const auto& output : outputs) {
        refuse_overwriting_input(input, output);
        // Fail now rather than after the work: outputs are written last.
        const auto folder = output.parent_path();
        if (!folder.empty() && !std::filesystem::is_directory(folder))
            throw FileError("cannot write '" + output.string() + "': folder '" + folder.string() +
                            "' does not exist");
    }
}

Image load_luminance(const std::filesystem::path& input,
                     const std::vector<std::filesystem::path>& outputs, PipelineTimer* pipeline)
{
    check_output_paths(input, outputs);
    if (!pipeline) return to_luminance(read_image(input));
    const Image picture = pipeline->time("read " + input.filename().string(), 0,
                                         [&] { return read_image(input); });
    return pipeline->time("RGB to luminance", picture.pixels.size(),
                          [&] { return to_luminance(picture); });
}

}  // namespace sdk
