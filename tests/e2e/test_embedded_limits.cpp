// SPDX-License-Identifier: Apache-2.0
// End to end: every sample, every --variant (auto's tuning included) and work-group shapes wider
// than 256 work-items, on a device presenting an embedded GPU's limits: 32 KiB of local memory,
// 256 work-items a group, 128 MiB a buffer. Each run either passes --verify or is refused before
// it starts, with its reason in one line; none fails at launch (CL_INVALID_WORK_GROUP_SIZE,
// CL_OUT_OF_RESOURCES, CL_INVALID_BUFFER_SIZE).
//
// The SDK is told the limits through SDK_MAX_* (common/runtime/device.hpp). The desktop driver
// underneath would run what an embedded one refuses, so limits_shim.cpp, loaded with LD_PRELOAD,
// refuses it as that driver would: a sample that sized anything by the device's own limits fails
// here. SeenByTheShim shows that the shim is in force.
#include "child_process.hpp"
#include "common/imageio/bmp.hpp"
#include "common/imageio/image_file.hpp"
#include "common/runtime/program.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace {

namespace fs = std::filesystem;
using namespace e2etest;

const std::map<std::string, std::string> kEmbeddedLimits{{"MAX_LOCAL_MEM_BYTES", "32768"},
                                                         {"MAX_WORK_GROUP_SIZE", "256"},
                                                         {"MAX_ALLOC_BYTES", "134217728"}};

// A driver like Mesa's rusticl: each kernel runs at most 32 (or 64) work-items a group
// (CL_KERNEL_WORK_GROUP_SIZE), however many the device allows.
std::map<std::string, std::string> kernel_limit(const std::string& items)
{
    return {{"MAX_KERNEL_WORK_GROUP_SIZE", items}};
}

struct Case {
    std::string name;  // the test's name
    std::string sample;
    std::vector<std::string> arguments;
    std::map<std::string, std::string> limits = kEmbeddedLimits;
};

// 15x15 weights: the largest window, whose local variant needs the largest tiles. Separable
// ones (a column times a row) run fir_float's separable kernels, whose local variant keeps the
// row sums in local memory too; the diagonal added makes them not separable.
std::vector<std::string> weights_15x15(bool separable)
{
    std::string weights;
    const int row[15] = {1, 2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2, 1};
    for (int y = 0; y < 15; ++y)
        for (int x = 0; x < 15; ++x)
            weights += (weights.empty() ? "" : ",") +
                       std::to_string(row[y] * row[x] + (!separable && x == y));
    return {"--size", "15", "--coefficients", weights};
}

std::vector<Case> every_case()
{
    std::vector<Case> cases;
    const auto add = [&](const std::string& name, const std::string& sample,
                         std::vector<std::string> arguments,
                         const std::map<std::string, std::string>& limits = kEmbeddedLimits) {
        cases.push_back({name, sample, std::move(arguments), limits});
    };
    // 32x16 and 512x1 are 512 work-items; 16x16 is the most the device runs.
    const std::vector<std::pair<std::string, std::vector<std::string>>> groups{
        {"", {}},
        {"_32x16", {"--work-group", "32x16"}},
        {"_512x1", {"--work-group", "512x1"}},
        {"_16x16", {"--work-group", "16x16"}}};
    const std::map<std::string, std::string> sobel_variants{
        {"auto", "auto"},          {"16x1", "16x1"},   {"16x4", "16x4"},
        {"packed", "16x4-packed"}, {"local", "local"}, {"image", "image"}};
    for (const auto& [label, variant] : sobel_variants)
        for (const auto& [suffix, group] : groups) {
            std::vector<std::string> arguments{"--variant", variant};
            arguments.insert(arguments.end(), group.begin(), group.end());
            add("sobel_" + label + suffix, "sobel", arguments);
        }
    // -n: the verdict times every variant, in the shape asked for where it suits.
    add("sobel_every_variant_timed", "sobel", {"-n", "2"});
    add("sobel_every_variant_timed_16x16", "sobel", {"-n", "2", "--work-group", "16x16"});
    add("sobel_no_vectors", "sobel_no_vectors", {});  // one kernel, in 32x8 groups

    for (const std::string variant : {"auto", "buffer", "local", "image"}) {
        for (const auto& [suffix, group] : groups) {
            std::vector<std::string> arguments{"--variant", variant};
            arguments.insert(arguments.end(), group.begin(), group.end());
            add("fir_float_" + variant + suffix, "fir_float", arguments);
        }
        for (const bool separable : {false, true}) {
            std::vector<std::string> arguments{"--variant", variant};
            for (const auto& word : weights_15x15(separable)) arguments.push_back(word);
            add("fir_float_" + variant + (separable ? "_separable" : "") + "_15x15", "fir_float",
                arguments);
        }
    }
    std::vector<std::string> timed{"-n", "2"};
    for (const auto& word : weights_15x15(false)) timed.push_back(word);
    add("fir_float_every_variant_timed_15x15", "fir_float", timed);

    for (const auto& [suffix, group] : groups)
        add("morphology_packed" + suffix, "morphology_packed", group);
    add("morphology_packed_diamond", "morphology_packed", {"--shape", "diamond"});
    add("morphology_packed_ellipse_15", "morphology_packed",
        {"--shape", "ellipse", "--size", "15x15"});

    // Kernels limited below every shape we prefer: each variant, --compare and the verdict run
    // in shapes within the kernel's limit, without a --work-group; one named over it is refused.
    for (const std::string items : {"32", "64"}) {
        const auto limits = kernel_limit(items);
        const std::string at = "_kernel_limit_" + items;
        for (const auto& [label, variant] : sobel_variants)
            add("sobel_" + label + at, "sobel", {"--variant", variant}, limits);
        add("sobel_compare" + at, "sobel", {"--compare", "-n", "2"}, limits);
        add("sobel_32x8_named" + at, "sobel", {"--variant", "16x1", "--work-group", "32x8"},
            limits);
        add("sobel_no_vectors" + at, "sobel_no_vectors", {}, limits);
        for (const std::string variant : {"auto", "buffer", "local", "image"})
            add("fir_float_" + variant + at, "fir_float", {"--variant", variant}, limits);
        for (const bool separable : {false, true}) {
            std::vector<std::string> arguments{"--variant", "local"};
            for (const auto& word : weights_15x15(separable)) arguments.push_back(word);
            add(std::string("fir_float_local") + (separable ? "_separable" : "") + "_15x15" + at,
                "fir_float", arguments, limits);
        }
        add("fir_float_compare" + at, "fir_float", {"--compare", "-n", "2"}, limits);
        add("morphology_packed" + at, "morphology_packed", {}, limits);
        add("morphology_packed_ellipse_15" + at, "morphology_packed",
            {"--shape", "ellipse", "--size", "15x15"}, limits);
    }
    return cases;
}

// Test failures name the case, not its bytes.
void PrintTo(const Case& test, std::ostream* out)
{
    *out << test.name;
}

class EmbeddedDevice : public ::testing::Test {
protected:
    void SetUp() override
    {
        // AddressSanitizer's run-time must be the first library loaded: LD_PRELOAD of another
        // stops a sanitized sample at its start.
        if (kSanitized) GTEST_SKIP() << "the shim's LD_PRELOAD cannot go before AddressSanitizer's";
        std::string pattern = (fs::temp_directory_path() / "embedded-limits-XXXXXX").string();
        ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
        root_ = pattern;
        // An awkward size (no multiple of 16 or 8), small enough for quick tuning.
        sdk::Image image;
        image.width = 203;
        image.height = 61;
        std::mt19937 random(5);
        for (std::size_t i = 0; i < image.width * image.height; ++i)
            image.pixels.push_back(static_cast<std::uint8_t>(random()));
        sdk::write_bmp(root_ / "input.bmp", image);
    }
    void TearDown() override
    {
        std::error_code ignored;
        if (!root_.empty()) fs::remove_all(root_, ignored);
    }

    // Who is told the embedded limits: nobody (the device's own limits), the shim alone, or both.
    enum class Limits { none, shim, shim_and_sdk };

    Outcome run(const Case& test, Limits limits = Limits::shim_and_sdk)
    {
        RunOptions options;
        for (const auto& [name, value] : test.limits) {
            if (limits != Limits::none) options.environment["SHIM_" + name] = value;
            if (limits == Limits::shim_and_sdk) options.environment["SDK_" + name] = value;
        }
        if (limits != Limits::none) options.environment["LD_PRELOAD"] = SDK_LIMITS_SHIM;
        // Its own tuning cache: auto tunes under these limits, whatever an earlier run chose.
        options.environment["SDK_TUNING_CACHE"] = (root_ / "tuning.txt").string();
        std::vector<std::string> arguments{"-i", (root_ / "input.bmp").string(), "-o",
                                           (root_ / "output.bmp").string(), "--verify"};
        arguments.insert(arguments.end(), test.arguments.begin(), test.arguments.end());
        return run_program(sdk::executable_directory() / test.sample, arguments, root_, root_,
                           options);
    }

    fs::path root_;
};

class EmbeddedLimits : public EmbeddedDevice, public ::testing::WithParamInterface<Case> {};

TEST_P(EmbeddedLimits, RunsAndVerifiesOrRefusesInOneLine)
{
    const Case& test = GetParam();
    const Outcome outcome = run(test);
    const std::string said =
        outcome.how + "\nstdout:\n" + outcome.out + "\nstderr:\n" + outcome.err;
    for (const char* launch_failure : {"limits_shim:", "CL_INVALID_WORK_GROUP_SIZE",
                                       "CL_OUT_OF_RESOURCES", "CL_INVALID_BUFFER_SIZE"})
        EXPECT_EQ(said.find(launch_failure), std::string::npos) << said;
    if (outcome.status == 0) {
        EXPECT_NE(outcome.out.find("Verify: "), std::string::npos) << said;
        EXPECT_TRUE(fs::exists(root_ / "output.bmp")) << said;
        // The shape that runs, printed on the setup line before the first launch, is within
        // the kernel's limit (the tuning's lines say what was chosen, which may be shrunk).
        if (const auto limit = test.limits.find("MAX_KERNEL_WORK_GROUP_SIZE");
            limit != test.limits.end()) {
            // (Parsed by hand, not with std::regex: GCC 12 warns inside <regex> in the
            // sanitizer build, where warnings are errors.)
            const std::size_t image = outcome.out.find("\nImage: ");
            ASSERT_NE(image, std::string::npos) << said;
            const std::string line =
                outcome.out.substr(image + 1, outcome.out.find('\n', image + 1) - (image + 1));
            const std::size_t shape = line.rfind("work-group ");
            unsigned width = 0;
            unsigned height = 0;
            ASSERT_TRUE(shape != std::string::npos &&
                        std::sscanf(line.c_str() + shape, "work-group %ux%u", &width, &height) == 2)
                << said;
            EXPECT_LE(width * height, std::stoul(limit->second)) << line << "\n" << said;
        }
        return;
    }
    // Refused: only a shape asked for (every variant runs in a shape of its own choosing), as a
    // usage error in one line naming the limit it exceeds (or, for fir_float's local variant,
    // the width its kernels are built for), with nothing written.
    bool shape_asked = false;
    for (const auto& argument : test.arguments)
        shape_asked = shape_asked || argument == "--work-group";
    EXPECT_TRUE(shape_asked) << said;
    EXPECT_EQ(outcome.status, 2) << said;
    EXPECT_EQ(outcome.err.find('\n'), outcome.err.size() - 1) << said;
    EXPECT_TRUE(outcome.err.find("work-items a group") != std::string::npos ||
                outcome.err.find("bytes of local memory") != std::string::npos ||
                outcome.err.find("groups are 16 work-items wide") != std::string::npos)
        << said;
    EXPECT_FALSE(fs::exists(root_ / "output.bmp")) << said;
}

INSTANTIATE_TEST_SUITE_P(EverySampleAndVariant, EmbeddedLimits, ::testing::ValuesIn(every_case()),
                         [](const ::testing::TestParamInfo<Case>& param) {
                             return param.param.name;
                         });

// Without SDK_MAX_*, a sample sizes its launches by PoCL's own limits and the shim refuses them
// as an embedded driver would: the test above can fail.
TEST_F(EmbeddedDevice, TheShimRefusesWhatTheSdkWasNotToldOf)
{
    const Outcome wide =
        run({"", "sobel", {"--variant", "16x1", "--work-group", "32x16"}}, Limits::shim);
    // A device whose own limits are already an embedded one's (a GPU whose kernel runs at most
    // 256 work-items a group) is refused by the SDK before the shim sees anything.
    if (wide.status == 2 && wide.err.find("work-items a group on this device") != std::string::npos)
        GTEST_SKIP() << "the device's own limit refuses first: " << wide.err;
    EXPECT_NE(wide.err.find("limits_shim: refused a work-group of 512 items"), std::string::npos)
        << wide.err;
    EXPECT_NE(wide.err.find("CL_INVALID_WORK_GROUP_SIZE"), std::string::npos) << wide.err;
    // 15x15 weights in 16x8 groups: tiles of more than 32 KiB.
    std::vector<std::string> local{"--variant", "local"};
    for (const auto& word : weights_15x15(false)) local.push_back(word);
    const Outcome tiles = run({"", "fir_float", local}, Limits::shim);
    EXPECT_NE(tiles.err.find("limits_shim: refused a kernel using"), std::string::npos)
        << tiles.err;
    EXPECT_NE(tiles.err.find("CL_OUT_OF_RESOURCES"), std::string::npos) << tiles.err;
    EXPECT_NE(tiles.status, 0);
}

// A choice tuned under the device's own limits is not taken under lower ones: they have tuning
// cache entries of their own. The entry is made to name the local variant in 16x8 groups, whose
// 15x15 tiles do not fit 32 KiB, whatever the unlimited run chose.
TEST_F(EmbeddedDevice, AChoiceTunedWithoutTheLimitsIsNotTakenUnderThem)
{
    std::vector<std::string> arguments;
    for (const auto& word : weights_15x15(false)) arguments.push_back(word);
    const Case test{"", "fir_float", arguments};
    const Outcome unlimited = run(test, Limits::none);
    ASSERT_EQ(unlimited.status, 0) << unlimited.err;
    const fs::path cache = root_ / "tuning.txt";
    std::string last, line;
    for (std::istringstream lines(read_text(cache)); std::getline(lines, line);)
        if (!line.empty()) last = line;
    ASSERT_NE(last.find('\t'), std::string::npos) << read_text(cache);
    const std::string entry = last.substr(0, last.find('\t')) + "\tlocal\t16x8\n";
    std::ofstream(cache, std::ios::app) << entry;
    fs::remove(root_ / "output.bmp");

    const Outcome limited = run(test);
    EXPECT_EQ(limited.status, 0) << limited.err;
    EXPECT_NE(limited.out.find("Verify: "), std::string::npos) << limited.out << limited.err;
}

// The device PNG encoder under an embedded device's limits, the shim enforcing them: 64 work-items
// a group, local memory for count_symbols' histogram alone, and buffers of 8 MiB or of 16 KiB
// (the 203x61 image's chunk then cut into blocks). Each run writes the pixels the host's encoder
// writes; with less local memory than the histogram the device is refused, named, and the host
// compresses (issue 47, item 4: every run failed, some with only "clEnqueueNDRangeKernel").
TEST_F(EmbeddedDevice, ThePngEncoderKeepsToTheLimits)
{
    const auto run_png = [&](const std::string& name, const std::string& where,
                             const std::string& local_memory, const std::string& allocation) {
        RunOptions options;
        const std::map<std::string, std::string> limits{{"MAX_LOCAL_MEM_BYTES", local_memory},
                                                        {"MAX_WORK_GROUP_SIZE", "64"},
                                                        {"MAX_ALLOC_BYTES", allocation}};
        for (const auto& [variable, value] : limits) {
            options.environment["SHIM_" + variable] = value;
            options.environment["SDK_" + variable] = value;
        }
        options.environment["LD_PRELOAD"] = SDK_LIMITS_SHIM;
        options.environment["SDK_TUNING_CACHE"] = (root_ / "tuning.txt").string();
        return run_program(sdk::executable_directory() / "sobel",
                           {"-i", (root_ / "input.bmp").string(), "-o", (root_ / name).string(),
                            "--variant", "16x1", "--work-group", "8x4", "--png-deflate", where},
                           root_, root_, options);
    };
    const Outcome host = run_png("host.png", "host", "32768", "134217728");
    ASSERT_EQ(host.status, 0) << host.err;
    const sdk::Image expected = sdk::read_image(root_ / "host.png");
    for (const char* allocation : {"8388608", "16384"}) {
        SCOPED_TRACE(allocation);
        // The histogram's 1144 bytes and 64 more: a driver may keep a few of its own in every
        // kernel's local memory (NVIDIA's: 4 bytes), which CL_KERNEL_LOCAL_MEM_SIZE counts.
        const Outcome device = run_png("device.png", "device", "1208", allocation);
        EXPECT_EQ(device.status, 0) << device.err;
        EXPECT_EQ(device.err, "");
        EXPECT_EQ(sdk::read_image(root_ / "device.png").pixels, expected.pixels);
        fs::remove(root_ / "device.png");
    }
    const Outcome refused = run_png("device.png", "device", "1000", "8388608");
    EXPECT_EQ(refused.status, 0) << refused.err;
    EXPECT_NE(refused.err.find("count_symbols kernel needs 1144 bytes of local memory"),
              std::string::npos)
        << refused.err;
    EXPECT_EQ(refused.err.find("limits_shim:"), std::string::npos) << refused.err;
    EXPECT_EQ(sdk::read_image(root_ / "device.png").pixels, expected.pixels);
}

}  // namespace
