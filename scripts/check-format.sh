#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Every tracked C++ and OpenCL C file (.cpp, .hpp, .cl) laid out as .clang-format says, or a
# non-zero exit naming each place that is not. clang-format 14, Debian 12's, is the one CI runs:
# another version lays a few lines out otherwise (CLANG_FORMAT names another binary).
#
#   scripts/check-format.sh          # check, change nothing
#   scripts/check-format.sh --fix    # format the files in place (a commit of its own, please)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
formatter=${CLANG_FORMAT:-clang-format-14}
if ! command -v "$formatter" > /dev/null; then "$root/scripts/install-deps.sh" clang-format-14; fi

cd "$root"
mapfile -t files < <(git ls-files '*.cpp' '*.hpp' '*.cl')
case "${1:-}" in
  --fix) "$formatter" -i "${files[@]}" ;;
  "")
    if ! "$formatter" --dry-run --Werror "${files[@]}"; then
      echo "check-format: the files above are not laid out as .clang-format says;" \
        "scripts/check-format.sh --fix formats them" >&2
      exit 1
    fi
    echo "check-format: ${#files[@]} files laid out as .clang-format says"
    ;;
  *)
    echo "check-format: unknown option '$1' (expected --fix or nothing)" >&2
    exit 2
    ;;
esac
