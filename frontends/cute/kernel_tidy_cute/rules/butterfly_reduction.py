"""cute-butterfly-reduction: a hand-written XOR butterfly over the whole warp
(`shuffle_sync_bfly` with offsets 16, 8, 4, 2, 1) that combines a value with
an operation `redux.sync` has -> one `cute.arch.warp_redux_sync`."""

import ast

from ..findings import Edit, Finding, Fix
from ..model import element_type, walk_own
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


def check(ctx):
    findings = []
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
                i += match["count"]
    return findings


def _statement_lists(fn_node):
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

def _shuffle(ctx, node):
    """(value name, offset expression) of a full-warp shuffle_sync_bfly call, else None."""
    if not ctx.names.call_of(node, ARCH + ".shuffle_sync_bfly"):
        return None
    args = list(node.args)
    kw = {k.arg: k.value for k in node.keywords}
    if None in kw:
        return None
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


def _combine(ctx, value, var):
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


def _step(ctx, stmts, i):
    """A step starting at stmts[i]: (var, kind, offset expr, statement count, temp name)."""
    s = stmts[i]
    if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) \
            and type(s.op) in BINARY_KINDS:
        shuffle = _shuffle(ctx, s.value)
        if shuffle and shuffle[0] == s.target.id:
            return s.target.id, BINARY_KINDS[type(s.op)], shuffle[1], 1, None
    if _single_name_assign(s):
        var = s.targets[0].id
        combined = _combine(ctx, s.value, var)
        if combined:
            shuffle = _shuffle(ctx, combined[1])
            if shuffle and shuffle[0] == var:
                return var, combined[0], shuffle[1], 1, None
        shuffle = _shuffle(ctx, s.value)
        if shuffle and i + 1 < len(stmts) and shuffle[0] != var:
            temp, var = var, shuffle[0]
            n = stmts[i + 1]
            if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) \
                    and n.target.id == var and type(n.op) in BINARY_KINDS \
                    and isinstance(n.value, ast.Name) and n.value.id == temp:
                return var, BINARY_KINDS[type(n.op)], shuffle[1], 2, temp
            if _single_name_assign(n) and n.targets[0].id == var:
                combined = _combine(ctx, n.value, var)
                if combined and isinstance(combined[1], ast.Name) and combined[1].id == temp:
                    return var, combined[0], shuffle[1], 2, temp
    return None


def _single_name_assign(s):
    return isinstance(s, ast.Assign) and len(s.targets) == 1 and isinstance(s.targets[0], ast.Name)


def _int(ctx, node, env):
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
        ops = {ast.LShift: lambda a, b: a << b if 0 <= b < 64 else None,
               ast.RShift: lambda a, b: a >> b if 0 <= b < 64 else None,
               ast.Pow: lambda a, b: a ** b if 0 <= b < 64 else None,
               ast.Mult: lambda a, b: a * b, ast.Add: lambda a, b: a + b,
               ast.Sub: lambda a, b: a - b,
               ast.FloorDiv: lambda a, b: a // b if b else None}
        op = ops.get(type(node.op))
        return op(left, right) if op else None
    return None


# Loops and unrolled sequences ---------------------------------------------------

def _loop_values(ctx, node):
    """The values a for-loop's iterable yields when they are constant."""
    if isinstance(node, (ast.List, ast.Tuple)):
        values = [_int(ctx, e, {}) for e in node.elts]
        return values if None not in values else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "reversed" and len(node.args) == 1:
        values = _loop_values(ctx, node.args[0])
        return values[::-1] if values is not None else None
    if isinstance(node, ast.Call) and (
            (isinstance(node.func, ast.Name) and node.func.id == "range")
            or ctx.names.qualified(node.func) in RANGES):
        args = [_int(ctx, a, {}) for a in node.args]
        if None in args or not 1 <= len(args) <= 3 or (len(args) == 3 and args[2] == 0):
            return None
        return list(range(*args))
    return None


def _loop_butterfly(ctx, loop):
    if not isinstance(loop, ast.For) or loop.orelse or not isinstance(loop.target, ast.Name):
        return None
    step = _step(ctx, loop.body, 0)
    if step is None or step[3] != len(loop.body):
        return None
    values = _loop_values(ctx, loop.iter)
    if values is None:
        return None
    offsets = [_int(ctx, step[2], {loop.target.id: v}) for v in values]
    if sorted(o for o in offsets if o is not None) != FULL_WARP_OFFSETS or None in offsets:
        return None
    return {"var": step[0], "kind": step[1], "first": loop, "last": loop, "count": 1,
            "names": [loop.target.id] + ([step[4]] if step[4] else [])}


def _unrolled_butterfly(ctx, stmts, i):
    j, offsets, kind, var, temps = i, [], None, None, []
    while j < len(stmts) and len(offsets) < 5:
        step = _step(ctx, stmts, j)
        if step is None or (var is not None and (step[0], step[1]) != (var, kind)):
            break
        offset = _int(ctx, step[2], {})
        if offset is None:
            break
        var, kind = step[0], step[1]
        offsets.append(offset)
        if step[4]:
            temps.append(step[4])
        j += step[3]
    if sorted(offsets) != FULL_WARP_OFFSETS:
        return None
    return {"var": var, "kind": kind, "first": stmts[i], "last": stmts[j - 1],
            "count": j - i, "names": temps}


# The finding and its fix ------------------------------------------------------

def _finding(ctx, fn, match):
    var, kind = match["var"], match["kind"]
    first, last = match["first"], match["last"]
    vtype = element_type(ctx.names, fn, var)
    if kind in ("fmax", "fmin"):
        if vtype not in (None, "Float32"):
            return None  # cute.arch.fmax on another type: not a reduction redux.sync has.
        vtype = "Float32"
    redux_kind = {"fmax": "fmax", "fmin": "fmin"}.get(kind, kind)
    if vtype == "Float32" and kind in ("max", "min"):
        redux_kind = "f" + kind
    src = ctx.source
    what = "full-warp butterfly reduction of '%s' (%s) with shuffle_sync_bfly" % (var, kind)
    finding = Finding(ID, "", src.begin(first), src.end(last))
    if vtype in INT32_TYPES or (vtype == "Float32" and redux_kind in ("fmax", "fmin")):
        finding.message = "%s: one cute.arch.warp_redux_sync(%s, \"%s\") does it" % (
            what, var, redux_kind)
        spelled = ctx.names.spelling(ARCH + ".warp_redux_sync")
        reason = _fix_blocker(ctx, fn, match)
        if spelled is None:
            finding.no_fix_reason = "nothing imported in this file leads to cutlass.cute.arch"
        elif reason:
            finding.no_fix_reason = reason
        else:
            fix = Fix(_replace(ctx, first, last, "%s = %s(%s, \"%s\")" % (
                var, spelled, var, redux_kind)))
            if vtype == "Float32":
                fix.safe, fix.reason = False, FLOAT_SM100
            finding.fix = fix
        return finding
    if vtype == "Float32" and kind == "add":
        finding.message = ("%s: redux.sync has no Float32 add, so there is no one-instruction "
                           "replacement; keep it, or sum 32-bit integers" % what)
        finding.no_fix_reason = "redux.sync reduces Float32 only with min and max"
        return finding
    finding.message = "%s: cute.arch.warp_redux_sync(%s, \"%s\") does it in one instruction " \
                      "for 32-bit integers%s" % (
                          what, var, redux_kind,
                          " and Float32 min/max" if kind in ("max", "min") else "")
    finding.no_fix_reason = ("the type of '%s' is not visible (annotate it, e.g. "
                             "'%s: cutlass.Int32')" % (var, var) if vtype is None else
                             "'%s' is %s: redux.sync reduces 32-bit integers and Float32"
                             % (var, vtype))
    if vtype is not None:
        return None  # A type redux.sync does not reduce at all: nothing better to offer.
    return finding


def _fix_blocker(ctx, fn, match):
    first, last = match["first"], match["last"]
    src = ctx.source
    if not (src.only_code_on_lines(first) and src.only_code_on_lines(last)):
        return "the butterfly shares its lines with other code"
    span = (src.begin(first), src.end(last))
    rebinding = _rebinding_spans(ctx, fn, match["names"])
    for node in walk_own(fn.node):
        if isinstance(node, ast.Name) and node.id in match["names"] \
                and isinstance(node.ctx, ast.Load):
            at = src.begin(node)
            if not span[0] <= at < span[1] and not any(
                    b <= at < e for name, b, e in rebinding if name == node.id):
                return "'%s' is used outside the butterfly" % node.id
    return ""


def _rebinding_spans(ctx, fn, names):
    """(name, begin, end) of the loops and comprehensions that bind one of names
    afresh: a use inside them reads their own binding."""
    spans = []
    for node in walk_own(fn.node):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) \
                and node.target.id in names:
            spans.append((node.target.id, ctx.source.begin(node), ctx.source.end(node)))
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            for gen in node.generators:
                if isinstance(gen.target, ast.Name) and gen.target.id in names:
                    spans.append((gen.target.id, ctx.source.begin(node), ctx.source.end(node)))
    return spans


def _replace(ctx, first, last, statement):
    """Edits replacing the statements first..last (whole lines) with one statement;
    their comments are kept, each on a line of its own above it."""
    src = ctx.source
    indent = src.indentation(first.lineno)
    begin = src.offset(first.lineno, 0)
    end = src.line_end(last.end_lineno)
    # The file's own line break (CR LF, a lone CR, LF; none on the last line).
    newline = src.line_break(last.end_lineno)
    text = "".join(indent + c[2] + (newline or "\n")
                   for c in src.comments_between(first.lineno, last.end_lineno))
    return [Edit(begin, end, text + indent + statement + newline)]
