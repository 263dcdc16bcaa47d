#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# A folder of photos over several machines: each machine gets a share of the photos and runs ONE
# batch of the sample over it (`sample -i share -o folder`, docs/whole_run.md), handed out by
# GNU parallel's --sshlogin (Debian: parallel, on every machine). The results go into one folder.
#
#   scripts/batch-over-machines.sh -S LOGINS INPUT_FOLDER OUTPUT_FOLDER SAMPLE [SAMPLE OPTIONS...]
#
# LOGINS is parallel's --sshlogin list: `host1,user@host2,2/host3` (two batches on host3, each
# with its share), `:` for this machine; -S may be repeated. Every machine must see the input
# and output folders and the sample at the same paths: a shared filesystem (NFS, say), or this
# machine alone. That is the only way supported: files are not copied with --transferfile.
#
# The same rules as one batch: the photos are the folder's BMP, PNG and JPEG files in name order
# (dot files, sub-folders and other files left out); two photos with one stem, or a result that
# would replace an input, are refused before anything runs (exit 2); each result is written whole
# or not at all; a batch that fails is named with its machine and the photos it did not write
# (exit 1); inputs are never written.
set -euo pipefail

name=batch-over-machines
usage() {
  echo "$name: $* (usage: $0 -S LOGINS INPUT_FOLDER OUTPUT_FOLDER SAMPLE [SAMPLE OPTIONS...])" >&2
  exit 2
}

# ----- 1. The command line ------------------------------------------------------------------------
logins=()
while (( $# > 0 )); do
  case "$1" in
    -S | --sshlogin)
      (( $# >= 2 )) || usage "$1 needs a list of machines"
      logins+=("$2")
      shift 2 ;;
    --sshlogin=*) logins+=("${1#*=}"); shift ;;
    -h | --help) sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --) shift; break ;;
    -*) usage "unknown option $1" ;;
    *) break ;;
  esac
done
(( ${#logins[@]} > 0 )) || usage "-S: no machines given (':' is this machine)"
(( $# >= 3 )) || usage "an input folder, an output folder and a sample are needed"
input=$1 output=$2 sample=$3
shift 3
options=("$@")
if ! command -v parallel > /dev/null; then
  echo "$name: GNU parallel is not installed (Debian: parallel)" >&2
  exit 1
fi
[[ -d "$input" ]] || usage "$input is not a folder"
[[ ! -e "$output" || -d "$output" ]] || usage "$output is a file; the results go into a folder"
[[ -x "$sample" && ! -d "$sample" ]] || usage "$sample is not an executable sample"
format=png
for (( i = 0; i < ${#options[@]}; ++i )); do
  case "${options[i]}" in
    -i | --input | -i* | --input=* | -o | --output | -o* | --output=*)
      usage "${options[i]}: the script gives each batch its -i and -o" ;;
    --output-format) format=${options[i + 1]:-} ;;
    --output-format=*) format=${options[i]#*=} ;;
  esac
done
[[ "${format,,}" == bmp ]] && extension=bmp || extension=png
# Absolute paths: a remote shell starts in the home folder.
input=$(realpath -- "$input")
output=$(realpath -m -- "$output")
sample=$(realpath -- "$sample")

# Each sshlogin is one batch, or N with N/ before it. parallel runs as many jobs on a machine as
# its CPUs (-j 100%), so an sshlogin without N/ is given 1/: one batch a machine, which uses every
# core itself. parallel merges an sshlogin given twice, so that is refused.
slots=() machines=()
IFS=, read -r -a entries <<< "$(IFS=,; echo "${logins[*]}")"
for entry in "${entries[@]}"; do
  [[ -n "$entry" ]] || continue
  [[ "$entry" != @* && "$entry" != .. && "$entry" != - ]] \
    || usage "-S $entry: host groups and sshlogin files are not supported; list the machines"
  count=1 machine=$entry
  if [[ "$entry" =~ ^([0-9]+)/(.+)$ ]]; then
    count=$((10#${BASH_REMATCH[1]})) machine=${BASH_REMATCH[2]}
  fi
  (( count >= 1 )) || usage "-S $entry: no batches on that machine"
  for known in "${machines[@]}"; do
    [[ "$known" != "$machine" ]] \
      || usage "-S: $machine is given twice; write $((count + 1))/$machine instead"
  done
  machines+=("$machine")
  slots+=("$count/$machine")
done
(( ${#machines[@]} > 0 )) || usage "-S: no machines given (':' is this machine)"

# ----- 2. The photos, and what each becomes -------------------------------------------------------
# A photo is known by its first bytes, as the sample knows it: BM, PNG's signature, or FF D8 FF.
is_photo() {
  local magic
  magic=$(head -c 4 -- "$1" 2> /dev/null | od -An -tx1 | tr -d ' \n') || return 1
  [[ "$magic" == 424d* || "$magic" == 89504e47 || "$magic" == ffd8ff* ]]
}
photos=()
declare -A by_stem=() taken=()
shopt -s nullglob
for path in "$input"/*; do  # name order (the locale's); the glob leaves dot files out
  if [[ ! -f "$path" ]] || ! is_photo "$path"; then continue; fi
  [[ "$path" != *$'\n'* ]] \
    || usage "a photo's name holds a line break, which the shares cannot list: $(printf %q "$path")"
  photos+=("$path")
  [[ -L "$path" ]] || taken[$(realpath -- "$path")]=${path##*/}
done
kept=()
for path in "${photos[@]}"; do
  base=${path##*/}
  if [[ -L "$path" ]]; then
    real=$(realpath -- "$path")
    # A link to another photo of the folder is that photo again: left out, as a batch leaves it.
    [[ -z "${taken[$real]:-}" ]] || continue
    taken[$real]=$base
  fi
  stem=${base%.*}
  [[ -n "$stem" ]] || stem=$base
  if [[ -n "${by_stem[$stem]:-}" ]]; then
    usage "${by_stem[$stem]} and $base would both be written as $stem.$extension" \
          "(one stem, one result)"
  fi
  by_stem[$stem]=$base
  result="$output/$stem.$extension"
  if [[ -e "$result" && "$(realpath -- "$result")" == "$(realpath -- "$path")" ]]; then
    usage "$result would replace the input $path"
  fi
  kept+=("$path")
done
photos=("${kept[@]}")
if (( ${#photos[@]} == 0 )); then
  echo "$name: $input is a folder with no BMP, PNG or JPEG file in it" >&2
  exit 1
fi

# ----- 3. The shares: about the same bytes each, the largest photos handed out first --------------
shares=0
for slot in "${slots[@]}"; do shares=$(( shares + ${slot%%/*} )); done
(( shares <= ${#photos[@]} )) || shares=${#photos[@]}
declare -a share_bytes share_list
for (( s = 0; s < shares; ++s )); do share_bytes[s]=0; share_list[s]=""; done
# Each line split at its first tab by hand: `IFS=$'\t' read` would strip a tab that ends a name.
while IFS= read -r line; do
  bytes=${line%%$'\t'*} path=${line#*$'\t'}
  lightest=0
  for (( s = 1; s < shares; ++s )); do
    (( share_bytes[s] < share_bytes[lightest] )) && lightest=$s
  done
  share_bytes[lightest]=$(( share_bytes[lightest] + bytes ))
  share_list[lightest]+="$path"$'\n'
done < <(for path in "${photos[@]}"; do
           printf '%s\t%s\n' "$(stat -L -c %s -- "$path")" "$path"
         done | sort -t$'\t' -k1,1nr -k2)

# ----- 4. One batch a share, over the machines ----------------------------------------------------
made_output=0
[[ -d "$output" ]] || { mkdir -p -- "$output"; made_output=1; }
# Each batch reads a folder of links to its share's photos: a batch of one photo is still a batch
# (`-i photo -o folder` would be a single run), and no command line grows with the photos. The
# folders lie in the output folder, where every machine sees them; a batch leaves dot files out.
shares_dir="$output/.$name.$$"
work=$(mktemp -d)
trap 'rm -rf -- "$work" "$shares_dir"' EXIT
mkdir -- "$shares_dir"
touch -- "$shares_dir/started"  # results newer than this were written by this run
for (( s = 0; s < shares; ++s )); do
  mkdir -- "$shares_dir/$s"
  mapfile -t share <<< "${share_list[s]%$'\n'}"
  for path in "${share[@]}"; do ln -s -- "$path" "$shares_dir/$s/${path##*/}"; done
  # One line a batch, quoted for the shell that runs it (bash on every machine).
  printf '%q ' "$sample" "${options[@]}" -i "$shares_dir/$s" -o "$output" >> "$work/commands"
  printf '\n' >> "$work/commands"
done
echo "$name: ${#photos[@]} photos in $shares batches over ${#machines[@]} machines" >&2
status=0
PARALLEL_SHELL=bash parallel --will-cite --sshlogin "$(IFS=,; echo "${slots[*]}")" --jobs 100% \
  --joblog "$work/jobs" < "$work/commands" || status=$?

# ----- 5. What each batch did ---------------------------------------------------------------------
failed=0 refused=0
while IFS=$'\t' read -r seq machine _ _ _ _ exit_status signal _; do
  [[ "$seq" =~ ^[0-9]+$ ]] || continue
  (( exit_status != 0 || signal != 0 )) || continue
  failed=$(( failed + 1 ))
  (( exit_status == 2 )) && refused=$(( refused + 1 ))
  missing=()
  mapfile -t share <<< "${share_list[seq - 1]%$'\n'}"
  for path in "${share[@]}"; do
    base=${path##*/}
    stem=${base%.*}
    [[ -n "$stem" ]] || stem=$base
    [[ "$output/$stem.$extension" -nt "$shares_dir/started" ]] || missing+=("$base")
  done
  how="exit status $exit_status"
  (( signal == 0 )) || how="signal $signal"
  echo "$name: the batch on $machine ended with $how; not written: ${missing[*]:-none}" >&2
done < "$work/jobs"
# parallel's own failure (a machine that could not be reached counts as a failed job, 255).
if (( failed == 0 && status != 0 )); then
  echo "$name: GNU parallel failed (exit status $status)" >&2
  failed=1
fi
rm -rf -- "$shares_dir"
if (( made_output )) && [[ -z "$(ls -A -- "$output")" ]]; then rmdir -- "$output"; fi
(( failed == 0 )) && exit 0
(( refused == shares )) && exit 2
exit 1
