// SPDX-License-Identifier: Apache-2.0
// border.cl's border_coordinate against the C++ one (kernels/border.cpp), the contract, for every
// mode on axes of 1 to 5 pixels and reads up to two pixels outside, as far as a 5x5 window
// reaches. Also how kernels are built: `#include "border.cl"` through build_program's -I, the
// mode check in border.cl, and the errors for a kernel file that is missing or a directory.
#include "kernels/border.hpp"
#include "common/runtime/kernel_args.hpp"
#include "common/runtime/program.hpp"
#include "test_support.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace sdk {
namespace {

using test::test_context;

// One work-item per read: coordinates[k] is where border.cl sends i = first + k on an axis of
// n pixels.
const char* const coordinates_source = R"(
#include "border.cl"

__kernel void border_coordinates(const int first, const int n, __global int* coordinates)
{
    const int k = get_global_id(0);
    coordinates[k] = border_coordinate(first + k, n);
}
)";

// What border.cl computes for i = first .. first + count - 1 on an axis of n pixels.
std::vector<cl_int> device_coordinates(cl::Program& program, int first, int n, int count)
{
    const OpenClContext& cl = test_context();
    const std::size_t bytes = count * sizeof(cl_int);
    cl::Buffer coordinates(cl.context, CL_MEM_WRITE_ONLY, bytes);
    // Poison far from any coordinate, so a read the kernel leaves unwritten cannot pass.
    cl.queue.enqueueFillBuffer(coordinates, cl_int{-12345}, 0, bytes);
    cl::Kernel kernel(program, "border_coordinates");
    set_args(kernel, cl_int{first}, cl_int{n}, coordinates);
    cl.queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(count));
    std::vector<cl_int> values(count);
    cl.queue.enqueueReadBuffer(coordinates, CL_TRUE, 0, bytes, values.data());
    return values;
}

class BorderKernelTest : public ::testing::TestWithParam<Border> {};

TEST_P(BorderKernelTest, MatchesHostTwoPixelsOutside)
{
    const Border border = GetParam();
    cl::Program program = build_program_from_source(
        test_context(), coordinates_source, "border_coordinates.cl", border_build_option(border));
    for (int n = 1; n <= 5; ++n) {
        const int first = -2;
        const int count = n + 4;  // i = -2 .. n + 1
        const std::vector<cl_int> values = device_coordinates(program, first, n, count);
        for (int k = 0; k < count; ++k)
            EXPECT_EQ(values[k], border_coordinate(first + k, n, border))
                << border_name(border) << " n=" << n << " i=" << first + k;
    }
}

INSTANTIATE_TEST_SUITE_P(EveryBorder, BorderKernelTest,
                         ::testing::Values(Border::replicate, Border::reflect101, Border::constant,
                                           Border::none),
                         [](const auto& test_info) { return border_name(test_info.param); });

// oclgrind 21.10's compiler messages name the program input.cl whatever its #line says, so the
// file and line a build error reports are checked on the real device only.
bool on_oclgrind()
{
    const cl::Platform platform(test_context().device.getInfo<CL_DEVICE_PLATFORM>());
    return platform.getInfo<CL_PLATFORM_NAME>().find("Oclgrind") != std::string::npos;
}

// The compiler's log from building `source` with `options`, which must fail with a BuildError.
std::string failed_build_log(const std::string& source, const std::string& options)
{
    try {
        build_program_from_source(test_context(), source, "failing.cl", options);
    } catch (const BuildError& error) {
        EXPECT_NE(std::string(error.what()).find("failing.cl"), std::string::npos) << error.what();
        return error.log();
    }
    ADD_FAILURE() << "the build with '" << options << "' should have failed";
    return {};
}

TEST(BorderKernelMode, ExactlyOneModeMustBeChosen)
{
    EXPECT_NE(failed_build_log(coordinates_source, "").find("exactly one"), std::string::npos);
    EXPECT_NE(failed_build_log(coordinates_source, "-DBORDER_REPLICATE -DBORDER_NONE")
                  .find("exactly one"),
              std::string::npos);
}

// A copy of border.cl and a kernel file that includes it, in `folder`.
void write_kernels(const std::filesystem::path& folder)
{
    std::filesystem::create_directories(folder);
    std::filesystem::copy_file(executable_directory() / "border.cl", folder / "border.cl",
                               std::filesystem::copy_options::overwrite_existing);
    std::ofstream(folder / "coordinates.cl") << coordinates_source;
}

// A folder of kernels of this test's own, away from the executable's.
class KernelFolder : public ::testing::Test {
protected:
    void SetUp() override
    {
        folder_ = std::filesystem::temp_directory_path() /
                  ("sdk-border-kernels-" + std::to_string(getpid()));
        write_kernels(folder_);
    }
    void TearDown() override { std::filesystem::remove_all(folder_); }

    std::filesystem::path folder_;
};

TEST_F(KernelFolder, IncludesAreFoundInTheKernelFolder)
{
    cl::Program program =
        build_program(test_context(), "coordinates.cl", "-DBORDER_REFLECT101", folder_);
    const std::vector<cl_int> values = device_coordinates(program, -2, 3, 7);
    EXPECT_EQ(values, (std::vector<cl_int>{2, 1, 0, 1, 2, 1, 0}));
}

TEST_F(KernelFolder, IncludesAreFoundInAFolderWithSpaces)
{
    const cl::Platform platform(test_context().device.getInfo<CL_DEVICE_PLATFORM>());
    if (platform.getInfo<CL_PLATFORM_NAME>().find("Portable Computing Language") !=
        std::string::npos)
        GTEST_SKIP() << "PoCL 3.1 takes the quotes as part of the folder name";
    const auto spaced = folder_ / "kernels with spaces";
    write_kernels(spaced);
    cl::Program program =
        build_program(test_context(), "coordinates.cl", "-DBORDER_REPLICATE", spaced);
    const std::vector<cl_int> values = device_coordinates(program, -2, 3, 7);
    EXPECT_EQ(values, (std::vector<cl_int>{0, 0, 0, 1, 2, 2, 2}));
}

TEST_F(KernelFolder, MissingFileIsNamed)
{
    try {
        build_program(test_context(), "absent.cl", "-DBORDER_NONE", folder_);
        FAIL() << "a missing kernel file should be refused";
    } catch (const BuildError&) {
        FAIL() << "a missing kernel file should be refused before compiling";
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("cannot open kernel file"), std::string::npos) << message;
        EXPECT_NE(message.find("absent.cl"), std::string::npos) << message;
    }
}

TEST_F(KernelFolder, MissingIncludedFileIsNamedWithWhatToCopy)
{
    // A folder copied without border.cl: the driver's compiler would say only "file not found".
    std::filesystem::remove(folder_ / "border.cl");
    try {
        build_program(test_context(), "coordinates.cl", "-DBORDER_NONE", folder_);
        FAIL() << "a missing included file should be refused";
    } catch (const BuildError&) {
        FAIL() << "a missing included file should be refused before compiling";
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("cannot open kernel file '" + (folder_ / "border.cl").string() +
                               "' (#include'd by coordinates.cl)"),
                  std::string::npos)
            << message;
        EXPECT_NE(message.find("copy the .cl files"), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
    }
}

TEST_F(KernelFolder, DirectoryIsNotAKernelFile)
{
    std::filesystem::create_directory(folder_ / "directory.cl");
    try {
        build_program(test_context(), "directory.cl", "-DBORDER_NONE", folder_);
        FAIL() << "a directory should be refused as a kernel file";
    } catch (const BuildError&) {
        FAIL() << "a directory should be refused before compiling";
    } catch (const std::runtime_error& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("is a directory"), std::string::npos) << message;
        EXPECT_NE(message.find("directory.cl"), std::string::npos) << message;
    }
}

TEST_F(KernelFolder, CompileErrorNamesTheFileAndTheLine)
{
    if (on_oclgrind()) GTEST_SKIP() << "oclgrind ignores #line in its messages";
    std::ofstream(folder_ / "broken.cl")
        << "#include \"border.cl\"\n\n"
           "__kernel void broken(__global int* out) { *out = oops; }\n";
    try {
        build_program(test_context(), "broken.cl", "-DBORDER_NONE", folder_);
        FAIL() << "an undeclared name should fail the build";
    } catch (const BuildError& error) {
        EXPECT_NE(std::string(error.what()).find((folder_ / "broken.cl").string()),
                  std::string::npos)
            << error.what();
        // The line from #line: PoCL honours it; NVIDIA's compiler ignores it and says
        // "<kernel>:4" (the source's own line 4, after the #line), so the file's name is in
        // what() but the log has only its line.
        if (error.log().find("<kernel>:") != std::string::npos)
            EXPECT_NE(error.log().find("<kernel>:4:"), std::string::npos) << error.log();
        else
            EXPECT_NE(error.log().find("broken.cl:3"), std::string::npos) << error.log();
    }
}

}  // namespace
}  // namespace sdk
