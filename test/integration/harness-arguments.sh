#!/bin/sh
# The GPU harness program checks every argument before anything runs (issue 49,
# item 9): each bad one is one message and exit code 2, never a stack dump, a
# run of nothing that passes, or a failure after all cases ran.
# Usage: harness-arguments.sh HARNESS SCRATCH-FOLDER
harness=$1
work=$2
rm -rf "$work" && mkdir -p "$work" || exit 1
failed=0

# expect TEXT ARGS...: exit code 2 and TEXT in the output, no stack dump.
expect() {
  text=$1
  shift
  out=$("$harness" "$@" 2>&1)
  code=$?
  if [ "$code" -ne 2 ] || ! printf '%s\n' "$out" | grep -qF -- "$text" ||
     printf '%s\n' "$out" | grep -qiE 'stack|backtrace|terminate called'; then
    echo "FAILED: $* -> exit $code, expected 2 and '$text':"
    printf '%s\n' "$out" | head -20
    failed=1
  fi
}

expect "--backend" --backend bogus
expect "--backend" --backend ""
expect "unknown case 'no_such_case'" --backend simt --cases butterfly_sum,no_such_case
expect "unknown type 'bogus'" --backend simt --types bogus
expect "--repeats" --backend simt --repeats abc
expect "--repeats" --backend simt --repeats 0
expect "--repeats" --backend simt --repeats 4294967297
expect "--seed" --backend simt --seed abc
expect "--max-seconds" --backend simt --max-seconds -1
expect "--out" --backend simt --out "$work/missing/folder"
expect "--warp-size" --warp-size 8
expect "--warp-size" --backend simt --warp-size 12
expect "the width must be" --backend simt --variants 32,48
expect "need 32-lane warps" --backend simt --variants 64/cuda-sm80
expect "'lockstep' is not one of" --backend simt --variants 32/lockstep
expect "--variants" --variants 32
expect "not with --warp-size" --backend simt --warp-size 8 --variants 32
expect "--compiled-counts" --backend simt --compiled-counts "$work/missing.json"
printf '{"archs": ["sm_80"]}\n' >"$work/not-counts.json"
expect "not a compiled-counts file" --backend simt --compiled-counts "$work/not-counts.json"

# The default backend (cuda): where LuisaCompute has none, one clear error
# before any case ran; where it has one, the run writes its results.
out=$("$harness" --cases butterfly_sum --types u32 --no-timing --out "$work" 2>&1)
code=$?
if printf '%s\n' "$out" | grep -qF "no such backend here"; then
  [ "$code" -eq 2 ] && [ ! -e "$work/results.json" ] || { echo "FAILED: default backend: exit $code: $out"; failed=1; }
elif [ ! -e "$work/results.json" ]; then
  echo "FAILED: default backend: neither a clear error nor results (exit $code):"
  printf '%s\n' "$out" | head -20
  failed=1
fi

rm -rf "$work"
[ "$failed" -eq 0 ] && echo "every bad argument was refused"
exit "$failed"
