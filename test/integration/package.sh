#!/bin/sh
# Builds the Debian package with cpack from the build tree (into a scratch
# folder), checks its files and control fields, extracts it into a scratch
# root and runs the extracted tools from an unrelated folder: they must find
# the bundled model and the rule docs next to themselves, not in the build
# tree, and every library they load must come from a package in Depends.
# Usage: package.sh SOURCE_DIR BUILD_DIR CPACK VERSION CLANG_TIDY
set -eu
src=$1 build=$2 cpack=$3 version=$4 clang_tidy=$5
if [ "${KERNEL_TIDY_SANITIZED:-0}" = 1 ]; then
  echo "SKIPPED: a package of the sanitized build is not a product (its tools need libasan)"
  exit 77
fi
for tool in dpkg-deb dpkg-shlibdeps dpkg-query file readelf ldd; do
  command -v $tool >/dev/null || { echo "FAIL: $tool is missing (scripts/setup.sh installs it)"; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; exit 1; }

"$cpack" -G DEB -B "$work/out" --config "$build/CPackConfig.cmake" > "$work/cpack.log" 2>&1 \
  || { cat "$work/cpack.log"; fail "cpack -G DEB"; }
deb="$work/out/kernel-tidy_${version}_amd64.deb"
[ -f "$deb" ] || { ls "$work/out"; fail "no $deb"; }
echo "ok: cpack wrote $(basename "$deb")"

# Contents: the tools, the plugin, every model header and doc page, the CMake package.
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' > "$work/contents"
expect() { grep -qx "$1" "$work/contents" || fail "the package lacks $1"; }
for f in /usr/bin/kernel-tidy /usr/bin/kernel-clangd /usr/lib/kernel-tidy/clang-tidy-19/libKernelTidyPlugin.so \
         /usr/lib/cmake/KernelTidy/KernelTidyConfig.cmake \
         /usr/lib/cmake/KernelTidy/KernelTidyConfigVersion.cmake \
         /usr/lib/cmake/KernelTidy/KernelTidy.cmake /usr/lib/cmake/KernelTidy/KernelTidyTargets.cmake \
         /usr/share/doc/kernel-tidy/copyright /usr/share/doc/kernel-tidy/changelog.gz \
         /usr/share/doc/kernel-tidy/examples/ci/github-actions.yml \
         /usr/share/man/man1/kernel-tidy.1.gz /usr/share/man/man1/kernel-clangd.1.gz \
         /usr/share/bash-completion/completions/kernel-tidy /usr/share/zsh/vendor-completions/_kernel-tidy; do
  expect "$f"
done
(cd "$src/src/dsl/api-model" && find ./luisa -type f) | sed 's|^\.|/usr/share/kernel-tidy/api-model|' > "$work/model"
(cd "$src/docs" && find . -name '*.md') | sed 's|^\.|/usr/share/doc/kernel-tidy|' > "$work/docs"
(cd "$src/docs" && find . -name '*.md') | sed 's|^\.|/usr/share/kernel-tidy/docs|' >> "$work/docs"
while read -r f; do expect "$f"; done < "$work/model"
while read -r f; do expect "$f"; done < "$work/docs"
if grep -v '^/usr/' "$work/contents" | grep -qv '^/$'; then fail "files outside /usr"; fi
if grep -q '^/usr/local' "$work/contents"; then fail "files under /usr/local"; fi
echo "ok: $(wc -l < "$work/model") model headers, $(wc -l < "$work/docs") doc pages, the tools, the plugin, the CMake package"

# Control fields.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = kernel-tidy ] && [ "$(field Version)" = "$version" ] \
  && [ "$(field Architecture)" = amd64 ] && [ "$(field Section)" = devel ] || fail "control fields"
field Maintainer | grep -Eq '^[^<]+ <[^@ ]+@[^> ]+>$' || fail "Maintainer '$(field Maintainer)'"
[ -n "$(field Description)" ] || fail "no Description"
depends=$(field Depends)
# The package of each library that a tool links directly (NEEDED; the
# libraries bring their own dependencies), and of the Clang resource
# directory, is in Depends.
dpkg-deb -x "$deb" "$work/root"
packages_of() { xargs -r readlink -f | xargs -r dpkg-query -S 2>/dev/null | sed 's/:.*//' | sort -u; }
for elf in "$work/root/usr/bin/kernel-tidy" "$work/root/usr/bin/kernel-clangd" \
           "$work/root/usr/lib/kernel-tidy/clang-tidy-19/libKernelTidyPlugin.so"; do
  if readelf -d "$elf" | grep -q 'R\(UN\)\?PATH'; then fail "$(basename "$elf") has an RPATH"; fi
  readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' > "$work/sonames"
  [ -s "$work/sonames" ] || fail "$(basename "$elf"): no NEEDED entries"
  ldd "$elf" | awk 'NR == FNR { want[$1]; next } ($1 in want) && $3 ~ /^\// { print $3 }' "$work/sonames" - \
    | packages_of
done > "$work/needed"
echo /usr/lib/llvm-19/lib/clang/19/include/stddef.h | packages_of >> "$work/needed"
for p in $(sort -u "$work/needed"); do
  printf '%s\n' "$depends" | tr ',|' '\n\n' | sed 's/^ *//; s/ .*//' | grep -qx "$p" \
    || fail "Depends ($depends) lacks $p"
done
echo "ok: Depends names the $(sort -u "$work/needed" | wc -l) packages of the linked libraries and of the resource dir: $depends"

# The extracted tools, run from an unrelated folder with a clean environment.
mkdir "$work/elsewhere"
python3 "$src/scripts/fixture-input" "$src/test/fixtures/luisa-butterfly-reduction/max-straight-line.cpp" \
  > "$work/elsewhere/kernel.cpp"
cd "$work/elsewhere"
run() { env -i PATH=/usr/bin:/bin HOME="$work" KERNEL_TIDY_CACHE_DIR="$work/cache" "$@"; }
status=0
run "$work/root/usr/bin/kernel-tidy" check kernel.cpp > out.log 2>&1 || status=$?
[ "$status" = 1 ] || { cat out.log; fail "extracted kernel-tidy exited $status, not 1 (findings)"; }
grep -q "kernel.cpp:12:9: warning: .*\[luisa-butterfly-reduction\]" out.log || { cat out.log; fail "no finding"; }
echo "ok: the extracted kernel-tidy reports the finding (exit 1) from $work/elsewhere"
run "$work/root/usr/bin/kernel-tidy" rules luisa-butterfly-reduction | head -1 | grep -qx '# luisa-butterfly-reduction' \
  || fail "kernel-tidy rules: the rule page"
# SARIF help.markdown links point into the extracted docs.
run "$work/root/usr/bin/kernel-tidy" check --format sarif kernel.cpp > out.sarif || true
python3 - "$work/root" out.sarif <<'PY' || fail "SARIF help.markdown links"
import json, os, re, sys, urllib.parse
root, log = sys.argv[1], json.load(open(sys.argv[2]))
links = [l for r in log["runs"][0]["tool"]["driver"]["rules"]
         for l in re.findall(r"\]\(([^)]+)\)", re.sub(r"```.*?```", "", r["help"]["markdown"], flags=re.S))]
files = [urllib.parse.unquote(l.split("#")[0][len("file://"):]) for l in links if l.startswith("file://")]
assert files, "no links to the docs"
for f in files:
    assert f.startswith(root + "/usr/share/kernel-tidy/docs/"), f
    assert os.path.isfile(f), f
print(f"ok: {len(files)} SARIF help links resolve in the extracted docs")
PY
run "$work/root/usr/bin/kernel-clangd" --version | grep -q "clangd version 19" || fail "kernel-clangd --version"
"$clang_tidy" --load "$work/root/usr/lib/kernel-tidy/clang-tidy-19/libKernelTidyPlugin.so" --checks='-*,luisa-*' \
  --list-checks | grep -q luisa-butterfly-reduction || fail "clang-tidy does not load the extracted plugin"
echo "ok: the extracted kernel-clangd runs and clang-tidy loads the extracted plugin"
