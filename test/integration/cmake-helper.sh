#!/bin/sh
# Builds the lint target that integration/ci/KernelTidy.cmake adds to a tiny
# project: it must fail on a finding, pass on clean code, and pass the
# target's compile definitions and include directories to kernel-tidy (the
# sources only parse with them).
# Usage: cmake-helper.sh SOURCE_DIR KERNEL_TIDY_BINARY CMAKE
set -eu
src=$1 binary=$2 cmake=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/project/include"
cat > "$work/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(tiny CXX)
include("$src/integration/ci/KernelTidy.cmake")
add_library(kernels OBJECT kernels.cpp)
target_compile_definitions(kernels PRIVATE FROM_TARGET=1)
target_include_directories(kernels PRIVATE include)
set_target_properties(kernels PROPERTIES CXX_STANDARD 20)
kernel_tidy_lint(kernels)
CMAKE
echo 'struct FromIncludeDirectory {};' > "$work/project/include/tiny.h"
needs_flags='#include "tiny.h"
#ifndef FROM_TARGET
#error needs the target definition
#endif'

fail() { cat "$work/lint.log"; echo "FAIL: $1"; exit 1; }
lint() { "$cmake" --build "$work/build" --target "$1" > "$work/lint.log" 2>&1; }

{ echo "$needs_flags"; python3 "$src/scripts/fixture-input" "$src/test/fixtures/luisa-butterfly-reduction/max-straight-line.cpp"; } \
  > "$work/project/kernels.cpp"
"$cmake" -S "$work/project" -B "$work/build" -DKERNEL_TIDY_EXECUTABLE="$binary" > "$work/lint.log" 2>&1 \
  || fail "configure"
if lint kernels_kernel_tidy; then fail "the lint target passed on a finding"; fi
grep -q "kernels.cpp:16:9: warning: .*\[luisa-butterfly-reduction\]" "$work/lint.log" \
  || fail "the finding is not shown"
echo "ok: the lint target fails on a finding"

{ echo "$needs_flags"; echo 'int clean() { return 0; }'; } > "$work/project/kernels.cpp"
lint kernels_kernel_tidy || fail "the lint target failed on clean code"
echo "ok: the lint target passes on clean code, with the target's flags"
lint kernel_tidy_lint_all || fail "kernel_tidy_lint_all"
echo "ok: kernel_tidy_lint_all"
