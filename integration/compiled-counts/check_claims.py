#!/usr/bin/env python3
"""Checks the rules' profitability claims against the compiled counts (issue 46).

    python3 check_claims.py --counts docs/compiled-counts.json \\
        --def src/dsl/Profitability.def --rules-doc docs/rules --cases-cmake ... \\
        --case-table integration/gpu-harness/CaseTable.h

Reads the committed table (compiled_counts.py writes it; no CUDA is needed
here) and fails, naming the claim, when:
  - the table misses a harness case, an architecture, or a before/after count;
  - a CUDA line of Profitability.def says Faster, Parity or Slower and the
    counts' verdict (compiled_counts.verdict) on a warp-collective rule's
    cases says otherwise on an architecture the line names;
  - a fact a CUDA line states about the lowering (a redux.sync from sm_80, a
    compare-and-swap loop, N shuffles) is not what the counts show;
  - a rule page's profitability table disagrees with Profitability.def.
Atomic rules' gains come from contention (serialised same-address atomics),
and a loop's body counts once whatever its trip count: such lines are checked
for their stated facts only, and each must state one the counts can check.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compiled_counts import ARCHS, verdict  # noqa: E402

# Rules whose gain is contention (serialised same-address atomics), which static
# counts cannot show: their claims are checked for their stated facts only.
ATOMIC_RULES = {"luisa-shared-atomic-counter", "luisa-warp-aggregated-atomic",
                "luisa-block-privatized-atomic"}
# The verdicts each gain agrees with: "mixed" (fewer of one, more of the other)
# shows no clear gain, which a Parity line says, but proves neither direction.
GAIN_VERDICTS = {"Faster": ("fewer",), "Parity": ("same", "mixed"), "Slower": ("more",)}
INT_SUFFIXES = {"u32", "i32"}


@dataclass
class Claim:
    rule: str
    op: str
    values: str
    target: str
    gain: str
    source: str

    def name(self) -> str:
        return f"{self.rule} {self.op} {self.values} {self.target} {self.gain}"


def parse_def(text: str) -> list[Claim]:
    """The KERNEL_TIDY_GAIN lines of Profitability.def (C string literals joined)."""
    claims = []
    body = re.sub(r"//[^\n]*", "", text)
    for match in re.finditer(r"KERNEL_TIDY_GAIN\s*\((.*?)\)\s*\n", body, re.S):
        strings = re.findall(r'"((?:[^"\\]|\\.)*)"', match.group(1))
        gain = re.search(r",\s*(Faster|Parity|Slower)\s*,", match.group(1))
        if len(strings) < 5 or not gain:
            raise ValueError(f"cannot read Profitability.def entry: {match.group(0)!r}")
        rule, op, values, target = strings[:4]
        claims.append(Claim(rule, op, values, target, gain.group(1), "".join(strings[4:])))
    return claims


def claim_archs(source: str) -> list[int]:
    """The architectures a claim names ("sm_80 and newer"); all of them otherwise."""
    match = re.search(r"sm_(\d+) and newer", source)
    if match:
        return [a for a in ARCHS if a >= int(match.group(1))]
    return list(ARCHS)


def matching_cases(claim: Claim, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    def values_match(suffix: str) -> bool:
        if claim.values == "*":
            return True
        return (suffix in INT_SUFFIXES) == (claim.values == "int")
    return [c for c in cases if c["rule"] == claim.rule
            and (claim.op == "*" or claim.op == c["op"]) and values_match(c["suffix"])]


Counts = dict[str, int]
Fact = Callable[[Counts, Counts, int], bool]

# Facts a claim's text may state about the lowering, each with the count that
# shows it on one architecture (before, after, arch); a fact about some
# architectures holds trivially on the others.
FACTS: tuple[tuple[str, str, Fact], ...] = (
    (r"one redux\.sync \(__reduce_\w+_sync, sm_80 and newer\)",
     "after: one redux.sync and no shfl on sm_80 and newer",
     lambda b, a, arch: arch < 80 or (a["redux"] == 1 and a["shfl"] == 0)),
    (r"sm_80 and newer\) instead of 5 shuffles, a third fewer instructions",
     "after on sm_80 and newer: at most two thirds of the instructions (rounded up)",
     lambda b, a, arch: arch < 80 or 3 * a["total"] <= 2 * b["total"] + 2),
    (r"on sm_75 the builtin is itself a guarded 5-shuffle butterfly",
     "after on sm_75: 5 shfl, no redux.sync, more instructions than before",
     lambda b, a, arch: arch != 75 or (a["shfl"] == 5 and a["redux"] == 0
                                       and a["total"] > b["total"])),
    (r"instead of 5 shuffles", "before: 5 shfl",
     lambda b, a, arch: b["shfl"] == 5),
    (r"itself a 5-step shuffle butterfly", "after: 5 shfl, no redux.sync",
     lambda b, a, arch: a["shfl"] == 5 and a["redux"] == 0),
    (r"5 shuffles before and after, and more instructions after",
     "before and after: 5 shfl; after: more instructions",
     lambda b, a, arch: b["shfl"] == 5 and a["shfl"] == 5 and a["total"] > b["total"]),
    (r"about 6 shuffles instead of one per lane read",
     "after: at most 6 shfl and no loop; before: a loop with a shfl in it",
     lambda b, a, arch: a["shfl"] <= 6 and a["loops"] == 0 and b["loops"] >= 1
     and b["shfl"] >= 1),
    (r"compare-and-swap loop", "before: an atom.cas (the loop of a float min/max)",
     lambda b, a, arch: b["atom_cas"] >= 1),
    (r"float shared atomics on one address", "before: a shared atomic, no CAS (float add)",
     lambda b, a, arch: b["atom_shared"] >= 1 and b["atom_cas"] == 0),
    (r"same-address integer shared atomics", "before: one integer shared atomic, no CAS",
     lambda b, a, arch: b["atom_shared"] >= 1 and b["atom_cas"] == 0),
    (r"one atomic per warp", "after: no more atomic instructions than before",
     lambda b, a, arch: a["atom_shared"] + a["atom_global"] <= b["atom_shared"]
     + b["atom_global"]),
)


def check_claim(claim: Claim, cases: list[dict[str, Any]]) -> list[str]:
    errors: list[str] = []
    matched = matching_cases(claim, cases)
    if not matched:
        return []  # No harness case for it: the coverage check names missing rules.
    archs = claim_archs(claim.source)
    facts = [(label, test) for pattern, label, test in FACTS if re.search(pattern, claim.source)]
    loops = any(verdict(c["counts"][f"sm_{a}"]["before"], c["counts"][f"sm_{a}"]["after"])
                == "loop" for c in matched for a in archs)
    if (claim.rule in ATOMIC_RULES or loops) and not facts:
        errors.append(f"{claim.name()}: states no fact the compiled counts can check (its "
                      f"gain is dynamic: contention or a loop's trip count; say what the "
                      f"lowering does)")
    for arch in ARCHS:
        if arch not in archs and f"sm_{arch}" not in claim.source:
            errors.append(f"{claim.name()}: names {', '.join(f'sm_{a}' for a in archs)} "
                          f"only and does not say what the rewrite is on sm_{arch}")
    for case in matched:
        where = f"{case['case']}_{case['suffix']}"
        for arch in ARCHS:
            counts = case["counts"][f"sm_{arch}"]
            before, after = counts["before"], counts["after"]
            if claim.rule not in ATOMIC_RULES and arch in archs:
                seen = verdict(before, after)
                if seen != "loop" and seen not in GAIN_VERDICTS[claim.gain]:
                    errors.append(f"{claim.name()}: {where} on sm_{arch}: the counts say "
                                  f"'{seen}' ({describe(before, after)}), the claim "
                                  f"'{' or '.join(GAIN_VERDICTS[claim.gain])}'")
            for label, test in facts:
                if not test(before, after, arch):
                    errors.append(f"{claim.name()}: {where} on sm_{arch}: '{label}' does not "
                                  f"hold ({describe(before, after)})")
    return errors


def describe(before: Counts, after: Counts) -> str:
    keys = ("total", "loops", "shfl", "redux", "vote", "activemask", "atom_shared", "atom_global",
            "atom_cas", "bar")
    return ", ".join(f"{k} {before[k]}->{after[k]}" for k in keys)


def check_table(table: dict[str, Any], expected: set[tuple[str, str]]) -> list[str]:
    errors = []
    present = {(c["case"], c["suffix"]) for c in table["cases"]}
    for name, suffix in sorted(expected - present):
        errors.append(f"the table has no counts for harness case {name}_{suffix}: "
                      f"re-run integration/compiled-counts/compiled_counts.py")
    for name, suffix in sorted(present - expected):
        errors.append(f"the table has {name}_{suffix}, which is no harness case any more")
    for case in table["cases"]:
        for arch in ARCHS:
            counts = case["counts"].get(f"sm_{arch}", {})
            if "before" not in counts or "after" not in counts:
                errors.append(f"{case['case']}_{case['suffix']}: no sm_{arch} counts")
    return errors


def harness_cases(cases_cmake: str) -> set[tuple[str, str]]:
    """(name, suffix) of every kernel case in cases/Cases.cmake (host cases have no kernel)."""
    names: list[str] = []
    for match in re.finditer(r"(?:set|list\(APPEND)\s*\(?\s*KERNEL_TIDY_HARNESS_CASES\s+([^)]*)\)",
                             cases_cmake):
        names += match.group(1).split()
    types = {m.group(1): m.group(2).split() for m in
             re.finditer(r"set\(KERNEL_TIDY_HARNESS_TYPES_(\w+)\s+([^)]*)\)", cases_cmake)}
    return {(n, s) for n in names for s in types.get(n, [])}


def check_rule_pages(claims: list[Claim], docs: Path) -> list[str]:
    """Each rule page's "| cuda | ... | faster/parity/slower |" rows against the .def lines."""
    errors = []
    for claim in claims:
        if claim.target != "cuda":
            continue
        page = docs / f"{claim.rule}.md"
        if not page.exists():
            continue
        rows = [line for line in page.read_text().splitlines()
                if line.startswith("| cuda |")]
        word = {"Faster": "faster", "Parity": "parity", "Slower": "slower"}[claim.gain]
        values = "integers" if claim.values == "int" else "float" if claim.values == "float" \
            else "any"
        if not any(values in row.split("|")[2] and word in row.split("|")[4]
                   for row in rows if len(row.split("|")) > 4):
            errors.append(f"{page.name}: no '| cuda |' row with '{values}' values saying "
                          f"'{word}', as Profitability.def's {claim.name()} does")
    return errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--counts", type=Path, required=True)
    parser.add_argument("--def", dest="def_file", type=Path, required=True)
    parser.add_argument("--rules-doc", type=Path, required=True)
    parser.add_argument("--cases-cmake", type=Path, required=True)
    args = parser.parse_args()
    table = json.loads(args.counts.read_text())
    claims = parse_def(args.def_file.read_text())
    errors = check_table(table, harness_cases(args.cases_cmake.read_text()))
    cuda = [c for c in claims if c.target == "cuda"]
    if not cuda:
        errors.append("Profitability.def has no cuda line: the parser is broken")
    for claim in cuda:
        errors += check_claim(claim, table["cases"])
    errors += check_rule_pages(claims, args.rules_doc)
    for error in errors:
        print(f"check_claims: {error}", file=sys.stderr)
    if errors:
        return 1
    print(f"check_claims: {len(cuda)} cuda claims and {len(table['cases'])} cases agree "
          f"with the compiled counts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
