#!/bin/sh
# Installs the build into a scratch prefix and uses it from a scratch project
# as a user would: find_package(KernelTidy) gives imported targets and
# kernel_tidy_lint(), whose target fails the build on a finding. Including
# the helper without a kernel-tidy warns and adds no lint target, unless
# REQUIRED.
# Usage: find-package.sh SOURCE_DIR BUILD_DIR CMAKE VERSION
set -eu
src=$1 build=$2 cmake=$3 version=$4
if [ "${KERNEL_TIDY_SANITIZED:-0}" = 1 ]; then
  echo "SKIPPED: the sanitized build installs the same files; the plain build runs this test"
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { cat "$work/log"; echo "FAIL: $1"; exit 1; }
generator=""
if command -v ninja >/dev/null; then generator="-G Ninja"; fi

"$cmake" --install "$build" --prefix "$work/prefix" > "$work/log" 2>&1 || fail "cmake --install"
for f in lib/cmake/KernelTidy/KernelTidyConfig.cmake lib/cmake/KernelTidy/KernelTidyConfigVersion.cmake \
         bin/kernel-tidy share/doc/kernel-tidy/user-guide.md; do
  [ -f "$work/prefix/$f" ] || fail "cmake --install wrote no $f"
done
echo "ok: cmake --install wrote the CMake package, the tools and the docs"

# $1: what the project does before its lint call (find_package or include).
project() {
  rm -rf "$work/project" "$work/b"
  mkdir -p "$work/project"
  python3 "$src/scripts/fixture-input" "$src/test/fixtures/luisa-butterfly-reduction/max-straight-line.cpp" \
    > "$work/project/kernels.cpp"
  cat > "$work/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.20)
project(scratch CXX)
$1
add_library(kernels OBJECT kernels.cpp)
set_target_properties(kernels PROPERTIES CXX_STANDARD 20)
kernel_tidy_lint(kernels ${2:-})
if(TARGET kernels_kernel_tidy)
  message(STATUS "lint target: yes")
else()
  message(STATUS "lint target: no")
endif()
CMAKE
}
configure() { "$cmake" $generator -S "$work/project" -B "$work/b" "$@" > "$work/log" 2>&1; }

project "find_package(KernelTidy $version REQUIRED)
foreach(t kernel-tidy kernel-clangd KernelTidyPlugin)
  if(NOT TARGET KernelTidy::\${t})
    message(FATAL_ERROR \"no imported target KernelTidy::\${t}\")
  endif()
endforeach()
get_target_property(exe KernelTidy::kernel-tidy LOCATION)
message(STATUS \"kernel-tidy: \${exe}\")"
configure -DCMAKE_PREFIX_PATH="$work/prefix" || fail "configure with find_package(KernelTidy)"
grep -q "kernel-tidy: $work/prefix/bin/kernel-tidy" "$work/log" || fail "KernelTidy::kernel-tidy is not the installed one"
grep -q "lint target: yes" "$work/log" || fail "no lint target"
if "$cmake" --build "$work/b" --target kernels_kernel_tidy > "$work/log" 2>&1; then
  fail "the lint target passed on a finding"
fi
grep -q "kernels.cpp:12:9: warning: .*\[luisa-butterfly-reduction\]" "$work/log" || fail "the finding is not shown"
cp "$work/log" "$work/lint.log"
echo "ok: find_package(KernelTidy $version): imported targets; the lint target fails on the finding:"
grep -E "warning:|FAILED|Error|error:" "$work/lint.log" | sed 's/^/    /' | head -5

# A version the package does not satisfy is not found.
project "find_package(KernelTidy 99.0 QUIET)
if(NOT KernelTidy_FOUND)
  message(STATUS \"KernelTidy 99.0: not found\")
  function(kernel_tidy_lint)
  endfunction()
endif()"
configure -DCMAKE_PREFIX_PATH="$work/prefix" || fail "configure"
grep -q "KernelTidy 99.0: not found" "$work/log" || fail "KernelTidy $version satisfied a request for 99.0"
echo "ok: find_package(KernelTidy 99.0) does not take version $version"

# The helper without a kernel-tidy: a warning, no target; REQUIRED: an error.
helper="$work/prefix/lib/cmake/KernelTidy/KernelTidy.cmake"
project "include(\"$helper\")"
configure -DKERNEL_TIDY_EXECUTABLE="$work/none/kernel-tidy" || fail "the configure step failed without kernel-tidy"
grep -q "kernel-tidy not found" "$work/log" || fail "no warning without kernel-tidy"
grep -q "lint target: no" "$work/log" || fail "a lint target without kernel-tidy"
echo "ok: without kernel-tidy the helper warns and adds no lint target"
project "include(\"$helper\")" REQUIRED
if configure -DKERNEL_TIDY_EXECUTABLE="$work/none/kernel-tidy"; then
  fail "kernel_tidy_lint(... REQUIRED) configured without kernel-tidy"
fi
grep -q "kernel_tidy_lint: kernel-tidy not found" "$work/log" || fail "REQUIRED: not the helper's error"
echo "ok: kernel_tidy_lint(... REQUIRED) without kernel-tidy is a configure error"
