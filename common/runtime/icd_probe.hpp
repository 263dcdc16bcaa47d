// SPDX-License-Identifier: Apache-2.0
#pragma once
#include <string>

namespace sdk {

// Why the OpenCL ICD loader found no platform, in one line starting "no OpenCL platform found".
// The loader says nothing of what failed, so its steps are repeated here: the .icd files in
// OCL_ICD_VENDORS (a folder or one file) or /etc/OpenCL/vendors, each held open while the one
// after it is read, as the loader does, and each file's driver library dlopen'ed. A driver that
// is installed but cannot be opened (out of file descriptors, an address-space limit too small
// for its libraries) is named as such, not as a driver to install.
std::string explain_missing_platform();

}  // namespace sdk
