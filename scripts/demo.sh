#!/usr/bin/env bash
# Sets up a fresh Debian bookworm machine, builds kernel-tidy, lints the bundled example kernels
# (LuisaCompute C++ and CuTe DSL Python) and shows the fixes it would make (as a diff; nothing
# is written).
set -euo pipefail
cd "$(dirname "$0")/.."
# What building needs; the test suite's Node packages (npm) are left to scripts/test.sh.
bash scripts/setup.sh --build-only
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)" --target kernel-tidy
status=0
echo "== kernel-tidy check examples/"
./build/bin/kernel-tidy check examples/ || status=$?
echo "== kernel-tidy check --diff --unsafe-fixes examples/"
# The diff on stdout, its summary line on stderr: both are shown.
./build/bin/kernel-tidy check --diff --unsafe-fixes examples/ 2>&1 || true
echo "== the binary is ./build/bin/kernel-tidy; put it on PATH with:"
echo "   export PATH=\"$PWD/build/bin:\$PATH\""
# Exit code 1 means "findings remain", which is what the examples are for.
[ "$status" -le 1 ]
