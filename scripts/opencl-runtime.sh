# SPDX-License-Identifier: Apache-2.0
# The command line shared by the scripts that set up a second OpenCL implementation beside PoCL
# in a folder of its own (intel-opencl-cpu.sh, mesa-rusticl.sh): sourced by them, not run.
#
#   opencl_runtime NAME DIR SETUP ENVIRONMENT [--dir DIR] [--run COMMAND... | --test BUILD...]
#
# NAME prefixes its messages; DIR is the default folder (--dir replaces it); `SETUP DIR` sets the
# runtime up there once (a non-zero status if it could not); `ENVIRONMENT DIR` prints the
# settings that make the system's ICD loader see that runtime alone, one NAME=VALUE a line.
# Without --run or --test the settings are printed as export lines; with --export (what a
# `source` of the script passes) they are exported into the calling shell.
#
#   opencl_runtime_script NAME DIR SETUP ENVIRONMENT "$@"
#
# The same, as the last line of such a script, which both runs and is sourced: run, it sets
# `set -euo pipefail` and passes its arguments on; sourced, it adds --export and leaves the
# caller's shell options (set -e ...) as they were.
opencl_runtime() {
  local name=$1 dir=$2 setup=$3 environment=$4
  shift 4
  if [[ "${1:-}" == --dir ]]; then
    [[ $# -ge 2 ]] || { echo "$name: --dir needs a folder" >&2; return 2; }
    dir=$2
    shift 2
  fi
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || return 1
  "$setup" "$dir" || {
    echo "$name: setting up the runtime in $dir failed" >&2
    return 1
  }
  local settings=()
  mapfile -t settings < <("$environment" "$dir") || return 1
  case "${1:-}" in
    "")
      local setting
      for setting in "${settings[@]}"; do echo "export ${setting%%=*}='${setting#*=}'"; done
      ;;
    --export)
      export "${settings[@]}"
      ;;
    --run)
      shift
      [[ $# -ge 1 ]] || { echo "$name: --run needs a command" >&2; return 2; }
      (export "${settings[@]}" && "$@")
      ;;
    --test)
      [[ $# -ge 2 ]] || { echo "$name: --test needs a build folder" >&2; return 2; }
      local build=$2
      shift 2
      # The oclgrind tests run the kernels on oclgrind's simulator, whatever the platform: left
      # out unless CTEST_ARGS say otherwise.
      if [[ $# -eq 0 ]]; then set -- -LE oclgrind; fi
      (export "${settings[@]}" && ctest --test-dir "$build" --output-on-failure "$@")
      ;;
    *)
      echo "$name: unknown option '$1' (expected --dir, --run or --test)" >&2
      return 2
      ;;
  esac
}

opencl_runtime_script() {
  # BASH_SOURCE[1] is the script whose last line called this; $0 names it only when it was run.
  if [[ "${BASH_SOURCE[1]}" != "$0" ]]; then
    opencl_runtime "$@" --export
  else
    set -euo pipefail
    opencl_runtime "$@"
  fi
}
