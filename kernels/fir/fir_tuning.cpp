#include "kernels/fir/fir_tuning.hpp"

#include "kernels/fir/fir_filter.hpp"

#include <memory>

namespace sdk {

std::vector<WorkGroupShape> fir_candidates()
{
    return work_group_candidates({32, 8});
}

std::string fir_tuning_key(const std::string& device, Border border, SizeClass size_class)
{
    return "fir_float | border " + border_name(border) + " | " + key_part(size_class) + " | " +
           device;
}

FirTuningResult choose_fir_work_group(const OpenClContext& cl, Border border, std::size_t width,
                                      std::size_t height, Tuning tuning)
{
    const SizeClass size_class = size_class_of(width, height);
    auto recipe = work_group_recipe(fir_tuning_key(device_key(cl.device), border, size_class));
    recipe.prepare = [&](ImageSize size) {
        auto fir = std::make_shared<FirFilter>(cl, border);
        fir->allocate(size.width, size.height);
        fill_random(cl, fir->luminance_buffer(), RandomValues::floats);
        Contestants<WorkGroupShape> contestants;
        contestants.candidates = runnable_shapes(
            fir_candidates(), [&](std::size_t x, std::size_t y) { fir->set_work_group(x, y); });
        contestants.launch = [fir](WorkGroupShape& shape) {
            fir->set_work_group(shape.x, shape.y);
            return fir->run();
        };
        return contestants;
    };
    return tune(width, height, recipe, tuning);
}

}  // namespace sdk
