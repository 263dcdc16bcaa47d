// SPDX-License-Identifier: Apache-2.0
#include "kernels/morphology/morphology_tuning.hpp"

#include "kernels/morphology/morphology_filter.hpp"

#include <memory>

namespace sdk {

std::vector<WorkGroupShape> morphology_candidates()
{
    return work_group_candidates({16, 8});
}

std::string morphology_tuning_key(const std::string& device, const StructuringElement& element,
                                  SizeClass size_class)
{
    return "morphology_packed | shape " + element_name(element) + " | " + key_part(size_class) +
           " | " + device;
}

MorphologyTuningResult choose_morphology_work_group(const OpenClContext& cl,
                                                    const StructuringElement& element,
                                                    std::size_t width, std::size_t height,
                                                    Tuning tuning, const TuningAnnouncer& announce)
{
    const SizeClass size_class = size_class_of(width, height);
    auto recipe =
        work_group_recipe(morphology_tuning_key(device_key(cl.device), element, size_class));
    recipe.prepare = [&](ImageSize size) {
        const OpenClContext measuring = cl.unrecorded();
        auto morphology = std::make_shared<MorphologyFilter>(measuring, element);
        morphology->allocate(size.width, size.height);
        fill_random(cl, morphology->luminance_buffer(), RandomValues::bytes);
        morphology->binarise_and_pack(Binarisation{128, false});
        Contestants<WorkGroupShape> contestants;
        const Roi whole = whole_image(size.width, size.height);
        // Dilations one after another, each reading the last one's result: the kernel's work
        // does not depend on the bits.
        contestants.launch = [morphology, whole](WorkGroupShape& candidate) {
            candidate = morphology->fit_work_group(candidate.x, candidate.y);
            return morphology->run_pass(MorphologyPass::dilate, whole).event;
        };
        return contestants;
    };
    recipe.stages = one_stage(morphology_candidates());
    recipe.default_choice =
        WorkGroupShape{16, 8};  // the filter's own default (morphology_filter.cpp)
    recipe.announce = announce;
    return tune(width, height, recipe, tuning);
}

}  // namespace sdk
