#!/bin/sh
# Runs the hooks of .pre-commit-hooks.yaml the way pre-commit does (pre-commit
# itself is a pip package, not available in CI): the entry, split on spaces,
# then the staged files that match the hook's `files` regex.
# Usage: pre-commit-hook.sh SOURCE_DIR KERNEL_TIDY_BIN_DIR
set -eu
src=$1
PATH="$2:$PATH"   # language: system runs the kernel-tidy on PATH
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hooks="$src/.pre-commit-hooks.yaml"
cmp -s "$hooks" "$src/integration/ci/pre-commit-hooks.yaml" \
  || { echo "FAIL: integration/ci/pre-commit-hooks.yaml differs from .pre-commit-hooks.yaml"; exit 1; }

# The value of KEY in the hook with id ID.
field() {
  awk -v id="$1" -v key="$2" '
    /^- id:/ { current = $3 }
    current == id && $1 == key":" { sub("^[^:]*: *", ""); print; exit }' "$hooks"
}
python3 "$src/scripts/fixture-input" "$src/test/fixtures/luisa-butterfly-reduction/max-straight-line.cpp" \
  > "$work/finding.cpp"
printf 'int main() { return 0; }\n' > "$work/clean.cpp"
printf 'not C++\n' > "$work/notes.txt"

run_hook() { # ID FILES...
  id=$1; shift
  entry=$(field "$id" entry)
  regex=$(field "$id" files)
  [ "$(field "$id" language)" = system ] || { echo "FAIL: $id is not language: system"; exit 1; }
  selected=""
  for f in "$@"; do
    if printf '%s\n' "$f" | grep -Eq "$regex"; then selected="$selected $f"; fi
  done
  # shellcheck disable=SC2086 # split as pre-commit does
  $entry $selected
}

cd "$work"
if run_hook kernel-tidy finding.cpp clean.cpp notes.txt > out.log 2>&1; then
  cat out.log; echo "FAIL: the hook passed on a finding"; exit 1
fi
grep -q "finding.cpp:12:9: warning:" out.log || { cat out.log; echo "FAIL: no finding shown"; exit 1; }
echo "ok: kernel-tidy hook fails on a finding"
run_hook kernel-tidy clean.cpp notes.txt > out.log 2>&1 || { cat out.log; echo "FAIL: clean"; exit 1; }
echo "ok: kernel-tidy hook passes on clean files and skips non-sources"
run_hook kernel-tidy-fix finding.cpp > out.log 2>&1 || { cat out.log; echo "FAIL: fix hook"; exit 1; }
cmp -s finding.cpp "$src/test/fixtures/luisa-butterfly-reduction/max-straight-line.fixed.cpp" \
  || { echo "FAIL: the fix hook did not fix the file"; exit 1; }
echo "ok: kernel-tidy-fix hook fixes the file"

# The CuTe DSL (Python) hooks.
python3 "$src/scripts/fixture-input" "$src/test/fixtures/cute-hardcoded-warp-width/positive.py" \
  > finding.py
printf 'print("not a kernel")\n' > clean.py
if run_hook kernel-tidy-cute finding.py clean.py finding.cpp > out.log 2>&1; then
  cat out.log; echo "FAIL: the CuTe DSL hook passed on a finding"; exit 1
fi
grep -q "finding.py:8:20: warning:" out.log || { cat out.log; echo "FAIL: no CuTe DSL finding shown"; exit 1; }
grep -q "finding.cpp" out.log && { cat out.log; echo "FAIL: the CuTe DSL hook took a C++ file"; exit 1; }
echo "ok: kernel-tidy-cute hook fails on a finding and takes only .py files"
run_hook kernel-tidy-cute clean.py > out.log 2>&1 || { cat out.log; echo "FAIL: clean .py"; exit 1; }
run_hook kernel-tidy-cute-fix finding.py > out.log 2>&1 || true  # the ">> 5" finding has no fix
cmp -s finding.py "$src/test/fixtures/cute-hardcoded-warp-width/positive.fixed.py" \
  || { cat out.log; echo "FAIL: the CuTe DSL fix hook did not fix the file"; exit 1; }
echo "ok: kernel-tidy-cute-fix hook fixes the file"
