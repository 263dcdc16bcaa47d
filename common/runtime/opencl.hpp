// SPDX-License-Identifier: Apache-2.0
#pragma once
// The one place that includes OpenCL-CLHPP, so every file agrees on its configuration.
// OpenCL 1.2 is what embedded drivers (Mali, Adreno, PoCL) and NVIDIA's all speak; exceptions
// turn every failing call into a cl::Error that names the function, which sdk::OpenClError
// then turns into a readable line.
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_ENABLE_EXCEPTIONS
#endif
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wignored-attributes"
#endif
#include <CL/opencl.hpp>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
