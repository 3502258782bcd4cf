"""cute-contended-atomic: a per-thread atomic (cute.arch.atomic_add and the
other read-modify-write atomics) whose address is the same for every lane of a
warp: the lanes' atomics serialise on one counter. The C++ side's
luisa-warp-aggregated-atomic (the old value used: slot allocation) and
luisa-shared-atomic-counter (discarded: a counter) explain the one-atomic-per-
warp form. Reported without a fix (the reason is in NO_FIX)."""

import ast
import math
from typing import Dict, List, Optional, Sequence, Set, Tuple

from ..context import Context
from ..findings import Finding
from ..model import LANE_SOURCES, UNIFORM, WARP, WARP_SOURCES, Function
from ..variation import is_int_type
from ..names import ARCH, constant_int

ID = "cute-contended-atomic"
ATOMICS = {ARCH + "." + n: n for n in (
    "atomic_add", "atomic_and", "atomic_or", "atomic_xor", "atomic_max", "atomic_min",
    "atomic_fmax", "atomic_fmin")}
ATOMICS["cutlass.utils.distributed.atomicAdd"] = "atomicAdd"
ONE_THREAD = (ARCH + ".elect_one",)
# The value of a loop variable or of `x += ...`: a name nothing assigns, which
# _is_index counts as an index (unknown values never prove data).
NOT_KNOWN = ast.Name("<not known>", ast.Load())
NO_FIX = ("the exact rewrite hands each lane a slot from one atomic of the lanes that reach "
          "it (their count, their rank below it, a broadcast of the first lane's old "
          "value); cutlass.cute.arch's vote and shuffle collectives take a fixed lane mask "
          "rather than those lanes, so the rewrite is left to the author")


def check(ctx: Context) -> List[Finding]:
    findings: List[Finding] = []
    guarded: Dict[Function, Set[ast.Call]] = {}
    one_thread = _one_thread_kernels(ctx)
    for fn in ctx.module.functions:
        # The address is proven the same in a warp only where every value that
        # reaches the function is known: kernels and what they call.
        if not ctx.module.rooted(fn) or _called_by_one_lane(ctx, fn, guarded) \
                or fn in one_thread:
            continue
        for call, stmt, one_lane in _calls(ctx, fn):
            if not one_lane:
                finding = _atomic(ctx, fn, call, stmt)
                if finding is not None:
                    findings.append(finding)
    return findings


def _called_by_one_lane(ctx: Context, fn: Function,
                        guarded: Dict[Function, Set[ast.Call]]) -> bool:
    """Every call of fn in the module runs on at most one lane per warp."""
    calls = ctx.module.callers(fn)
    if fn.kind == "kernel" or not calls:
        return False
    for call, caller in calls:
        if caller is None:
            return False
        if caller not in guarded:
            guarded[caller] = {c for c, _, one in _calls(ctx, caller) if one}
        if call not in guarded[caller]:
            return False
    return True


def _one_thread_kernels(ctx: Context) -> Set[Function]:
    """The kernels the module launches, always with a block of one thread."""
    blocks: Dict[Function, List[Optional[int]]] = {}
    for call, caller in ctx.module.calls():
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "launch"
                and isinstance(call.func.value, ast.Call)):
            continue
        kernel = ctx.module.callee(call.func.value, caller)
        if kernel is None:
            continue
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        block = keywords.get("block")
        dims: List[ast.expr] = (block.elts if isinstance(block, (ast.List, ast.Tuple))
                                else [block] if block is not None else [])
        values = [ctx.module.int_value(d, caller) for d in dims] or [None]
        blocks.setdefault(kernel, []).append(
            None if None in values else math.prod(v or 0 for v in values))
    return {k for k, sizes in blocks.items() if all(b == 1 for b in sizes)}


Site = Tuple[ast.Call, ast.AST, bool]


def _calls(ctx: Context, fn: Function) -> List[Site]:
    """(call, its statement, whether at most one lane per warp runs it) for the
    calls of fn's own statements."""
    sites: List[Site] = []
    _walk(ctx, fn, fn.node.body, False, sites)
    return sites


def _walk(ctx: Context, fn: Function, stmts: Sequence[ast.stmt], one_lane: bool,
          sites: List[Site]) -> None:
    for stmt in stmts:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(stmt, ast.If):
            _scan(stmt.test, stmt, one_lane, sites)
            _walk(ctx, fn, stmt.body, one_lane or _one_lane_test(ctx, fn, stmt.test), sites)
            _walk(ctx, fn, stmt.orelse, one_lane, sites)
        elif isinstance(stmt, (ast.For, ast.While)):
            _scan(stmt.iter if isinstance(stmt, ast.For) else stmt.test, stmt, one_lane, sites)
            _walk(ctx, fn, stmt.body, one_lane, sites)
            _walk(ctx, fn, stmt.orelse, one_lane, sites)
        elif isinstance(stmt, ast.With):
            for item in stmt.items:
                _scan(item.context_expr, stmt, one_lane, sites)
            elected = any(ctx.names.call_of(i.context_expr, *ONE_THREAD) for i in stmt.items)
            _walk(ctx, fn, stmt.body, one_lane or elected, sites)
        elif isinstance(stmt, ast.Try):
            for block in [stmt.body, stmt.orelse, stmt.finalbody] + [h.body
                                                                     for h in stmt.handlers]:
                _walk(ctx, fn, block, one_lane, sites)
        else:
            _scan(stmt, stmt, one_lane, sites)


def _scan(root: ast.AST, stmt: ast.AST, one_lane: bool, sites: List[Site]) -> None:
    for node in ast.walk(root):
        if isinstance(node, ast.Call):
            sites.append((node, stmt, one_lane))


def _one_lane_test(ctx: Context, fn: Function, test: ast.expr, depth: int = 0) -> bool:
    """`i == c` where i is an index (tidx, lane, a parameter: not a value loaded
    from memory) and c the same in the warp; a conjunction with such a side; a
    name assigned once from one."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_one_lane_test(ctx, fn, v, depth) for v in test.values)
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        for index, other in ((test.left, test.comparators[0]),
                             (test.comparators[0], test.left)):
            if _is_index(ctx, fn, index, 0) and ctx.module.level(other, fn) <= WARP:
                return True
        return False
    if isinstance(test, ast.Name) and depth < 5:
        value = _single_value(ctx, fn, test.id)
        return value is not None and _one_lane_test(ctx, fn, value, depth + 1)
    return False


def _is_index(ctx: Context, fn: Function, node: ast.expr, depth: int) -> bool:
    """An index rather than data: thread and lane indices, parameters and names
    computed from them by arithmetic, never a load (a[i])."""
    if depth > 10 or isinstance(node, ast.Constant):
        return False
    if isinstance(node, ast.Name):
        # A parameter, or a name one of whose values is an index (a name only ever
        # loaded from memory, `x = keys[i]` in each loop, is data).
        values = _values(ctx, fn, node.id)
        return not values or any(_is_index(ctx, fn, v, depth + 1) for v in values)
    if isinstance(node, ast.Call):
        q = ctx.names.qualified(node.func) or ""
        if q in LANE_SOURCES + WARP_SOURCES:
            return True
        return (is_int_type(q) and len(node.args) == 1
                and _is_index(ctx, fn, node.args[0], depth + 1))
    if isinstance(node, ast.Subscript):  # thread_idx()[0]; anything else is a load.
        return ctx.names.call_of(node.value, *LANE_SOURCES)
    if isinstance(node, ast.BinOp):
        return any(_is_index(ctx, fn, side, depth + 1) for side in (node.left, node.right)) \
            and all(_is_index(ctx, fn, side, depth + 1) or isinstance(side, ast.Constant)
                    or ctx.module.level(side, fn) == UNIFORM for side in (node.left, node.right))
    return False


def _single_value(ctx: Context, fn: Function, name: str) -> Optional[ast.expr]:
    """The value of a name assigned exactly once in fn by `name = value`."""
    values = _values(ctx, fn, name)
    return values[0] if len(values) == 1 else None


def _values(ctx: Context, fn: Function, name: str) -> List[ast.expr]:
    """The values fn assigns to a name; a name of a tuple assignment (tidx, _, _ =
    ...) gives the whole value, a loop variable or an augmented one None."""
    return ctx.module.assigned_values(fn, NOT_KNOWN).get(name, [])


def _atomic(ctx: Context, fn: Function, call: ast.Call, stmt: ast.AST) -> Optional[Finding]:
    name = ATOMICS.get(ctx.names.qualified(call.func) or "")
    if name is None:
        return None
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    address = call.args[0] if call.args else keywords.get("ptr") or keywords.get("dst_ptr")
    value = call.args[1] if len(call.args) > 1 else keywords.get("val")
    if address is None or value is None or constant_int(_unwrapped(value)) == 0:
        return None  # atomic_add(p, 0): a coherent read, not a counter.
    if ctx.module.level(address, fn) > WARP:
        return None  # Lanes update different addresses (histogram bins, per-lane slots).
    used = not isinstance(stmt, ast.Expr) or stmt.value is not call
    src = ctx.source
    if used:
        message = (f"per-thread {name} on an address every lane of the warp shares, its old "
                   "value used: the lanes' atomics serialise on one counter; one atomic per "
                   "warp for the warp's total, each lane's slot from its rank among the lanes "
                   "that take part, gives the same counts")
    else:
        message = (f"per-thread {name} on an address every lane of the warp shares: the "
                   "lanes' atomics serialise on one counter; reduce over the warp first and "
                   "let one lane do the atomic")
    return Finding(ID, message, src.begin(call), src.end(call.func), no_fix_reason=NO_FIX)


def _unwrapped(node: ast.expr) -> ast.expr:
    """The argument of cutlass.Int32(0) and the like."""
    if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
        return node.args[0]
    return node
