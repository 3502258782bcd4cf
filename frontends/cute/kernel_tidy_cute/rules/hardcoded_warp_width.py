"""cute-hardcoded-warp-width: the literal 32 (or 31, >> 5) in lane and warp
arithmetic on thread indices, where cute.arch.WARP_SIZE is meant."""

import ast
from typing import List, Optional

from ..context import Context
from ..findings import Edit, Finding, Fix
from ..model import UNIFORM, walk_own
from ..names import ARCH, constant_int

ID = "cute-hardcoded-warp-width"


def check(ctx: Context) -> List[Finding]:
    findings: List[Finding] = []
    warp_size = ctx.names.spelling(ARCH + ".WARP_SIZE")
    for fn in ctx.module.functions:
        varies = ctx.module.variation(fn)
        for node in walk_own(fn.node):
            if not isinstance(node, ast.BinOp):
                continue
            pairs = [(node.left, node.right)]
            if isinstance(node.op, (ast.Mult, ast.BitAnd)):
                pairs.append((node.right, node.left))
            for operand, literal in pairs:
                value = constant_int(literal)
                if value is None or ctx.module.expr_variation(operand, varies) == UNIFORM:
                    continue
                finding = _finding(ctx, node.op, literal, value, warp_size)
                if finding:
                    findings.append(finding)
                    break
    return findings


def _finding(ctx: Context, op: ast.operator, literal: ast.expr, value: int,
             warp_size: Optional[str]) -> Optional[Finding]:
    src = ctx.source
    begin, end = src.begin(literal), src.end(literal)
    if value == 32 and isinstance(op, (ast.FloorDiv, ast.Mod, ast.Mult)):
        what = {ast.FloorDiv: "warp index", ast.Mod: "lane index",
                ast.Mult: "warp offset"}[type(op)]
        replacement = warp_size
    elif value == 31 and isinstance(op, ast.BitAnd):
        what, replacement = "lane index", warp_size and f"({warp_size} - 1)"
    elif value == 5 and isinstance(op, ast.RShift):
        return Finding(ID, "literal warp width in '>> 5' on a thread index: write "
                           "'// cute.arch.WARP_SIZE' (or use cute.arch.warp_idx())",
                       begin, end,
                       no_fix_reason="'>>' and '//' differ for negative values; the rewrite "
                                     "is left to the author")
    else:
        return None
    literal_text = "literal warp width 32" if value == 32 else "literal 31 (warp width - 1)"
    finding = Finding(ID, f"{literal_text} in {what} arithmetic on a thread index: use "
                          "cute.arch.WARP_SIZE", begin, end)
    if replacement is None:
        finding.no_fix_reason = "nothing imported in this file leads to cutlass.cute.arch"
    else:
        # WARP_SIZE is the Python int 32 on every GPU the DSL targets: same value, same code.
        finding.fix = Fix([Edit(begin, end, replacement)])
    return finding
