"""cute-launch-config: the keywords of `kernel(...).launch(...)` that the DSL
rejects at JIT time, or that the hardware cannot run."""

import ast
import math
from typing import List, Optional

from ..context import Context
from ..findings import Finding
from ..model import WARP_PRIMITIVES, Function, walk_own

ID = "cute-launch-config"
MAX_THREADS_PER_BLOCK = 1024  # Every CUDA GPU since compute capability 2.0.
NO_FIX = "which value was meant is the author's choice"


def check(ctx: Context) -> List[Finding]:
    findings: List[Finding] = []
    for call, caller in ctx.module.calls():
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "launch"
                and isinstance(call.func.value, ast.Call)):
            continue
        kernel = ctx.module.callee(call.func.value, caller)
        if kernel is None and not (caller and caller.context() == "jit"):
            continue  # Some other object's launch().
        if kernel is not None and kernel.kind != "kernel":
            continue
        findings.extend(_check_launch(ctx, call, kernel, caller))
    return findings


def _dims(node: ast.expr) -> Optional[List[ast.expr]]:
    """The elements of a literal list or tuple, else None."""
    if isinstance(node, (ast.List, ast.Tuple)) and not any(
            isinstance(e, ast.Starred) for e in node.elts):
        return node.elts
    return None


def _literal_non_int(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is not int


def _check_launch(ctx: Context, call: ast.Call, kernel: Optional[Function],
                  caller: Optional[Function]) -> List[Finding]:
    src = ctx.source
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    found: List[Finding] = []

    def report(node: ast.expr, message: str) -> None:
        found.append(Finding(ID, message, src.begin(node), src.end(node), no_fix_reason=NO_FIX))

    for name in ("grid", "block"):
        value = keywords.get(name)
        if value is None:
            continue
        elts = _dims(value)
        if elts is not None and not 1 <= len(elts) <= 3:
            report(value, f"'{name}' has {len(elts)} dimensions; the DSL takes one to three "
                          "integers")
        elif _literal_non_int(value) or (elts and any(_literal_non_int(e) for e in elts)):
            report(value, f"'{name}' must be integers (a list or tuple of one to three)")
    for name in ("cluster", "fallback_cluster", "max_number_threads"):
        value = keywords.get(name)
        if value is None or (isinstance(value, ast.Constant) and value.value is None):
            continue
        elts = _dims(value)
        if (elts is not None and len(elts) != 3) or isinstance(value, ast.Constant):
            count = (f"has {len(elts)} element{'' if len(elts) == 1 else 's'}"
                     if elts is not None else "is a scalar")
            report(value, f"'{name}' {count}; the DSL takes exactly three: [x, y, z]")
    if "fallback_cluster" in keywords and "cluster" not in keywords:
        report(keywords["fallback_cluster"],
               "'fallback_cluster' without 'cluster': the DSL rejects it; set the preferred "
               "'cluster' too")

    block = _literal_dims(ctx, keywords.get("block"), caller)
    if block is not None:
        threads = math.prod(block)
        if threads > MAX_THREADS_PER_BLOCK:
            report(keywords["block"], f"block of {threads} threads: a block has at most "
                                      f"{MAX_THREADS_PER_BLOCK} threads")
        elif threads % 32 and kernel is not None:
            primitive = _warp_primitive(ctx, kernel)
            if primitive is not None:
                report(keywords["block"],
                       f"block of {threads} threads is not a whole number of warps, but kernel "
                       f"'{kernel.name}' uses the warp-level '{primitive}': its last warp is "
                       "partial")
    grid = _literal_dims(ctx, keywords.get("grid"), caller)
    cluster = _literal_dims(ctx, keywords.get("cluster"), caller)
    if grid is not None and cluster is not None and len(cluster) == 3:
        grid3 = grid + [1] * (3 - len(grid))
        for axis, (g, c) in enumerate(zip(grid3, cluster)):
            if c > 0 and g % c:
                report(keywords["cluster"],
                       f"cluster dimension {'xyz'[axis]} = {c} does not divide grid dimension "
                       f"{'xyz'[axis]} = {g}")
                break
    return found


def _literal_dims(ctx: Context, node: Optional[ast.expr],
                  caller: Optional[Function]) -> Optional[List[int]]:
    """[x, y, z] when a launch dimension is constant: literals, module constants,
    values the class sets once in __init__ (self.threads_per_cta = 32 * len(ids))."""
    if node is None:
        return None
    value = ctx.module.int_value(node, caller)
    if value is not None:
        return [value]
    elts = _dims(node)
    if elts is None or not 1 <= len(elts) <= 3:
        return None
    values = [ctx.module.int_value(e, caller) for e in elts]
    known = [v for v in values if v is not None]
    return known if len(known) == len(values) else None


def _warp_primitive(ctx: Context, kernel: Function) -> Optional[str]:
    for node in walk_own(kernel.node):
        if isinstance(node, ast.Call):
            name = ctx.names.qualified(node.func)
            if name is not None and name in WARP_PRIMITIVES:
                return name.rsplit(".", 1)[1]
    return None
