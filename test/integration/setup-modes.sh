#!/bin/sh
# scripts/setup.sh's modes, with stubs of the tools it runs first on PATH:
# --build-only (what the package build runs) installs no npm packages, the
# default mode (what the test suite needs) does, an unknown option is refused.
# Usage: setup-modes.sh SOURCE_DIR
set -eu
src=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; exit 1; }
mkdir "$work/bin"
stub() { printf '#!/bin/sh\n%s\n' "$2" > "$work/bin/$1"; chmod +x "$work/bin/$1"; }
stub dpkg-query "printf 'install ok installed'"          # every Debian package is there
stub apt-get "echo \"apt-get \$*\" >> '$work/log'"
stub sudo 'exec "$@"'
stub node 'exit 1'                                       # the schema test's modules are not
stub npm "echo \"npm \$*\" >> '$work/log'"
run() { : > "$work/log"; PATH="$work/bin:$PATH" bash "$src/scripts/setup.sh" "$@" > "$work/out" 2>&1; }

run --build-only || { cat "$work/out"; fail "--build-only failed"; }
[ ! -s "$work/log" ] || { cat "$work/log"; fail "--build-only ran npm or apt-get"; }
run || { cat "$work/out"; fail "the default mode failed"; }
grep -qx 'npm ci --prefix test/sarif --no-audit --no-fund' "$work/log" \
  || { cat "$work/log"; fail "the default mode did not install the npm packages"; }
status=0
run --bogus || status=$?
[ "$status" -eq 2 ] || fail "an unknown option exits $status, not 2"
grep -q 'usage: .*--build-only' "$work/out" || fail "no usage line"
echo "ok: setup.sh --build-only skips npm, the default mode runs it"
