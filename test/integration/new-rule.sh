#!/bin/sh
# scripts/new-rule into a scratch copy of the files it edits: the files it
# writes, the registry line (through the preprocessor, as LuisaModule.cpp
# reads it), the README row, and its refusals.
# Usage: new-rule.sh SOURCE_DIR CXX_COMPILER [CLANG_FORMAT]
set -eu
src=$1
cxx=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $1"; exit 1; }
mkdir -p "$work/rules"
cp "$src/rules/Rules.def" "$work/rules/"
cp "$src/README.md" "$work/"
mkdir -p "$work/frontends/cute/kernel_tidy_cute/rules"
cp "$src/frontends/cute/kernel_tidy_cute/rules/__init__.py" "$work/frontends/cute/kernel_tidy_cute/rules/"
gen() { python3 "$src/scripts/new-rule" --root "$work" "$@"; }

gen --family warp --fix-kinds safe --summary 'vote loop -> warp_active_any' \
    luisa-warp-vote-loop > "$work/out.log" 2>&1 || { cat "$work/out.log"; fail "the generator failed"; }
cat "$work/out.log"
for f in rules/warp/WarpVoteLoopCheck.h rules/warp/WarpVoteLoopCheck.cpp docs/rules/luisa-warp-vote-loop.md \
         test/fixtures/luisa-warp-vote-loop/positive.cpp test/fixtures/luisa-warp-vote-loop/negative.cpp \
         test/fixtures/luisa-warp-vote-loop/near-miss.cpp; do
  [ -s "$work/$f" ] || fail "$f was not written"
  grep -q "wrote $f" "$work/out.log" || fail "$f is not in the generator's output"
done
grep -q 'class WarpVoteLoopCheck : public RuleBase' "$work/rules/warp/WarpVoteLoopCheck.h" || fail "the check class"
grep -q '#include "rules/warp/WarpVoteLoopCheck.h"' "$work/rules/warp/WarpVoteLoopCheck.cpp" || fail "the source's include"
grep -q 'void WarpVoteLoopCheck::registerMatchers' "$work/rules/warp/WarpVoteLoopCheck.cpp" || fail "registerMatchers"
grep -q 'void WarpVoteLoopCheck::check' "$work/rules/warp/WarpVoteLoopCheck.cpp" || fail "check"
for section in '# luisa-warp-vote-loop' '## Before' '## After' '## When it is safe' \
               '## When it does not fire' '## Options'; do  # RuleRegistry.EveryRuleHasADocPage
  grep -q "^$section\$" "$work/docs/rules/luisa-warp-vote-loop.md" || fail "the doc page lacks '$section'"
done
fixtures="$work/test/fixtures/luisa-warp-vote-loop"
grep -q '// CHECK-MESSAGES: :\[\[@LINE-1\]\]:9: warning: .* \[luisa-warp-vote-loop\] (fix: none)$' \
  "$fixtures/positive.cpp" || fail "the positive fixture expects no warning"
if grep -q 'CHECK-MESSAGES' "$fixtures/negative.cpp" "$fixtures/near-miss.cpp"; then
  fail "the negative and near-miss fixtures expect messages"
fi
if python3 "$src/scripts/fixture-input" "$fixtures/positive.cpp" | grep -q 'CHECK-MESSAGES'; then
  fail "scripts/fixture-input left a directive"
fi

# The registry line, expanded as rules/LuisaModule.cpp does: the last rule, well-formed.
printf '#define KERNEL_TIDY_RULE(Id, Class, Kind, Fix, Summary) <Id|Class|Kind|Fix|Summary>\n#include "Rules.def"\n' \
  | "$cxx" -E -P -x c++ -I "$work/rules" - > "$work/rules.i" 2>&1 || { cat "$work/rules.i"; fail "Rules.def does not preprocess"; }
last=$(grep '<' "$work/rules.i" | tail -n 1 | sed 's/^ *//; s/ *$//')
[ "$last" = '<"luisa-warp-vote-loop"|WarpVoteLoopCheck|"performance"|"safe"|"vote loop -> warp_active_any">' ] \
  || { cat "$work/rules.i"; fail "the registry line: $last"; }
[ "$(grep -c '<' "$work/rules.i")" -eq "$(( $(grep -c '^KERNEL_TIDY_RULE(' "$src/rules/Rules.def") + 1 ))" ] \
  || fail "the other rules of Rules.def changed"
tail -n 1 "$work/rules/Rules.def" | grep -qx '#undef KERNEL_TIDY_RULE' || fail "#undef is not last"

grep -B1 -x '<!-- end of the rules table -->' "$work/README.md" \
  | grep -qxF '| [luisa-warp-vote-loop](docs/rules/luisa-warp-vote-loop.md) | safe | vote loop -> warp_active_any |' \
  || fail "the README row"
if [ -n "${3:-}" ]; then  # what it writes follows the project's .clang-format
  cp "$src/.clang-format" "$work/"
  (cd "$work" && "$3" --dry-run -Werror rules/warp/WarpVoteLoopCheck.h rules/warp/WarpVoteLoopCheck.cpp \
    rules/Rules.def) || fail "the generated C++ is not clang-formatted"
fi
echo "ok: the skeleton, the registry line and the README row"

# A cute-* rule: the Python module, its unit test, .py fixtures, RULES and Rules.def.
gen --fix-kinds none --summary 'CuTe DSL: vote loop -> vote_any_sync' cute-warp-vote-loop \
    > "$work/cute.log" 2>&1 || { cat "$work/cute.log"; fail "the generator failed on a cute rule"; }
for f in frontends/cute/kernel_tidy_cute/rules/warp_vote_loop.py \
         frontends/cute/tests/test_warp_vote_loop.py docs/rules/cute-warp-vote-loop.md \
         test/fixtures/cute-warp-vote-loop/positive.py test/fixtures/cute-warp-vote-loop/negative.py \
         test/fixtures/cute-warp-vote-loop/near-miss.py; do
  [ -s "$work/$f" ] || fail "$f was not written"
done
grep -qx 'from \. import warp_vote_loop' "$work/frontends/cute/kernel_tidy_cute/rules/__init__.py" \
  || fail "the rule's import"
grep -qx '    "cute-warp-vote-loop": warp_vote_loop.check,' \
  "$work/frontends/cute/kernel_tidy_cute/rules/__init__.py" || fail "the RULES entry"
python3 -c "import ast, sys; ast.parse(open(sys.argv[1]).read())" \
  "$work/frontends/cute/kernel_tidy_cute/rules/__init__.py" || fail "rules/__init__.py does not parse"
grep -B1 -x '#undef KERNEL_TIDY_CUTE_RULE' "$work/rules/Rules.def" \
  | grep -qF '"CuTe DSL: vote loop -> vote_any_sync")' || fail "the KERNEL_TIDY_CUTE_RULE line"
grep -q '^```python$' "$work/docs/rules/cute-warp-vote-loop.md" || fail "the doc page's examples"
echo "ok: a cute-* rule's module, unit test, fixtures and registrations"

# Refusals change nothing.
snapshot() { (cd "$work" && find . -type f ! -name '*.log' ! -name rules.i | sort | xargs md5sum); }
before=$(snapshot)
for bad in luisa-warp-vote-loop luisa-butterfly-reduction Luisa-x luisa- luisa-a_b luisa-a--b warp-vote \
           cute-warp-vote-loop cute-launch-config cute- cute-a_b; do
  family=--family=warp
  case $bad in cute-*) family=;; esac
  if gen $family "$bad" > "$work/refused.log" 2>&1; then fail "accepted '$bad'"; fi
  grep -q '^new-rule: ' "$work/refused.log" || { cat "$work/refused.log"; fail "no reason for '$bad'"; }
done
if gen --family warp luisa-other WarpVoteLoop > "$work/refused.log" 2>&1; then fail "accepted a class name twice"; fi
grep -q 'is in rules/Rules.def already' "$work/refused.log" || fail "no reason for a class name twice"
if gen luisa-no-room > "$work/refused.log" 2>&1; then fail "accepted a C++ rule without --family"; fi
grep -q 'needs --family' "$work/refused.log" || fail "no reason for a missing --family"
if gen --family warp cute-in-a-room > "$work/refused.log" 2>&1; then fail "accepted --family for a cute rule"; fi
[ "$before" = "$(snapshot)" ] || fail "a refused run changed files"
echo "ok: bad, existing and duplicate ids are refused"
