#!/bin/sh
# ctest entry for the SARIF schema test: kernel-tidy's SARIF output must
# validate against the OASIS SARIF 2.1.0 schema. Fails (never skips) when node
# or the packages are missing, unless KERNEL_TIDY_SKIP_NODE_TESTS=1.
# Usage: run.sh KERNEL_TIDY_BINARY SOURCE_DIR
if [ "${KERNEL_TIDY_SKIP_NODE_TESTS:-0}" = "1" ]; then
  echo "SKIPPED: KERNEL_TIDY_SKIP_NODE_TESTS=1 (the SARIF schema test needs node and npm packages)"
  exit 77
fi
here=$(dirname "$0")
if ! command -v node >/dev/null 2>&1; then
  echo "FAIL: node is not installed; run scripts/setup.sh (or set KERNEL_TIDY_SKIP_NODE_TESTS=1)" >&2
  exit 1
fi
if [ ! -d "$here/node_modules/ajv-draft-04" ] || [ ! -d "$here/node_modules/@microsoft/jest-sarif" ]; then
  echo "FAIL: npm packages missing in $here/node_modules; run scripts/setup.sh" \
       "(npm ci --prefix test/sarif), or set KERNEL_TIDY_SKIP_NODE_TESTS=1" >&2
  exit 1
fi
exec node "$here/validate-sarif.js" "$@"
