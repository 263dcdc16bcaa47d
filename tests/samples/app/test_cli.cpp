// SPDX-License-Identifier: Apache-2.0
// Option parsing shared by the samples, and device selection on whatever platform is installed.
#include "common/runtime/errors.hpp"
#include "samples/app/cli.hpp"
#include "common/runtime/device.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <set>
#include <sstream>
#include <vector>

namespace sdk {
namespace {

// Parses `arguments` the way a sample does; returns the exit status run_sample gives.
int parse(CommonOptions& options, std::vector<std::string> arguments, bool* body_ran = nullptr)
{
    CLI::App app{"test", "sample"};
    add_common_options(app, options);
    std::vector<char*> argv;
    std::string program = "sample";
    argv.push_back(program.data());
    for (auto& argument : arguments) argv.push_back(argument.data());
    return run_sample(app, static_cast<int>(argv.size()), argv.data(), options, [&] {
        if (body_ran) *body_ran = true;
    });
}

TEST(CommonOptions, DefaultsAreTheDocumentedOnes)
{
    CommonOptions options;
    bool ran = false;
    EXPECT_EQ(parse(options, {}, &ran), 0);
    EXPECT_TRUE(ran);
    EXPECT_EQ(options.input, default_input_image());
    EXPECT_EQ(options.input.filename(), "input.bmp");
    EXPECT_EQ(options.output, "output.bmp");
    EXPECT_EQ(options.border, Border::replicate);
    EXPECT_FALSE(options.verify);
    EXPECT_FALSE(options.save_raw);
    EXPECT_EQ(options.iterations, 0u);
    EXPECT_FALSE(options.device.platform || options.device.device || options.device.type);
}

// --png-deflate and --jpeg-idct (common/codecs/codec_choice.hpp) take host, device or measure,
// each defaulting to its environment variable, the option winning; a bad value of either is a
// usage error naming the option or the variable.
TEST(CommonOptions, CodecOptionsWinOverTheirVariables)
{
    ::unsetenv("SDK_PNG_DEFLATE");
    ::unsetenv("SDK_JPEG_IDCT");
    CommonOptions options;
    EXPECT_EQ(parse(options, {}), 0);
    EXPECT_EQ(options.codecs.png_deflate, CodecSetting::unset);
    EXPECT_EQ(options.codecs.jpeg_idct, CodecSetting::unset);

    ::setenv("SDK_PNG_DEFLATE", "Device", 1);  // case ignored, as the options' names
    ::setenv("SDK_JPEG_IDCT", "measure", 1);
    CommonOptions from_variables;
    EXPECT_EQ(parse(from_variables, {}), 0);
    EXPECT_EQ(from_variables.codecs.png_deflate, CodecSetting::device);
    EXPECT_EQ(from_variables.codecs.jpeg_idct, CodecSetting::measure);

    CommonOptions from_options;
    EXPECT_EQ(parse(from_options, {"--png-deflate", "measure", "--jpeg-idct", "HOST"}), 0);
    EXPECT_EQ(from_options.codecs.png_deflate, CodecSetting::measure);
    EXPECT_EQ(from_options.codecs.jpeg_idct, CodecSetting::host);

    ::setenv("SDK_JPEG_IDCT", "", 1);  // empty: unset
    CommonOptions empty;
    EXPECT_EQ(parse(empty, {}), 0);
    EXPECT_EQ(empty.codecs.jpeg_idct, CodecSetting::unset);
    ::unsetenv("SDK_PNG_DEFLATE");
    ::unsetenv("SDK_JPEG_IDCT");
}

TEST(CommonOptions, BadCodecSettingsAreUsageErrors)
{
    ::unsetenv("SDK_PNG_DEFLATE");
    ::unsetenv("SDK_JPEG_IDCT");
    for (const char* option : {"--png-deflate", "--jpeg-idct"}) {
        CommonOptions options;
        EXPECT_EQ(parse(options, {option, "gpu"}), 2) << option;
        EXPECT_EQ(parse(options, {option, ""}), 2) << option;
    }
    for (const char* variable : {"SDK_PNG_DEFLATE", "SDK_JPEG_IDCT"}) {
        ::setenv(variable, "gpu", 1);
        CodecSettings settings;
        try {
            read_codec_environment(settings);
            ADD_FAILURE() << variable << "=gpu was taken";
        } catch (const UsageError& error) {
            EXPECT_EQ(std::string(error.what()),
                      std::string(variable) + "='gpu': expected host, device or measure");
        }
        CommonOptions options;
        EXPECT_EQ(parse(options, {}), 2) << variable;
        // The option wins: the variable is not read at all.
        EXPECT_EQ(parse(options, {"--png-deflate", "host", "--jpeg-idct", "host"}), 0) << variable;
        ::unsetenv(variable);
    }
}

TEST(CommonOptions, ParsesEveryOption)
{
    CommonOptions options;
    EXPECT_EQ(parse(options,
                    {"-p", "1", "-d", "2", "-t", "gpu", "-i", "in.bmp", "-o", "out.bmp", "--border",
                     "reflect101", "--verify", "-q", "-n", "7", "--save-raw", "raw"}),
              0);
    EXPECT_EQ(options.device.platform, 1u);
    EXPECT_EQ(options.device.device, 2u);
    EXPECT_EQ(options.device.type, DeviceType::gpu);
    EXPECT_EQ(options.input, "in.bmp");
    EXPECT_EQ(options.output, "out.bmp");
    EXPECT_EQ(options.border, Border::reflect101);
    EXPECT_TRUE(options.verify);
    EXPECT_TRUE(options.quiet);
    EXPECT_EQ(options.iterations, 7u);
    EXPECT_EQ(options.save_raw, std::filesystem::path("raw"));
}

TEST(CommonOptions, EveryBorderNameIsAccepted)
{
    for (const auto& [name, border] : border_names()) {
        CommonOptions options;
        EXPECT_EQ(parse(options, {"--border", name}), 0) << name;
        EXPECT_EQ(options.border, border) << name;
    }
}

// Names are typed in any case; the numbers behind them are not names (CLI11's CheckedTransformer
// took "-t 3" and "--border 2").
TEST(CommonOptions, NamesInAnyCaseButNotTheirNumbers)
{
    CommonOptions options;
    EXPECT_EQ(parse(options, {"--border", "Reflect101", "-t", "CPU", "--memory", "COPY"}), 0);
    EXPECT_EQ(options.border, Border::reflect101);
    EXPECT_EQ(options.device.type, DeviceType::cpu);
    EXPECT_EQ(options.memory, MemoryMode::copy);
    for (const std::vector<std::string>& arguments :
         {std::vector<std::string>{"-t", "3"}, {"--border", "2"}, {"--memory", "1"}}) {
        CommonOptions numbered;
        testing::internal::CaptureStderr();
        EXPECT_EQ(parse(numbered, arguments), 2) << arguments[0];
        const std::string message = testing::internal::GetCapturedStderr();
        EXPECT_NE(message.find("'" + arguments[1] + "' is not one of "), std::string::npos)
            << message;
    }
}

TEST(CommonOptions, UsageErrorsExitWithTwoAndSkipTheBody)
{
    const std::vector<std::vector<std::string>> bad{
        {"--bogus"},    {"--border", "wrap"}, {"-t", "fpga"},    {"-n", "0"},
        {"-n", "many"}, {"-p", "-1"},         {"extra-argument"}};
    for (const auto& arguments : bad) {
        CommonOptions options;
        bool ran = false;
        testing::internal::CaptureStderr();
        EXPECT_EQ(parse(options, arguments, &ran), 2) << arguments[0];
        const std::string message = testing::internal::GetCapturedStderr();
        EXPECT_FALSE(ran);
        EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << message;
    }
}

// Values that meant the default silently (issue 38, item 8): empty ones, and --band-rows 0, are
// usage errors as every other option's empty value is.
TEST(CommonOptions, EmptyValuesAndZeroBandRowsAreUsageErrors)
{
    const std::vector<std::vector<std::string>> bad{
        {"--band-rows", ""}, {"--band-rows", "0"}, {"--band-rows", "00"},
        {"--device", ""},    {"--platform", ""},   {"-d", ""},
        {"-p", ""}};
    for (const auto& arguments : bad) {
        CommonOptions options;
        bool ran = false;
        testing::internal::CaptureStderr();
        EXPECT_EQ(parse(options, arguments, &ran), 2)
            << arguments[0] << " '" << arguments[1] << "'";
        const std::string message = testing::internal::GetCapturedStderr();
        EXPECT_FALSE(ran) << arguments[0] << " '" << arguments[1] << "'";
        EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << message;
        EXPECT_NE(message.find(arguments[0]), std::string::npos) << message;
    }
    CommonOptions options;
    EXPECT_EQ(parse(options, {"--band-rows", "16"}), 0);
    EXPECT_EQ(options.band_rows, 16u);
}

// -o names a format the samples write, or is refused (issue 38, item 17): edges.jpg, .jpeg, .tif,
// .webp or no extension were written as BMP bytes under that name.
TEST(CommonOptions, AnOutputNamedForAnotherFormatIsAUsageError)
{
    for (const char* output :
         {"edges.jpg", "edges.jpeg", "edges.tif", "edges.webp", "edges", "out/edges.png.bak"}) {
        CommonOptions options;
        bool ran = false;
        testing::internal::CaptureStderr();
        EXPECT_EQ(parse(options, {"-o", output}, &ran), 2) << output;
        const std::string message = testing::internal::GetCapturedStderr();
        EXPECT_FALSE(ran) << output;
        EXPECT_NE(message.find("PNG (.png) or BMP (.bmp)"), std::string::npos) << message;
        EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << message;
    }
    for (const char* output : {"edges.png", "EDGES.BMP", "out/a.b.Png"}) {
        CommonOptions options;
        bool ran = false;
        EXPECT_EQ(parse(options, {"-o", output}, &ran), 0) << output;
        EXPECT_TRUE(ran) << output;
    }
}

TEST(CommonOptions, HelpExitsWithZero)
{
    CommonOptions options;
    bool ran = false;
    testing::internal::CaptureStdout();
    EXPECT_EQ(parse(options, {"--help"}, &ran), 0);
    const std::string help = testing::internal::GetCapturedStdout();
    EXPECT_FALSE(ran);
    EXPECT_NE(help.find("--border"), std::string::npos);
    EXPECT_NE(help.find("--list-devices"), std::string::npos);
}

TEST(RunSample, FailuresBecomeOneLineAndExitOne)
{
    CLI::App app{"test", "sample"};
    CommonOptions options;
    add_common_options(app, options);
    char name[] = "sample";
    char* argv[] = {name};
    testing::internal::CaptureStderr();
    const int status =
        run_sample(app, 1, argv, options, [] { throw std::runtime_error("broken"); });
    EXPECT_EQ(status, 1);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "sample: broken\n");
}

TEST(ClErrorName, NamesCodes)
{
    EXPECT_EQ(cl_error_name(CL_INVALID_WORK_GROUP_SIZE), "CL_INVALID_WORK_GROUP_SIZE");
    EXPECT_EQ(cl_error_name(-5), "CL_OUT_OF_RESOURCES");
    EXPECT_EQ(cl_error_name(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
    EXPECT_EQ(cl_error_name(-12345), "unknown OpenCL error -12345");
}

TEST(OpenClError, SaysWhatWasBeingDone)
{
    try {
        while_doing("enqueueing the sobel kernel",
                    [] { throw cl::Error(CL_INVALID_WORK_GROUP_SIZE, "clEnqueueNDRangeKernel"); });
        FAIL() << "no exception";
    } catch (const OpenClError& error) {
        EXPECT_STREQ(error.what(),
                     "while enqueueing the sobel kernel: clEnqueueNDRangeKernel failed with "
                     "CL_INVALID_WORK_GROUP_SIZE (-54)");
        EXPECT_EQ(error.code(), CL_INVALID_WORK_GROUP_SIZE);
    }
}

TEST(DeviceSelection, DefaultFindsADevice)
{
    const cl::Device device = select_device({});
    EXPECT_FALSE(device.getInfo<CL_DEVICE_NAME>().empty());
}

TEST(DeviceSelection, DefaultPrefersAGpu)
{
    std::vector<cl::Platform> platforms;
    cl::Platform::get(&platforms);
    bool any_gpu = false;
    for (const auto& platform : platforms) {
        std::vector<cl::Device> gpus;
        try {
            platform.getDevices(CL_DEVICE_TYPE_GPU, &gpus);
        } catch (const cl::Error&) {
        }
        any_gpu = any_gpu || !gpus.empty();
    }
    const auto type = select_device({}).getInfo<CL_DEVICE_TYPE>();
    EXPECT_EQ((type & CL_DEVICE_TYPE_GPU) != 0, any_gpu);
}

TEST(DeviceSelection, ExplicitIndicesAndTypes)
{
    const cl::Device first = select_device({0u, 0u, DeviceType::all});
    const cl::Device same = select_device({0u, 0u, std::nullopt});
    EXPECT_EQ(first(), same());
    const auto type = first.getInfo<CL_DEVICE_TYPE>();
    const DeviceType its_type = (type & CL_DEVICE_TYPE_GPU)   ? DeviceType::gpu
                                : (type & CL_DEVICE_TYPE_CPU) ? DeviceType::cpu
                                                              : DeviceType::accelerator;
    EXPECT_EQ(select_device({0u, std::nullopt, its_type})(), first());
}

// --devices all: the chosen device first, then every other of its platform and type, each a
// selection that picks exactly that device, none twice.
TEST(DeviceSelection, EveryDeviceLikeTheChosenStartsWithIt)
{
    for (const DeviceSelection& asked :
         {DeviceSelection{}, DeviceSelection{0u, std::nullopt, DeviceType::all}}) {
        const std::vector<DeviceSelection> every = every_device_like(asked);
        ASSERT_FALSE(every.empty());
        EXPECT_EQ(select_device(every.front())(), select_device(asked)());
        std::set<cl_device_id> seen;
        for (const DeviceSelection& one : every) {
            ASSERT_TRUE(one.platform && one.device && one.type);
            const cl::Device device = select_device(one);
            EXPECT_TRUE(seen.insert(device()).second) << "a device twice";
            EXPECT_EQ(device.getInfo<CL_DEVICE_PLATFORM>(),
                      select_device(asked).getInfo<CL_DEVICE_PLATFORM>());
        }
    }
}

TEST(DeviceSelection, OutOfRangeChoicesNameWhatWasAskedFor)
{
    try {
        select_device({99u, std::nullopt, std::nullopt});
        FAIL() << "no exception";
    } catch (const DeviceNotFound& error) {
        EXPECT_NE(std::string(error.what()).find("no OpenCL platform 99"), std::string::npos);
    }
    try {
        select_device({0u, 99u, std::nullopt});
        FAIL() << "no exception";
    } catch (const DeviceNotFound& error) {
        EXPECT_NE(std::string(error.what()).find("no OpenCL device 99"), std::string::npos)
            << error.what();
    }
}

TEST(DeviceSelection, ListShowsEveryField)
{
    std::ostringstream out;
    list_devices(out);
    const std::string text = out.str();
    for (const char* field :
         {"Platform 0", "Device 0", "type ", "OpenCL", "compute units", "MiB global memory"})
        EXPECT_NE(text.find(field), std::string::npos) << field << " missing from\n" << text;
}

}  // namespace
}  // namespace sdk
