#!/usr/bin/env bash
# Sets up a fresh Debian bookworm machine, builds kernel-tidy and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
# The same suite under AddressSanitizer and UndefinedBehaviorSanitizer
# (docs/reliability.md): about 12 more minutes on 2 cores.
# KERNEL_TIDY_SKIP_SANITIZERS=1 skips it for a quick local run.
if [ "${KERNEL_TIDY_SKIP_SANITIZERS:-0}" != 1 ]; then
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKERNEL_TIDY_SANITIZE=ON
  cmake --build build-asan -j "$(nproc)"
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)"
fi
