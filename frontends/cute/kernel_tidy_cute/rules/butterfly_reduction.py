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
    """Five steps over offsets 1 to 16 of one variable, or of several reduced
    side by side in one loop: a for or while loop, or unrolled statements."""
    var: str
    kind: str
    first: ast.stmt
    last: ast.stmt
    count: int  # Statements of the enclosing list it takes.
    names: List[str] = field(default_factory=list)  # Loop variables and temporaries.
    others: List[Tuple[str, str]] = field(default_factory=list)  # Further (var, kind).


def check(ctx: Context) -> List[Finding]:
    findings: List[Finding] = []
    for fn in ctx.module.functions:
        for body in _statement_lists(fn.node):
            i = 0
            while i < len(body):
                match = (_loop_butterfly(ctx, fn, body[i]) or _while_butterfly(ctx, fn, body, i)
                         or _unrolled_butterfly(ctx, fn, body, i))
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

def _shuffle(ctx: Context, fn: Function, node: ast.AST) -> Optional[Tuple[str, ast.expr]]:
    """(value name, offset expression) of a full-warp shuffle_sync_bfly call, or of a
    shuffle_sync from lane `lane ^ offset` (the same exchange), else None."""
    if not isinstance(node, ast.Call):
        return None
    bfly = ctx.names.call_of(node, ARCH + ".shuffle_sync_bfly")
    if not bfly and not ctx.names.call_of(node, ARCH + ".shuffle_sync"):
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
    if not bfly:
        if not (isinstance(offset, ast.BinOp) and isinstance(offset.op, ast.BitXor)):
            return None
        for lane, other in ((offset.left, offset.right), (offset.right, offset.left)):
            # lane_idx() itself: tidx % 32 is the lane only where rows are whole warps.
            if ctx.module.index_role(lane, fn) == "lane_idx":
                return value.id, other
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


def _step(ctx: Context, fn: Function, stmts: Sequence[ast.stmt], i: int) -> Optional[Step]:
    """The combining step that starts at stmts[i]."""
    s = stmts[i]
    if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) \
            and type(s.op) in BINARY_KINDS:
        shuffle = _shuffle(ctx, fn, s.value)
        if shuffle and shuffle[0] == s.target.id:
            return Step(s.target.id, BINARY_KINDS[type(s.op)], shuffle[1], 1)
    var = _single_name_assigned(s)
    if var is not None and isinstance(s, ast.Assign):
        combined = _combine(ctx, s.value, var)
        if combined:
            shuffle = _shuffle(ctx, fn, combined[1])
            if shuffle and shuffle[0] == var:
                return Step(var, combined[0], shuffle[1], 1)
        shuffle = _shuffle(ctx, fn, s.value)
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


def _body_steps(ctx: Context, fn: Function, body: List[ast.stmt]) -> Optional[List[Step]]:
    """The steps that make up a loop body exactly, one per variable, else None."""
    steps: List[Step] = []
    j = 0
    while j < len(body):
        step = _step(ctx, fn, body, j)
        if step is None or any(s.var == step.var for s in steps):
            return None
        steps.append(step)
        j += step.count
    return steps or None


def _loop_butterfly(ctx: Context, fn: Function, loop: ast.stmt) -> Optional[Butterfly]:
    if not isinstance(loop, ast.For) or loop.orelse or not isinstance(loop.target, ast.Name):
        return None
    steps = _body_steps(ctx, fn, loop.body)
    values = _loop_values(ctx, loop.iter)
    if steps is None or values is None:
        return None
    index = loop.target.id
    for step in steps:
        offsets = [_int(ctx, step.offset, {index: v}) for v in values]
        if None in offsets or sorted(o for o in offsets if o is not None) != FULL_WARP_OFFSETS:
            return None
    return _several(steps, loop, loop, 1, [index])


def _several(steps: List[Step], first: ast.stmt, last: ast.stmt, count: int,
             names: List[str]) -> Butterfly:
    temps = [s.temp for s in steps if s.temp]
    return Butterfly(steps[0].var, steps[0].kind, first, last, count, names + temps,
                     [(s.var, s.kind) for s in steps[1:]])


def _while_butterfly(ctx: Context, fn: Function, stmts: List[ast.stmt],
                     i: int) -> Optional[Butterfly]:
    """`off = 16` then `while off >= 1:` (or `> 0`) with the steps and a halving
    `off //= 2` (`off = off // 2`, `off >>= 1`) as its last statement."""
    if i + 1 >= len(stmts):
        return None
    init, loop = stmts[i], stmts[i + 1]
    var = _single_name_assigned(init)
    if var is None or not isinstance(init, ast.Assign) or not isinstance(loop, ast.While) \
            or loop.orelse or len(loop.body) < 2:
        return None
    start = ctx.module.int_value(init.value, fn)
    test = loop.test
    if start is None or not (isinstance(test, ast.Compare) and len(test.ops) == 1
                             and isinstance(test.left, ast.Name) and test.left.id == var):
        return None
    bound = _int(ctx, test.comparators[0], {})
    if not ((isinstance(test.ops[0], ast.GtE) and bound == 1)
            or (isinstance(test.ops[0], ast.Gt) and bound == 0)):
        return None
    if not _halves(loop.body[-1], var):
        return None
    steps = _body_steps(ctx, fn, loop.body[:-1])
    if steps is None or any(not (isinstance(s.offset, ast.Name) and s.offset.id == var)
                            for s in steps):
        return None
    offsets: List[int] = []
    value = start
    while value >= 1 and len(offsets) <= len(FULL_WARP_OFFSETS):
        offsets.append(value)
        value //= 2
    if sorted(offsets) != FULL_WARP_OFFSETS:
        return None
    return _several(steps, init, loop, 2, [var])


def _halves(stmt: ast.stmt, var: str) -> bool:
    """off //= 2, off >>= 1, off = off // 2, off = off >> 1."""
    if isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) \
            and stmt.target.id == var:
        op, amount = stmt.op, constant_int(stmt.value)
    elif _single_name_assigned(stmt) == var and isinstance(stmt, ast.Assign) \
            and isinstance(stmt.value, ast.BinOp) and isinstance(stmt.value.left, ast.Name) \
            and stmt.value.left.id == var:
        op, amount = stmt.value.op, constant_int(stmt.value.right)
    else:
        return False
    return (isinstance(op, ast.FloorDiv) and amount == 2) or (
        isinstance(op, ast.RShift) and amount == 1)


def _unrolled_butterfly(ctx: Context, fn: Function, stmts: List[ast.stmt],
                        i: int) -> Optional[Butterfly]:
    j = i
    offsets: List[int] = []
    temps: List[str] = []
    first: Optional[Step] = None
    while j < len(stmts) and len(offsets) < 5:
        step = _step(ctx, fn, stmts, j)
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

@dataclass
class Plan:
    """What one reduced variable becomes: its redux.sync kind when it has one."""
    var: str
    kind: str
    redux_kind: str
    vtype: Optional[str]
    literal: bool  # The type is only that of a Python literal it starts from.

    @property
    def reducible(self) -> bool:
        return self.vtype in INT32_TYPES or (self.vtype == "Float32" and
                                             self.redux_kind in ("fmax", "fmin"))


def _plan(ctx: Context, fn: Function, var: str, kind: str) -> Optional[Plan]:
    vtype = element_type(ctx.names, fn, var)
    literal = False
    if vtype is None and _starts_from_float_literal(fn, var):
        vtype, literal = "Float32", True  # A Python float is a Float32 in the DSL.
    if kind in ("fmax", "fmin"):
        if vtype not in (None, "Float32"):
            return None  # cute.arch.fmax on another type: not a reduction redux.sync has.
        vtype = "Float32"
    redux_kind = kind
    if vtype == "Float32" and kind in ("max", "min"):
        redux_kind = "f" + kind
    return Plan(var, kind, redux_kind, vtype, literal)


def _starts_from_float_literal(fn: Function, var: str) -> bool:
    """Every plain assignment of var outside its own updates is a float literal."""
    found = False
    for node in walk_own(fn.node):
        if isinstance(node, ast.Assign) and any(var in _target_names(t) for t in node.targets):
            if isinstance(node.value, ast.Constant) and type(node.value.value) is float:
                found = True
            elif not (isinstance(node.value, (ast.BinOp, ast.Call)) and any(
                    isinstance(n, ast.Name) and n.id == var for n in ast.walk(node.value))):
                return False
    return found


def _target_names(target: ast.AST) -> List[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for e in target.elts for n in _target_names(e)]
    return []


def _finding(ctx: Context, fn: Function, match: Butterfly) -> Optional[Finding]:
    plans = [_plan(ctx, fn, v, k) for v, k in [(match.var, match.kind)] + match.others]
    known = [p for p in plans if p is not None]
    if not known:
        return None
    first, last = match.first, match.last
    src = ctx.source
    shuffle = "shuffle_sync_bfly" if any(
        ctx.names.call_of(n, ARCH + ".shuffle_sync_bfly")
        for stmt in _statements(match) for n in ast.walk(stmt)) else "shuffle_sync"
    subject = ", ".join(f"'{p.var}' ({p.kind})" for p in known)
    what = f"full-warp butterfly reduction of {subject} with {shuffle}"
    finding = Finding(ID, "", src.begin(first), src.end(last))
    if len(known) > 1 or len(plans) > 1:
        return _several_finding(ctx, fn, match, plans, what, finding)
    plan = known[0]
    var, redux_kind, vtype = plan.var, plan.redux_kind, plan.vtype
    if plan.reducible:
        finding.message = f"{what}: one cute.arch.warp_redux_sync({var}, \"{redux_kind}\") does it"
        reason = _fix_blocker(ctx, fn, match, [plan])
        if reason:
            finding.no_fix_reason = reason
        else:
            fix = Fix(_replace(ctx, first, last, [_redux(ctx, plan)]))
            if vtype == "Float32":
                fix.safe, fix.reason = False, FLOAT_SM100
            finding.fix = fix
        return finding
    if vtype == "Float32" and plan.kind == "add":
        finding.message = (f"{what}: redux.sync has no Float32 add, so there is no "
                           "one-instruction replacement; keep it")
        finding.no_fix_reason = "redux.sync reduces Float32 only with min and max"
        return finding
    also = " and Float32 min/max" if plan.kind in ("max", "min") else ""
    finding.message = (f"{what}: cute.arch.warp_redux_sync({var}, \"{redux_kind}\") does it "
                       f"in one instruction for 32-bit integers{also}")
    if vtype is not None:
        return None  # A type redux.sync does not reduce at all: nothing better to offer.
    finding.no_fix_reason = _unknown_type(var)
    return finding


def _unknown_type(var: str) -> str:
    return (f"the type of '{var}' is not visible; where it is a 32-bit integer, saying so "
            f"(e.g. '{var}: cutlass.Int32') lets the tool rewrite it")


def _several_finding(ctx: Context, fn: Function, match: Butterfly,
                     plans: List[Optional[Plan]], what: str, finding: Finding) -> Finding:
    """Several values reduced in one loop: one warp_redux_sync each, when all have one."""
    known = [p for p in plans if p is not None]
    finding.message = (f"{what}: one cute.arch.warp_redux_sync per value does it where "
                       "redux.sync has the reduction (32-bit integers, Float32 min/max)")
    blocker = next((p for p in plans if p is None or not p.reducible), None)
    if blocker is not None:
        if blocker.vtype is None:
            finding.no_fix_reason = _unknown_type(blocker.var)
        elif blocker.vtype == "Float32" and blocker.kind == "add":
            finding.no_fix_reason = (f"'{blocker.var}' is a Float32 sum: redux.sync reduces "
                                     "Float32 only with min and max")
            finding.message = (f"{what}: redux.sync has no Float32 add, so there is no "
                               "one-instruction replacement for all of them; keep it")
        else:
            finding.no_fix_reason = (f"'{blocker.var}' is {blocker.vtype}: redux.sync reduces "
                                     "32-bit integers and Float32")
        return finding
    reason = _fix_blocker(ctx, fn, match, known)
    if reason:
        finding.no_fix_reason = reason
        return finding
    fix = Fix(_replace(ctx, match.first, match.last, [_redux(ctx, p) for p in known]))
    if any(p.vtype == "Float32" for p in known):
        fix.safe, fix.reason = False, FLOAT_SM100
    finding.fix = fix
    return finding


def _redux(ctx: Context, plan: Plan) -> str:
    spelled = ctx.names.spelling(ARCH + ".warp_redux_sync")
    return f"{plan.var} = {spelled}({plan.var}, \"{plan.redux_kind}\")"


def _statements(match: Butterfly) -> List[ast.stmt]:
    return [match.first, match.last]


def _fix_blocker(ctx: Context, fn: Function, match: Butterfly, plans: List[Plan]) -> str:
    first, last = match.first, match.last
    src = ctx.source
    if ctx.names.spelling(ARCH + ".warp_redux_sync") is None:
        return "nothing imported in this file leads to cutlass.cute.arch"
    literal = next((p for p in plans if p.literal), None)
    if literal is not None:
        return (f"'{literal.var}' is a Float32 only through the Python float it starts "
                "from; the tool does not rewrite on that")
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


def _replace(ctx: Context, first: ast.stmt, last: ast.stmt, statements: List[str]) -> List[Edit]:
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
    body = (newline or "\n").join(indent + s for s in statements)
    return [Edit(begin, end, text + body + newline)]
