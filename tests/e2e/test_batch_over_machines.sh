#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# scripts/batch-over-machines.sh on this machine alone, through GNU parallel's local mode
# (-S 2/:, two batches here) and through its remote path with a stand-in for ssh: the results are
# the very files one batch over the whole folder writes, the inputs are left as they were, and a
# failure or a refusal is named and ends with the batch's exit status. Skipped (exit 77) when
# parallel is not installed.
#
#   tests/e2e/test_batch_over_machines.sh SOURCE_DIR BIN_DIR
set -euo pipefail
root=$1 bin=$2
if ! command -v parallel > /dev/null; then
  echo "skipped: GNU parallel is not installed (Debian: parallel)"
  exit 77
fi
script=$root/scripts/batch-over-machines.sh
work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Five small photos of three kinds, and files a batch leaves out.
photos=$work/photos
mkdir "$photos"
"${PYTHON:-python3}" "$root/scripts/make_test_image.py" 40 30 "$photos/a.bmp" > /dev/null
"${PYTHON:-python3}" "$root/scripts/make_test_image.py" 17 9 "$photos/b photo.bmp" > /dev/null
"${PYTHON:-python3}" "$root/scripts/make_test_image.py" 64 48 "$photos/c.bmp" > /dev/null
"$bin/sobel" -q -i "$photos/c.bmp" -o "$photos/d.png"
"$bin/sobel" -q -i "$photos/a.bmp" -o "$photos/e.png"
echo "not a photo" > "$photos/notes.txt"
cp "$photos/a.bmp" "$photos/.hidden.bmp"
mkdir "$photos/sub"
(cd "$photos" && find . -type f -exec md5sum {} + | sort) > "$work/inputs.md5"
inputs_unchanged() {
  (cd "$photos" && find . -type f -exec md5sum {} + | sort) | cmp -s - "$work/inputs.md5" \
    || fail "$1: an input changed"
}

# 1. Two batches here give what one batch over the folder gives, byte for byte.
"$bin/sobel" -q -i "$photos" -o "$work/one-batch"
status=0
"$script" -S 2/: "$photos" "$work/out" "$bin/sobel" -q 2> "$work/err" || status=$?
(( status == 0 )) || { cat "$work/err"; fail "two batches: exit status $status"; }
grep -q "5 photos in 2 batches over 1 machines" "$work/err" \
  || { cat "$work/err"; fail "not two batches"; }
diff -r "$work/one-batch" "$work/out" > /dev/null \
  || fail "two batches: results differ from one batch's"
inputs_unchanged "two batches"

# Three batches over five photos, one of them a share of one photo: a batch too (`-i photo -o
# folder` would be a single run).
status=0
"$script" -S 3/: "$work/one-batch" "$work/out-one" "$bin/sobel" -q --output-format bmp \
  2> "$work/err" || status=$?
(( status == 0 )) || { cat "$work/err"; fail "three batches: exit status $status"; }
[[ $(find "$work/out-one" -name '*.bmp' | wc -l) == 5 && -z $(find "$work/out-one" -name '.*') ]] \
  || fail "three batches: not five results alone"

# Through parallel's remote path (its worker sent over "ssh"): an ssh command that runs here what
# ssh would run on the host, into a folder whose name a shell must quote.
cat > "$work/local-ssh" << 'EOF'
#!/usr/bin/env bash
while [[ "$1" == -* ]]; do shift; done  # ssh's options, then the host
shift
[[ "${1:-}" == -- ]] && shift
exec bash -c "$*"  # as sshd does: the words joined, parsed by the login shell
EOF
chmod +x "$work/local-ssh"
status=0
"$script" -S "2/$work/local-ssh remote" "$photos" "$work/out 'remote'" "$bin/sobel" -q \
  2> "$work/err" || status=$?
(( status == 0 )) || { cat "$work/err"; fail "over ssh: exit status $status"; }
diff -r "$work/one-batch" "$work/out 'remote'" > /dev/null || fail "over ssh: results differ"

# Names that end in tabs or spaces, beside the name without them: each its own photo and result
# (tabs at the end were stripped, and the second photo became the first, never written).
blanks=("" $'\t' " " $'\t\t' $' \t')
mkdir "$work/blanks"
for blank in "${blanks[@]}"; do cp "$photos/a.bmp" "$work/blanks/t$blank"; done
status=0
"$script" -S 2/: "$work/blanks" "$work/out-blanks" "$bin/sobel" -q 2> "$work/err" || status=$?
(( status == 0 )) || { cat "$work/err"; fail "names ending in blanks: exit status $status"; }
for blank in "${blanks[@]}"; do
  [[ -f "$work/out-blanks/t$blank.png" ]] \
    || fail "names ending in blanks: $(printf %q "t$blank.png") not written"
done

# 2. A photo that cannot be read: the others written, the bad one named, exit status 1.
printf '\xff\xd8\xff\xe0 not a JPEG' > "$work/bad.jpg"
cp -r "$photos" "$work/with-bad" && cp "$work/bad.jpg" "$work/with-bad/bad.jpg"
status=0
"$script" -S 2/: "$work/with-bad" "$work/out-bad" "$bin/sobel" -q 2> "$work/err" || status=$?
(( status == 1 )) || { cat "$work/err"; fail "a bad photo: exit status $status, not 1"; }
grep -q "not written: bad.jpg$" "$work/err" || { cat "$work/err"; fail "a bad photo: not named"; }
diff -r "$work/one-batch" "$work/out-bad" > /dev/null \
  || fail "a bad photo: the others not all written"

# 3. A machine that fails (an ssh command that cannot connect): its photos named, exit status 1.
status=0
"$script" -S ':,1//bin/false nowhere' "$photos" "$work/out-lost" "$bin/sobel" -q 2> "$work/err" \
  || status=$?
(( status == 1 )) || { cat "$work/err"; fail "a lost machine: exit status $status, not 1"; }
grep -q "the batch on /bin/false nowhere ended with exit status 1; not written: ." "$work/err" \
  || { cat "$work/err"; fail "a lost machine: not named with its photos"; }

# 4. Refused before anything runs (exit status 2), the output folder not made: two photos with
#    one stem, a result that would replace an input, no machines, an -o of the sample's own.
cp -r "$photos" "$work/same-stem" && cp "$photos/d.png" "$work/same-stem/a.png"
refused() {
  local what=$1 out=$2
  shift 2
  status=0
  "$script" "$@" 2> "$work/err" || status=$?
  (( status == 2 )) || { cat "$work/err"; fail "$what: exit status $status, not 2"; }
  [[ $(wc -l < "$work/err") == 1 ]] || { cat "$work/err"; fail "$what: not one line"; }
  [[ ! -e "$out" ]] || fail "$what: $out made"
}
refused "one stem" "$work/out-stem" -S : "$work/same-stem" "$work/out-stem" "$bin/sobel"
grep -q "a.bmp and a.png would both be written as a.png" "$work/err" || fail "one stem: not named"
before=$(md5sum < "$photos/d.png")
refused "replace an input" "$work/none" -S 2/: "$photos" "$photos" "$bin/sobel"
grep -q "d.png would replace the input" "$work/err" || fail "replace an input: not named"
[[ $(md5sum < "$photos/d.png") == "$before" ]] || fail "replace an input: d.png written"
refused "no machines" "$work/out-none" "$photos" "$work/out-none" "$bin/sobel"
refused "-o given" "$work/out-o" -S : "$photos" "$work/out-o" "$bin/sobel" -o x
inputs_unchanged "refusals"
echo "batch-over-machines: all cases passed"
