"""cute-butterfly-reduction: a hand-written XOR butterfly over the whole warp
(`shuffle_sync_bfly` with offsets 16, 8, 4, 2, 1) that combines a value with
an operation `redux.sync` has -> one `cute.arch.warp_redux_sync`."""

import ast
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from ..context import Context
from ..findings import Edit, Finding, Fix
from ..model import Function, FunctionNode, element_type, walk_own
from ..names import ARCH, constant_int

ID = "cute-butterfly-reduction"
FULL_WARP_OFFSETS = [1, 2, 4, 8, 16]
INT32_TYPES = ("Int32", "Uint32")
BINARY_KINDS = {ast.Add: "add", ast.BitAnd: "and", ast.BitOr: "or", ast.BitXor: "xor"}
CALL_KINDS = {"max": "max", "min": "min", "cutlass.max": "max", "cutlass.min": "min",
              ARCH + ".fmax": "fmax", ARCH + ".fmin": "fmin"}
RANGES = ("cutlass.range", "cutlass.range_constexpr", "cutlass.range_dynamic",
          "cutlass.cute.range", "cutlass.cute.range_constexpr")
FLOAT_SM100 = ("redux.sync on Float32 needs an sm_100a (Blackwell) or newer GPU; "
               "on older GPUs the kernel no longer compiles")


@dataclass
class Step:
    """One combining step `v = op(v, shuffle_sync_bfly(v, offset=K))`, written in one
    statement or in two through a temporary."""
    var: str
    kind: str  # The reduction: "add", "max", "fmin", ...
    offset: ast.expr
    count: int  # Statements it takes.
    temp: Optional[str] = None


@dataclass
class Butterfly:
    """Five steps over offsets 1 to 16 of one variable: a loop or unrolled statements."""
    var: str
    kind: str
    first: ast.stmt
    last: ast.stmt
    count: int  # Statements of the enclosing list it takes.
    names: List[str] = field(default_factory=list)  # Loop variables and temporaries.


def check(ctx: Context) -> List[Finding]:
    findings: List[Finding] = []
    for fn in ctx.module.functions:
        for body in _statement_lists(fn.node):
            i = 0
            while i < len(body):
                match = _loop_butterfly(ctx, body[i]) or _unrolled_butterfly(ctx, body, i)
                if match is None:
                    i += 1
                    continue
                finding = _finding(ctx, fn, match)
                if finding is not None:
                    findings.append(finding)
                i += match.count
    return findings


def _statement_lists(fn_node: FunctionNode) -> Iterator[List[ast.stmt]]:
    yield fn_node.body
    for node in walk_own(fn_node):
        for name in ("body", "orelse", "finalbody"):
            stmts = getattr(node, name, None)
            if isinstance(stmts, list) and stmts and isinstance(stmts[0], ast.stmt):
                yield stmts
        if isinstance(node, ast.Try):
            for handler in node.handlers:
                yield handler.body


# One combining step: v = op(v, shuffle_sync_bfly(v, offset=K)) ----------------

def _shuffle(ctx: Context, node: ast.AST) -> Optional[Tuple[str, ast.expr]]:
    """(value name, offset expression) of a full-warp shuffle_sync_bfly call, else None."""
    if not isinstance(node, ast.Call) or not ctx.names.call_of(node, ARCH + ".shuffle_sync_bfly"):
        return None
    args = list(node.args)
    if any(k.arg is None for k in node.keywords):
        return None
    kw: Dict[str, ast.expr] = {k.arg: k.value for k in node.keywords if k.arg is not None}
    names = ["value", "offset", "mask", "mask_and_clamp"]
    if len(args) > len(names):
        return None
    for name, arg in zip(names, args):
        kw[name] = arg
    value, offset = kw.get("value"), kw.get("offset")
    if not isinstance(value, ast.Name) or offset is None:
        return None
    if "mask" in kw and _int(ctx, kw["mask"], {}) not in (-1, 0xFFFFFFFF) and \
            not ctx.names.is_(kw["mask"], ARCH + ".FULL_MASK", "cutlass.cute.arch.FULL_MASK"):
        return None
    if "mask_and_clamp" in kw and _int(ctx, kw["mask_and_clamp"], {}) != 31:
        return None  # Segments of the warp (threads_in_group style groupings).
    if set(kw) - set(names):
        return None
    return value.id, offset


def _combine(ctx: Context, value: ast.expr, var: str) -> Optional[Tuple[str, ast.expr]]:
    """The reduction kind of `op(var, other)` / `var OP other`, and the other operand."""
    if isinstance(value, ast.BinOp) and type(value.op) in BINARY_KINDS:
        pair = [value.left, value.right]
        kind = BINARY_KINDS[type(value.op)]
    elif isinstance(value, ast.Call) and len(value.args) == 2 and not value.keywords:
        name = ctx.names.qualified(value.func) or (
            value.func.id if isinstance(value.func, ast.Name) else None)
        if name not in CALL_KINDS:
            return None
        pair, kind = list(value.args), CALL_KINDS[name]
    else:
        return None
    for own, other in (pair, pair[::-1]):
        if isinstance(own, ast.Name) and own.id == var:
            return kind, other
    return None


def _step(ctx: Context, stmts: Sequence[ast.stmt], i: int) -> Optional[Step]:
    """The combining step that starts at stmts[i]."""
    s = stmts[i]
    if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) \
            and type(s.op) in BINARY_KINDS:
        shuffle = _shuffle(ctx, s.value)
        if shuffle and shuffle[0] == s.target.id:
            return Step(s.target.id, BINARY_KINDS[type(s.op)], shuffle[1], 1)
    var = _single_name_assigned(s)
    if var is not None and isinstance(s, ast.Assign):
        combined = _combine(ctx, s.value, var)
        if combined:
            shuffle = _shuffle(ctx, combined[1])
            if shuffle and shuffle[0] == var:
                return Step(var, combined[0], shuffle[1], 1)
        shuffle = _shuffle(ctx, s.value)
        if shuffle and i + 1 < len(stmts) and shuffle[0] != var:
            temp, var = var, shuffle[0]
            n = stmts[i + 1]
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) \
                    and n.target.id == var and type(n.op) in BINARY_KINDS \
                    and isinstance(n.value, ast.Name) and n.value.id == temp:
                return Step(var, BINARY_KINDS[type(n.op)], shuffle[1], 2, temp)
            if _single_name_assigned(n) == var and isinstance(n, ast.Assign):
                combined = _combine(ctx, n.value, var)
                if combined and isinstance(combined[1], ast.Name) and combined[1].id == temp:
                    return Step(var, combined[0], shuffle[1], 2, temp)
    return None


def _single_name_assigned(s: ast.stmt) -> Optional[str]:
    """The name of `name = ...`, else None."""
    if isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name):
        return s.targets[0].id
    return None


def _int(ctx: Context, node: ast.expr, env: Dict[str, int]) -> Optional[int]:
    """The integer value of a constant expression (loop variables from env)."""
    value = constant_int(node)
    if value is not None:
        return value
    if isinstance(node, ast.Name) and node.id in env:
        return env[node.id]
    if ctx.names.is_(node, ARCH + ".WARP_SIZE"):
        return 32
    if isinstance(node, ast.BinOp):
        left, right = _int(ctx, node.left, env), _int(ctx, node.right, env)
        if left is None or right is None:
            return None
        ops: Dict[type, Callable[[int, int], Optional[int]]] = {
               ast.LShift: lambda a, b: a << b if 0 <= b < 64 else None,
               ast.RShift: lambda a, b: a >> b if 0 <= b < 64 else None,
               ast.Pow: lambda a, b: a ** b if 0 <= b < 64 else None,
               ast.Mult: lambda a, b: a * b, ast.Add: lambda a, b: a + b,
               ast.Sub: lambda a, b: a - b,
               ast.FloorDiv: lambda a, b: a // b if b else None}
        op = ops.get(type(node.op))
        return op(left, right) if op else None
    return None


# Loops and unrolled sequences ---------------------------------------------------

def _known(values: List[Optional[int]]) -> Optional[List[int]]:
    """values, when none is unknown."""
    known = [v for v in values if v is not None]
    return known if len(known) == len(values) else None


def _loop_values(ctx: Context, node: ast.expr) -> Optional[List[int]]:
    """The values a for-loop's iterable yields when they are constant."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return _known([_int(ctx, e, {}) for e in node.elts])
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "reversed" and len(node.args) == 1:
        values = _loop_values(ctx, node.args[0])
        return values[::-1] if values is not None else None
    if isinstance(node, ast.Call) and (
            (isinstance(node.func, ast.Name) and node.func.id == "range")
            or ctx.names.qualified(node.func) in RANGES):
        args = _known([_int(ctx, a, {}) for a in node.args])
        if args is None or not 1 <= len(args) <= 3 or (len(args) == 3 and args[2] == 0):
            return None
        return list(range(*args))
    return None


def _loop_butterfly(ctx: Context, loop: ast.stmt) -> Optional[Butterfly]:
    if not isinstance(loop, ast.For) or loop.orelse or not isinstance(loop.target, ast.Name):
        return None
    step = _step(ctx, loop.body, 0)
    if step is None or step.count != len(loop.body):
        return None
    values = _loop_values(ctx, loop.iter)
    if values is None:
        return None
    index = loop.target.id
    offsets = [_int(ctx, step.offset, {index: v}) for v in values]
    if sorted(o for o in offsets if o is not None) != FULL_WARP_OFFSETS or None in offsets:
        return None
    return Butterfly(step.var, step.kind, loop, loop, 1,
                     [index] + ([step.temp] if step.temp else []))


def _unrolled_butterfly(ctx: Context, stmts: List[ast.stmt], i: int) -> Optional[Butterfly]:
    j = i
    offsets: List[int] = []
    temps: List[str] = []
    first: Optional[Step] = None
    while j < len(stmts) and len(offsets) < 5:
        step = _step(ctx, stmts, j)
        if step is None or (first is not None and (step.var, step.kind) !=
                            (first.var, first.kind)):
            break
        offset = _int(ctx, step.offset, {})
        if offset is None:
            break
        first = first or step
        offsets.append(offset)
        if step.temp:
            temps.append(step.temp)
        j += step.count
    if first is None or sorted(offsets) != FULL_WARP_OFFSETS:
        return None
    return Butterfly(first.var, first.kind, stmts[i], stmts[j - 1], j - i, temps)


# The finding and its fix ------------------------------------------------------

def _finding(ctx: Context, fn: Function, match: Butterfly) -> Optional[Finding]:
    var, kind = match.var, match.kind
    first, last = match.first, match.last
    vtype = element_type(ctx.names, fn, var)
    if kind in ("fmax", "fmin"):
        if vtype not in (None, "Float32"):
            return None  # cute.arch.fmax on another type: not a reduction redux.sync has.
        vtype = "Float32"
    redux_kind = {"fmax": "fmax", "fmin": "fmin"}.get(kind, kind)
    if vtype == "Float32" and kind in ("max", "min"):
        redux_kind = "f" + kind
    src = ctx.source
    what = f"full-warp butterfly reduction of '{var}' ({kind}) with shuffle_sync_bfly"
    finding = Finding(ID, "", src.begin(first), src.end(last))
    if vtype in INT32_TYPES or (vtype == "Float32" and redux_kind in ("fmax", "fmin")):
        finding.message = f"{what}: one cute.arch.warp_redux_sync({var}, \"{redux_kind}\") does it"
        spelled = ctx.names.spelling(ARCH + ".warp_redux_sync")
        reason = _fix_blocker(ctx, fn, match)
        if spelled is None:
            finding.no_fix_reason = "nothing imported in this file leads to cutlass.cute.arch"
        elif reason:
            finding.no_fix_reason = reason
        else:
            fix = Fix(_replace(ctx, first, last, f"{var} = {spelled}({var}, \"{redux_kind}\")"))
            if vtype == "Float32":
                fix.safe, fix.reason = False, FLOAT_SM100
            finding.fix = fix
        return finding
    if vtype == "Float32" and kind == "add":
        finding.message = (f"{what}: redux.sync has no Float32 add, so there is no "
                           "one-instruction replacement; keep it, or sum 32-bit integers")
        finding.no_fix_reason = "redux.sync reduces Float32 only with min and max"
        return finding
    also = " and Float32 min/max" if kind in ("max", "min") else ""
    finding.message = (f"{what}: cute.arch.warp_redux_sync({var}, \"{redux_kind}\") does it "
                       f"in one instruction for 32-bit integers{also}")
    finding.no_fix_reason = (f"the type of '{var}' is not visible (annotate it, e.g. "
                             f"'{var}: cutlass.Int32')" if vtype is None else
                             f"'{var}' is {vtype}: redux.sync reduces 32-bit integers and Float32")
    if vtype is not None:
        return None  # A type redux.sync does not reduce at all: nothing better to offer.
    return finding


def _fix_blocker(ctx: Context, fn: Function, match: Butterfly) -> str:
    first, last = match.first, match.last
    src = ctx.source
    if not (src.only_code_on_lines(first) and src.only_code_on_lines(last)):
        return "the butterfly shares its lines with other code"
    span = (src.begin(first), src.end(last))
    rebinding = _rebinding_spans(ctx, fn, match.names)
    for node in walk_own(fn.node):
        if isinstance(node, ast.Name) and node.id in match.names \
                and isinstance(node.ctx, ast.Load):
            at = src.begin(node)
            if not span[0] <= at < span[1] and not any(
                    b <= at < e for name, b, e in rebinding if name == node.id):
                return f"'{node.id}' is used outside the butterfly"
    return ""


def _rebinding_spans(ctx: Context, fn: Function,
                     names: List[str]) -> List[Tuple[str, int, int]]:
    """(name, begin, end) of the loops and comprehensions that bind one of names
    afresh: a use inside them reads their own binding."""
    spans: List[Tuple[str, int, int]] = []
    for node in walk_own(fn.node):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) \
                and node.target.id in names:
            spans.append((node.target.id, ctx.source.begin(node), ctx.source.end(node)))
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            for gen in node.generators:
                if isinstance(gen.target, ast.Name) and gen.target.id in names:
                    spans.append((gen.target.id, ctx.source.begin(node), ctx.source.end(node)))
    return spans


def _replace(ctx: Context, first: ast.stmt, last: ast.stmt, statement: str) -> List[Edit]:
    """Edits replacing the statements first..last (whole lines) with one statement;
    their comments are kept, each on a line of its own above it."""
    src = ctx.source
    indent = src.indentation(first.lineno)
    begin = src.offset(first.lineno, 0)
    last_line = last.end_lineno or last.lineno
    end = src.line_end(last_line)
    # The file's own line break (CR LF, a lone CR, LF; none on the last line).
    newline = src.line_break(last_line)
    text = "".join(indent + c[2] + (newline or "\n")
                   for c in src.comments_between(first.lineno, last_line))
    return [Edit(begin, end, text + indent + statement + newline)]
