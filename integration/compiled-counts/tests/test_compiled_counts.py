"""Unit tests of the compiled-counts table's reader, counter and claim checker."""

from __future__ import annotations

import copy
import json
import sys
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE.parent))

from check_claims import (check_claim, check_table, harness_cases,  # noqa: E402
                          matching_cases, parse_def)
from compiled_counts import count_ptx, parse_ptxas, verdict  # noqa: E402

PTX = """
.version 9.0
.target sm_80
.func (.param .b32 r) helper(.param .b32 x)
{
\tshfl.sync.bfly.b32 %r1, %r2, 1, 31, -1;
}
.visible .entry kernel_main(
\t.param .align 16 .b8 params[64]
)
{
\t.reg .b32 %r<9>;
\tld.param.u64 %rd1, [params];
\tactivemask.b32 %r1;
$L__BB0_1:
\tshfl.sync.bfly.b32 %r2|%p1, %r1, 16, 31, -1;
\t@%p1 max.u32 %r3, %r1, %r2;
\tredux.sync.max.u32 %r4, %r3, -1;
\tatom.shared.cas.b32 %r5, [%r6], %r7, %r8;
\tred.global.add.u32 [%rd1], %r4; // comment
\tbar.sync 0;
\tld.global.nc.u32 %r1, [%rd1];
\tst.shared.u32 [%r6], %r1;
\t// begin inline asm
\t{  mov.b32 %r27, {%rs25,%rs25};}
\t{mov.u32 %r28, WARP_SZ;
\tshl.b32 %r30, %r28, 8;
\tshfl.sync.idx.b32 %r29,%r27,%r31,%r32,%r26;
}
\t// end inline asm
\t@%p1 bra $L__BB0_1;
\tret;
}
"""


class CountPtx(unittest.TestCase):
    def test_counts_entry_instructions_by_kind(self) -> None:
        counts = count_ptx(PTX)
        # ld.param, activemask, shfl, max, redux, atom, red, bar, ld, st, 4 in inline asm
        # (mov, mov, shl, shfl), bra, ret
        self.assertEqual(counts["total"], 16)
        self.assertEqual(counts["shfl"], 2)  # the helper's .func is not counted
        self.assertEqual(counts["redux"], 1)
        self.assertEqual(counts["vote"], 0)
        self.assertEqual(counts["activemask"], 1)
        self.assertEqual(counts["atom_shared"], 1)
        self.assertEqual(counts["atom_cas"], 1)
        self.assertEqual(counts["atom_global"], 1)
        self.assertEqual(counts["bar"], 1)
        self.assertEqual(counts["ld_global"], 1)
        self.assertEqual(counts["st_shared"], 1)
        self.assertEqual(counts["branch"], 1)
        self.assertEqual(counts["loops"], 1)  # bra $L__BB0_1, a label above it

    def test_ptxas_info(self) -> None:
        log = ("ptxas info    : Used 12 registers, used 0 barriers, 8 bytes stack frame\n"
               "ptxas info    : 8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n")
        self.assertEqual(parse_ptxas(log), {"registers": 12, "stack": 8, "spill_stores": 4,
                                            "spill_loads": 4})


def counts(total: int, shfl: int = 0, redux: int = 0) -> dict[str, int]:
    base = dict.fromkeys(("shfl", "redux", "vote", "bar", "ld_shared", "st_shared",
                          "atom_shared", "atom_global", "atom_generic", "atom_cas"), 0)
    base.update(total=total, shfl=shfl, redux=redux, loops=0)
    return base


class Verdict(unittest.TestCase):
    def test_verdicts(self) -> None:
        self.assertEqual(verdict(counts(40, shfl=5), counts(30, redux=1)), "fewer")
        self.assertEqual(verdict(counts(30, redux=1), counts(40, shfl=5)), "more")
        self.assertEqual(verdict(counts(40, shfl=5), counts(42, shfl=5)), "same")
        self.assertEqual(verdict(counts(40, shfl=5), counts(60, shfl=5)), "more")
        self.assertEqual(verdict(counts(40, shfl=5), counts(41, shfl=1)), "fewer")
        self.assertEqual(verdict(counts(40, shfl=5), counts(50, shfl=1)), "mixed")
        self.assertEqual(verdict(counts(40, shfl=1), counts(30, shfl=5)), "mixed")
        looping = dict(counts(40, shfl=5), loops=1)
        self.assertEqual(verdict(looping, counts(60, shfl=6)), "loop")


class Claims(unittest.TestCase):
    table = json.loads((ROOT / "docs" / "compiled-counts.json").read_text())
    claims = parse_def((ROOT / "src" / "dsl" / "Profitability.def").read_text())

    def test_reads_every_line(self) -> None:
        text = (ROOT / "src" / "dsl" / "Profitability.def").read_text()
        self.assertEqual(len(self.claims), text.count("KERNEL_TIDY_GAIN(") - 1)  # the #define

    def test_committed_claims_agree(self) -> None:
        for claim in self.claims:
            if claim.target == "cuda":
                self.assertEqual(check_claim(claim, self.table["cases"]), [], claim.name())

    def test_a_flipped_gain_fails(self) -> None:
        checked = 0
        for claim in self.claims:
            if claim.target != "cuda" or claim.rule != "luisa-butterfly-reduction" \
                    or not matching_cases(claim, self.table["cases"]):
                continue
            wrong = copy.copy(claim)
            wrong.gain = "Parity" if claim.gain != "Parity" else "Faster"
            self.assertNotEqual(check_claim(wrong, self.table["cases"]), [], wrong.name())
            checked += 1
        self.assertGreater(checked, 0)

    def test_a_wrong_fact_fails(self) -> None:
        claim = next(c for c in self.claims if c.target == "cuda"
                     and c.rule == "luisa-butterfly-reduction" and c.values == "float")
        wrong = copy.copy(claim)
        wrong.source = "one redux.sync (__reduce_max_sync, sm_80 and newer) instead of 5 shuffles"
        self.assertNotEqual(check_claim(wrong, self.table["cases"]), [])

    def test_a_missing_case_fails(self) -> None:
        expected = harness_cases((ROOT / "integration" / "gpu-harness" / "cases" /
                                  "Cases.cmake").read_text())
        self.assertEqual(check_table(self.table, expected), [])
        partial = dict(self.table, cases=self.table["cases"][1:])
        self.assertNotEqual(check_table(partial, expected), [])


if __name__ == "__main__":
    unittest.main()
