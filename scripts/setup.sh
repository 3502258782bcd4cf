#!/usr/bin/env bash
# Installs kernel-tidy's build and test dependencies on Debian bookworm (run as root or with sudo).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
# clangd-19: the plain-clangd baseline of the editor latency benchmark; libgrpc++-dev and
# libprotobuf-dev: Debian's libclangdMain.a contains clangd's remote-index client (kernel-clangd).
PACKAGES=(
  build-essential cmake ninja-build git
  llvm-19-dev libclang-19-dev libclang-cpp19-dev clang-19 clang-tidy-19 clang-tools-19 llvm-19-tools
  clangd-19 libgrpc++-dev libprotobuf-dev
  nlohmann-json3-dev libcli11-dev libgtest-dev libgmock-dev libclang-rt-19-dev
)
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
