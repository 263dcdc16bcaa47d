// SPDX-License-Identifier: Apache-2.0
// NVIDIA's own library doing our filters' jobs, for the side-by-side on an NVIDIA GPU
// (scripts/compare-gpu-libraries.sh builds and runs it; it needs the CUDA toolkit's NPP, so it is
// not part of the CMake build). Each case is timed with CUDA events around one call, warmed up,
// repeated, and reported as the median, like bench's OpenCL profiling events:
//   fir KxK    nppiFilterBorder_32f_C1R (replicate border), the float image in, float out
//   dilate WxH nppiDilateBorder_8u_C1R on a 0/255 image (NPP has no packed binary images)
//   copy       cudaMemcpy device to device, the memory's own speed in the same run
// Output: one JSON object a line, {"case": ..., "size": "WxH", "median_ms": ..., "bytes": ...}.
#include <cuda_runtime.h>
#include <npp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

void check_cuda(cudaError_t status, const char* what)
{
    if (status == cudaSuccess) return;
    std::fprintf(stderr, "npp_filters: %s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
}

void check_npp(NppStatus status, const char* what)
{
    if (status == NPP_SUCCESS) return;
    std::fprintf(stderr, "npp_filters: %s failed with NPP status %d\n", what, int(status));
    std::exit(1);
}

int attribute(cudaDeviceAttr which, int device)
{
    int value = 0;
    check_cuda(cudaDeviceGetAttribute(&value, which, device), "cudaDeviceGetAttribute");
    return value;
}

// NPP 13 has only the *_Ctx functions: the stream and the device's limits are passed in.
NppStreamContext stream_context(cudaStream_t stream)
{
    int device = 0;
    check_cuda(cudaGetDevice(&device), "cudaGetDevice");
    NppStreamContext context{};
    context.hStream = stream;
    context.nCudaDeviceId = device;
    context.nMultiProcessorCount = attribute(cudaDevAttrMultiProcessorCount, device);
    context.nMaxThreadsPerMultiProcessor =
        attribute(cudaDevAttrMaxThreadsPerMultiProcessor, device);
    context.nMaxThreadsPerBlock = attribute(cudaDevAttrMaxThreadsPerBlock, device);
    context.nSharedMemPerBlock =
        static_cast<size_t>(attribute(cudaDevAttrMaxSharedMemoryPerBlock, device));
    context.nCudaDevAttrComputeCapabilityMajor =
        attribute(cudaDevAttrComputeCapabilityMajor, device);
    context.nCudaDevAttrComputeCapabilityMinor =
        attribute(cudaDevAttrComputeCapabilityMinor, device);
    check_cuda(cudaStreamGetFlags(stream, &context.nStreamFlags), "cudaStreamGetFlags");
    return context;
}

// The median of `repetitions` timed calls of `call`, after `warm_up` untimed ones.
double median_ms(cudaStream_t stream, int repetitions, const std::function<void()>& call)
{
    cudaEvent_t start, stop;
    check_cuda(cudaEventCreate(&start), "cudaEventCreate");
    check_cuda(cudaEventCreate(&stop), "cudaEventCreate");
    for (int i = 0; i < 3; ++i) call();
    std::vector<float> times;
    for (int i = 0; i < repetitions; ++i) {
        check_cuda(cudaEventRecord(start, stream), "cudaEventRecord");
        call();
        check_cuda(cudaEventRecord(stop, stream), "cudaEventRecord");
        check_cuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
        float ms = 0;
        check_cuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
        times.push_back(ms);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

void report(const std::string& name, int width, int height, double ms, double bytes)
{
    std::printf("{\"case\": \"%s\", \"size\": \"%dx%d\", \"median_ms\": %.5f, \"bytes\": %.0f}\n",
                name.c_str(), width, height, ms, bytes);
    std::fflush(stdout);
}

// A device image of `T` with random contents (0/255 for the binary images morphology takes).
template <typename T>
T* random_image(int width, int height, size_t* pitch, bool binary)
{
    std::vector<T> host(size_t(width) * height);
    std::mt19937 random(42);
    for (T& value : host) value = binary ? T((random() & 1) ? 255 : 0) : T(random() % 256);
    T* device = nullptr;
    check_cuda(cudaMallocPitch(reinterpret_cast<void**>(&device), pitch, width * sizeof(T), height),
               "cudaMallocPitch");
    check_cuda(cudaMemcpy2D(device, *pitch, host.data(), width * sizeof(T), width * sizeof(T),
                            height, cudaMemcpyHostToDevice),
               "cudaMemcpy2D");
    return device;
}

}  // namespace

int main(int argc, char** argv)
{
    const int width = argc > 1 ? std::atoi(argv[1]) : 16384;
    const int height = argc > 2 ? std::atoi(argv[2]) : width;
    const int repetitions = argc > 3 ? std::atoi(argv[3]) : 20;
    cudaStream_t stream;
    check_cuda(cudaStreamCreate(&stream), "cudaStreamCreate");
    const NppStreamContext context = stream_context(stream);
    const NppiSize size{width, height};
    const double pixels = double(width) * height;

    // The memory's speed: a device-to-device copy of the float image, bytes read plus written.
    size_t float_pitch = 0, output_pitch = 0;
    float* source = random_image<float>(width, height, &float_pitch, false);
    float* output = random_image<float>(width, height, &output_pitch, false);
    const double copy_ms = median_ms(stream, repetitions, [&] {
        check_cuda(
            cudaMemcpyAsync(output, source, float_pitch * height, cudaMemcpyDeviceToDevice, stream),
            "cudaMemcpyAsync");
    });
    report("copy", width, height, copy_ms, 2.0 * float_pitch * height);

    // KxK float convolution, replicate border, each weight 1/(K*K).
    for (int k : {3, 5, 7, 9, 15}) {
        std::vector<float> weights(size_t(k) * k, 1.0f / float(k * k));
        float* device_weights = nullptr;
        check_cuda(cudaMalloc(reinterpret_cast<void**>(&device_weights), weights.size() * 4),
                   "cudaMalloc");
        check_cuda(
            cudaMemcpy(device_weights, weights.data(), weights.size() * 4, cudaMemcpyHostToDevice),
            "cudaMemcpy");
        const double ms = median_ms(stream, repetitions, [&] {
            check_npp(nppiFilterBorder_32f_C1R_Ctx(source, int(float_pitch), size, {0, 0}, output,
                                                   int(output_pitch), size, device_weights, {k, k},
                                                   {k / 2, k / 2}, NPP_BORDER_REPLICATE, context),
                      "nppiFilterBorder_32f_C1R");
        });
        report("fir " + std::to_string(k) + "x" + std::to_string(k), width, height, ms, 8 * pixels);
        cudaFree(device_weights);
    }
    cudaFree(source);
    cudaFree(output);

    // Dilation of a 0/255 image by a full rectangle.
    size_t byte_pitch = 0, byte_output_pitch = 0;
    unsigned char* binary = random_image<unsigned char>(width, height, &byte_pitch, true);
    unsigned char* dilated = random_image<unsigned char>(width, height, &byte_output_pitch, true);
    for (int k : {3, 31}) {
        const std::vector<unsigned char> mask(size_t(k) * k, 1);
        unsigned char* device_mask = nullptr;
        check_cuda(cudaMalloc(reinterpret_cast<void**>(&device_mask), mask.size()), "cudaMalloc");
        check_cuda(cudaMemcpy(device_mask, mask.data(), mask.size(), cudaMemcpyHostToDevice),
                   "cudaMemcpy");
        const double ms = median_ms(stream, repetitions, [&] {
            check_npp(nppiDilateBorder_8u_C1R_Ctx(binary, int(byte_pitch), size, {0, 0}, dilated,
                                                  int(byte_output_pitch), size, device_mask, {k, k},
                                                  {k / 2, k / 2}, NPP_BORDER_REPLICATE, context),
                      "nppiDilateBorder_8u_C1R");
        });
        report("dilate " + std::to_string(k) + "x" + std::to_string(k), width, height, ms,
               2 * pixels);
        cudaFree(device_mask);
    }
    cudaFree(binary);
    cudaFree(dilated);
    cudaStreamDestroy(stream);
    return 0;
}
