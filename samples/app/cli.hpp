// SPDX-License-Identifier: Apache-2.0
#pragma once
// The command line every sample shares: the common options added to its own, and run_sample, which
// parses them and runs the sample's body once, or once per photo of a batch (batch.hpp).
#include "samples/app/common_options.hpp"
#include "samples/app/messages.hpp"
#include "samples/app/option_values.hpp"
#include "common/runtime/device.hpp"
#include "common/runtime/errors.hpp"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace sdk {

// Whether a sample offers --border: not where the border is fixed by the technique.
enum class BorderOption { offered, not_offered };

void add_common_options(CLI::App& app, CommonOptions& options,
                        BorderOption border = BorderOption::offered);

// Only -p, -d and -t, the device's choice (part of the common options).
void add_device_options(CLI::App& app, DeviceSelection& selection);

// Parses the command line, handles --help and --list-devices, then runs the sample's body: once,
// or with several inputs or a folder once per photo (run_batch, samples/app/batch.hpp).
// Every failure becomes one line on stderr, "<sample>: <what and why>", and an exit status:
// 0 success, 2 usage error, 1 anything else. A kernel build failure also prints the build log.
int run_sample(CLI::App& app, int argc, char** argv, CommonOptions& options,
               const SampleBody& body);
// The same for a body that takes no options (it reads the ones it captured): one image only.
int run_sample(CLI::App& app, int argc, char** argv, CommonOptions& options,
               const std::function<void()>& body);

}  // namespace sdk
