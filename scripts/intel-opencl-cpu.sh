#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Intel's OpenCL runtime for x86-64 CPUs, a second OpenCL implementation beside PoCL: another
# compiler, another work-group scheduler, other limits. It runs on AMD processors too. Taken from
# the Python package registry's wheels (intel-opencl-rt, intel-cmplr-lib-rt, tbb; pinned below,
# with their hashes), unpacked into a folder of its own: nothing is installed system-wide.
#
# Usage:
#   scripts/intel-opencl-cpu.sh [--dir DIR]            set up (once) and print the environment
#   source scripts/intel-opencl-cpu.sh [--dir DIR]     set up and export it into this shell
#   scripts/intel-opencl-cpu.sh [--dir DIR] --run COMMAND [ARGS...]
#   scripts/intel-opencl-cpu.sh [--dir DIR] --test BUILD_DIR [CTEST_ARGS...]
#                                                      ctest (default: -LE oclgrind) on Intel's
#                                                      platform, the only one the tests then see
# DIR defaults to $SDK_INTEL_OPENCL_DIR, else ~/.cache/intel-opencl-cpu. A second run finds it
# set up and takes no time. Needs python3 with pip (installed with apt-get when missing).
#
# Two settings make the system's ICD loader (ocl-icd) load it:
# - OCL_ICD_VENDORS names a folder of .icd files that replaces /etc/OpenCL/vendors, so Intel's
#   platform is the only one listed and PoCL's is hidden;
# - LD_LIBRARY_PATH reaches the runtime's own libraries (TBB, the compiler's run-time).
# The wheel also carries a libOpenCL.so of its own; it is not unpacked, because with it first on
# LD_LIBRARY_PATH the samples load that loader instead, which reads neither OCL_ICD_VENDORS nor
# our .icd file and finds no platform.

intel_ocl_version=2026.2.0
intel_ocl_requirements="\
intel-opencl-rt==$intel_ocl_version --hash=sha256:6b6215a420598b4999ee01caca6d5cbe106aa4155c46c52377619c5aafce9f67
intel-cmplr-lib-rt==$intel_ocl_version --hash=sha256:9f713083073a820d2496a6da8e8d4f3482aba6640f74521d25ea48dcebe72748
tbb==2023.2.0 --hash=sha256:7d80615b6e970f11671fa05b6eaa9483ac864fbfe525ac280271a78b37870b7c"

# Downloads and unpacks into $1 unless a finished set-up of this version is there already. Every
# step says "|| return 1": `set -e` is off inside a function whose caller tests its status, and a
# failed download must never be marked complete.
intel_ocl_setup() {
  local dir=$1 root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  if [[ "$(cat "$dir/.complete" 2> /dev/null)" == "$intel_ocl_version" ]]; then return 0; fi
  if ! python3 -m pip --version > /dev/null 2>&1; then
    "$root/scripts/install-deps.sh" python3-pip || return 1
  fi
  echo "intel-opencl-cpu: downloading Intel's OpenCL CPU runtime $intel_ocl_version into $dir" >&2
  # Only what this script makes is removed: DIR may be a folder the user shares with other files.
  rm -rf "$dir/.complete" "$dir/wheels" "$dir/lib" "$dir/vendors" "$dir/requirements.txt"
  mkdir -p "$dir/wheels" "$dir/lib" "$dir/vendors" || return 1
  printf '%s\n' "$intel_ocl_requirements" > "$dir/requirements.txt" || return 1
  # --no-deps: the wheels' other requirements are a licence text (intel-cmplr-lic-rt) and TBB's
  # thread composability manager (tcmlib), which the OpenCL runtime does not load.
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --require-hashes -r "$dir/requirements.txt" -d "$dir/wheels" >&2 || return 1
  # Each wheel's libraries lie under *.data/data/lib/. A wheel stores a library's versioned names
  # (libtbb.so, .so.12, .so.12.20) as copies: all but one become links, saving some 400 MB.
  python3 - "$dir/wheels" "$dir/lib" <<'PYTHON'
import hashlib, os, sys, zipfile
wheels, lib = sys.argv[1], sys.argv[2]
first_of = {}
for wheel in sorted(os.listdir(wheels)):
    with zipfile.ZipFile(os.path.join(wheels, wheel)) as archive:
        for entry in archive.infolist():
            parts = entry.filename.split("/")
            if len(parts) != 4 or parts[1:3] != ["data", "lib"] or not parts[3]:
                continue
            name = parts[3]
            if name.startswith("libOpenCL.so"):
                continue  # the wheel's own ICD loader: see the top of this script
            content = archive.read(entry)
            digest = hashlib.sha256(content).hexdigest()
            target = os.path.join(lib, name)
            if digest in first_of:
                os.symlink(first_of[digest], target)
                continue
            first_of[digest] = name
            with open(target, "wb") as out:
                out.write(content)
            os.chmod(target, 0o755)
PYTHON
  [[ $? -eq 0 && -f "$dir/lib/libintelocl.so" ]] || return 1
  rm -rf "$dir/wheels"
  echo "$dir/lib/libintelocl.so" > "$dir/vendors/intel-cpu.icd" || return 1
  echo "$intel_ocl_version" > "$dir/.complete"
}

# The settings that make the ICD loader see this runtime alone (in the folder $1).
intel_ocl_environment() {
  echo "OCL_ICD_VENDORS=$1/vendors"
  echo "LD_LIBRARY_PATH=$1/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
}

# Run or sourced: scripts/opencl-runtime.sh's opencl_runtime_script tells which.
source "$(dirname "${BASH_SOURCE[0]}")/opencl-runtime.sh"
opencl_runtime_script intel-opencl-cpu "${SDK_INTEL_OPENCL_DIR:-${HOME:-/tmp}/.cache/intel-opencl-cpu}" \
  intel_ocl_setup intel_ocl_environment "$@"
