#include "kernels/fir/fir_tuning.hpp"

#include "kernels/fir/fir_filter.hpp"

#include <memory>

namespace sdk {

std::vector<WorkGroupShape> fir_candidates()
{
    return work_group_candidates({32, 8});
}

std::string fir_tuning_key(const std::string& device, Border border, int size,
                           SizeClass size_class)
{
    const std::string k = std::to_string(size);
    return "fir_float | " + k + "x" + k + " | border " + border_name(border) + " | " +
           key_part(size_class) + " | " + device;
}

FirTuningResult choose_fir_work_group(const OpenClContext& cl, Border border, int size,
                                      std::size_t width, std::size_t height, Tuning tuning)
{
    const SizeClass size_class = size_class_of(width, height);
    auto recipe =
        work_group_recipe(fir_tuning_key(device_key(cl.device), border, size, size_class));
    recipe.prepare = [&](ImageSize image_size) {
        // Any weights of the size: their values do not change the work.
        FirCoefficients coefficients;
        coefficients.size = size;
        coefficients.numerators.assign(static_cast<std::size_t>(size * size), 1.0);
        auto fir = std::make_shared<FirFilter>(cl, border, coefficients);
        fir->allocate(image_size.width, image_size.height);
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
