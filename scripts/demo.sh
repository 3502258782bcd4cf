#!/usr/bin/env bash
# Sets up a fresh Debian bookworm machine, builds kernel-tidy, lints the bundled example kernels
# and shows the fixes it would make (as a diff; nothing is written).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)" --target kernel-tidy
status=0
echo "== kernel-tidy check examples/*.cpp"
./build/bin/kernel-tidy check examples/*.cpp || status=$?
echo "== kernel-tidy check --diff --unsafe-fixes examples/*.cpp"
./build/bin/kernel-tidy check --diff --unsafe-fixes examples/*.cpp 2>/dev/null || true
# Exit code 1 means "findings remain", which is what the examples are for.
[ "$status" -le 1 ]
