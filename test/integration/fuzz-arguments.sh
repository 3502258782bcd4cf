#!/bin/sh
# The differential fuzzer checks every argument before anything runs (issue 49,
# item 16): each bad one is one usage error and exit code 2, never a Python
# traceback or a run that tests nothing and passes.
# Usage: fuzz-arguments.sh PYTHON FUZZ.PY SIMT-BUILD KERNEL-TIDY
python=$1
fuzz=$2
build=$3
tool=$4
failed=0

# expect TEXT ARGS...: exit code 2 and TEXT in the output, no traceback.
expect() {
  text=$1
  shift
  out=$("$python" "$fuzz" "$@" 2>&1)
  code=$?
  if [ "$code" -ne 2 ] || ! printf '%s\n' "$out" | grep -qF -- "$text" ||
     printf '%s\n' "$out" | grep -q 'Traceback'; then
    echo "FAILED: $* -> exit $code, expected 2 and '$text':"
    printf '%s\n' "$out" | head -20
    failed=1
  fi
}

good="--simt-build $build --kernel-tidy $tool"
expect "unknown mutation 'no-such-mutation'" $good --mutate no-such-mutation
expect "unknown mutation 'bogus'" $good --mutate butterfly-drops-a-lane,bogus
expect "--expect-failure needs --mutate" $good --expect-failure
expect "--count must be at least 1, not 0" $good --count 0
expect "--runs must be at least 1, not -1" $good --runs -1
expect "--warp-size" $good --warp-size 12
expect "unknown rule 'nope'" $good --rules nope
expect "--kernel-tidy: '/nonexistent/kernel-tidy' is not an executable file" \
  --simt-build "$build" --kernel-tidy /nonexistent/kernel-tidy
expect "--simt-build: '/nonexistent/simt' is not a CMake build folder" \
  --simt-build /nonexistent/simt --kernel-tidy "$tool"
expect "invalid int value" $good --count abc
[ -e /nonexistent/simt ] && { echo "FAILED: a folder was made for a bad --simt-build"; failed=1; }
exit $failed
