#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What the installed folder (`cmake --install`, docs/board.md) asks of the machine it runs on:
# every ELF file in it may need only the C library's own shared libraries and libOpenCL.so.1
# (readelf -d: NEEDED), and no symbol version of the C library newer than GLIBC_2.34 (readelf -V
# and --dyn-syms: the table `objdump -T` prints), so that one folder runs on Debian 12 (glibc 2.36)
# and Ubuntu 22.04 (2.35) boards alike. Prints one line per problem, naming the file and the
# symbols, and exits 1; else one line that says what the folder needs, exit 0.
# readelf reads any architecture's ELF files, so the same check serves the aarch64 bundle on an
# x86-64 host (scripts/board-sim.sh) and the native one (CTest's bundle_libraries).
# Usage: scripts/check-bundle-libraries.sh FOLDER [--glibc 2.34] [--allow LIBRARY]...
#        scripts/check-bundle-libraries.sh --install BUILD [...]   (checks what
#        `cmake --install BUILD` installs, in a temporary folder)
#   --allow LIBRARY   another library a NEEDED entry may name (a build that links libpng
#                     and the others dynamically: CTest passes them when SDK_PORTABLE_BUNDLE is OFF)
set -euo pipefail
usage() {
  echo "usage: scripts/check-bundle-libraries.sh FOLDER|--install BUILD [--glibc 2.34] [--allow LIBRARY]..." >&2
  exit 2
}
(( $# >= 1 )) || usage
if [[ $1 == --install ]]; then
  (( $# >= 2 )) || usage
  folder=$(mktemp -d "${TMPDIR:-/tmp}/sdk-bundle-libraries-XXXXXX")
  trap 'rm -rf "$folder"' EXIT
  cmake --install "$2" --prefix "$folder" > /dev/null
  shift 2
else
  folder=$1
  shift
fi
newest_glibc=2.34
# glibc's own libraries (the loader is PT_INTERP, but a NEEDED entry may name it too) and the
# OpenCL ICD loader, which the board's driver package brings.
allowed=(libc.so.6 libm.so.6 libpthread.so.0 libdl.so.2 librt.so.1
         ld-linux-aarch64.so.1 ld-linux-x86-64.so.2 libOpenCL.so.1)
while (( $# > 0 )); do
  case $1 in
    --glibc) (( $# >= 2 )) || usage; newest_glibc=$2; shift 2 ;;
    --allow) (( $# >= 2 )) || usage; allowed+=("$2"); shift 2 ;;
    *) usage ;;
  esac
done
if [[ ! -d $folder ]]; then
  echo "check-bundle-libraries: $folder is not a folder" >&2
  exit 2
fi

# GLIBC_2.34 -> 2034, for comparing versions as numbers.
version_number() { awk -F. '{ printf "%d\n", $1 * 1000 + $2 }' <<< "$1"; }
limit=$(version_number "$newest_glibc")

problems=0 binaries=0 newest_seen=0
needed_seen=()
while IFS= read -r -d '' file; do
  [[ $(head -c 4 "$file" | od -An -c | tr -d ' ') == 177ELF ]] || continue
  binaries=$((binaries + 1))
  name=${file#"$folder"/}
  while read -r library; do
    needed_seen+=("$library")
    if [[ " ${allowed[*]} " != *" $library "* ]]; then
      echo "check-bundle-libraries: $name needs $library, which a board need not have (link it statically, or carry it in the folder)"
      problems=$((problems + 1))
    fi
  done < <(readelf -d -W "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  # The versions it needs from each library (.gnu.version_r), e.g. "libc.so.6 GLIBC_2.34".
  while read -r library version; do
    [[ $version == GLIBC_* ]] || continue
    if [[ ! $version =~ ^GLIBC_[0-9]+\.[0-9]+ ]]; then  # GLIBC_PRIVATE: never for programs
      number=999999
    else
      number=$(version_number "${version#GLIBC_}")
    fi
    (( number > newest_seen )) && newest_seen=$number
    if (( number > limit )); then
      symbols=$(readelf --dyn-syms -W "$file" | awk -v v="@$version" 'index($8, v) { sub(/@.*/, "", $8); print $8 }' |
                sort -u | tr '\n' ' ')
      echo "check-bundle-libraries: $name needs $version from $library (newer than GLIBC_$newest_glibc): ${symbols% }"
      problems=$((problems + 1))
    fi
  done < <(readelf -V -W "$file" | awk '/File:/ { for (i = 1; i < NF; i++) if ($i == "File:") library = $(i + 1) }
                                        /Name:/ && library != "" { for (i = 1; i < NF; i++) if ($i == "Name:") print library, $(i + 1) }
                                        /^Version (symbols|definition)/ { library = "" }')
done < <(find "$folder" -type f -print0 | sort -z)

if (( binaries == 0 )); then
  echo "check-bundle-libraries: no ELF files in $folder" >&2
  exit 1
fi
if (( problems > 0 )); then
  echo "check-bundle-libraries: $folder: $problems problems in $binaries ELF files"
  exit 1
fi
needed=$(printf '%s\n' "${needed_seen[@]}" | sort -u | tr '\n' ' ')
echo "check-bundle-libraries: $folder: $binaries ELF files need ${needed% }; newest C library version GLIBC_$((newest_seen / 1000)).$((newest_seen % 1000))"
