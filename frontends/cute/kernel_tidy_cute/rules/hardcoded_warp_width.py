"""cute-hardcoded-warp-width: the literal 32 (or 31, >> 5), also spelled as a
DSL integer (cutlass.Int32(32)), in lane and warp arithmetic on thread indices,
where cute.arch.WARP_SIZE is meant. A thread or lane index passed to a helper
or a lambda of the module is followed there. A multiplied 32 is the warp width
only where it scales a warp index back to a thread index (warp * 32 + lane)."""

import ast
from typing import Dict, Iterator, List, Optional

from ..context import Context
from ..findings import Edit, Finding, Fix
from ..model import THREADISH, UNIFORM, Function, walk_own
from ..names import ARCH, constant_int
from ..variation import dsl_int_literal

ID = "cute-hardcoded-warp-width"


def check(ctx: Context) -> List[Finding]:
    findings: List[Finding] = []
    warp_size = ctx.names.spelling(ARCH + ".WARP_SIZE")
    for fn in ctx.module.functions:
        parents: Dict[ast.AST, ast.AST] = {}
        binops = [n for n in _walk_with_lambdas(fn, parents) if isinstance(n, ast.BinOp)]
        for node in binops:
            pairs = [(node.left, node.right)]
            if isinstance(node.op, (ast.Mult, ast.BitAnd)):
                pairs.append((node.right, node.left))
            for operand, spelled in pairs:
                literal = dsl_int_literal(ctx.names, spelled)
                value = constant_int(literal)
                if literal is None or value is None or \
                        ctx.module.level(operand, fn) == UNIFORM:
                    continue
                if isinstance(node.op, ast.Mult):
                    if not _scales_warp_index(ctx, fn, node, operand, parents):
                        continue
                elif ctx.module.index_role(operand, fn) not in THREADISH:
                    continue  # A row or element index: its 32 is a tile size.
                finding = _finding(ctx, node.op, literal, literal is not spelled, value,
                                   warp_size)
                if finding:
                    findings.append(finding)
                    break
    return findings


def _walk_with_lambdas(fn: Function, parents: Dict[ast.AST, ast.AST]) -> Iterator[ast.AST]:
    """fn's own nodes and those of its lambdas (which its analysis covers), with
    each node's parent recorded."""
    stack: List[ast.AST] = [fn.node]
    while stack:
        node = stack.pop()
        if node is not fn.node:
            yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                parents[child] = node
                stack.append(child)


def _scales_warp_index(ctx: Context, fn: Function, product: ast.BinOp, operand: ast.expr,
                       parents: Dict[ast.AST, ast.AST]) -> bool:
    """warp * 32 added to a lane index (directly, or through a name assigned once)."""
    if ctx.module.index_role(operand, fn) != "warp":
        return False
    parent = parents.get(product)
    if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Add):
        other = parent.right if parent.left is product else parent.left
        return ctx.module.index_role(other, fn) in ("lane", "lane_idx")
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and \
            isinstance(parent.targets[0], ast.Name):
        name = parent.targets[0].id
        for node in walk_own(fn.node):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
                for mine, other in ((node.left, node.right), (node.right, node.left)):
                    if isinstance(mine, ast.Name) and mine.id == name and \
                            ctx.module.index_role(other, fn) in ("lane", "lane_idx"):
                        return True
    return False


def _finding(ctx: Context, op: ast.operator, literal: ast.expr, in_call: bool, value: int,
             warp_size: Optional[str]) -> Optional[Finding]:
    src = ctx.source
    begin, end = src.begin(literal), src.end(literal)
    if value == 32 and isinstance(op, (ast.FloorDiv, ast.Mod, ast.Mult)):
        what = {ast.FloorDiv: "warp index", ast.Mod: "lane index",
                ast.Mult: "warp offset"}[type(op)]
        replacement = warp_size
    elif value == 31 and isinstance(op, ast.BitAnd):
        minus_one = warp_size and f"{warp_size} - 1"
        what, replacement = "lane index", minus_one if in_call else minus_one and f"({minus_one})"
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
        # WARP_SIZE is the Python int 32 on every GPU the DSL targets: same value, same
        # code; in cutlass.Int32(32) only the literal changes.
        finding.fix = Fix([Edit(begin, end, replacement)])
    return finding
