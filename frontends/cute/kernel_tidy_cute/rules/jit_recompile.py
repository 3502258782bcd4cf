"""cute-jit-recompile: compilation repeated in a loop: a @cute.jit function
called with no_cache=True (a fresh compilation per call), or cute.compile(...)
on arguments the loop does not change (the same executor each time)."""

import ast
from typing import Iterator, List, Optional, Sequence, Set, Union

from ..context import Context
from ..findings import Edit, Finding, Fix
from ..model import assigned_names
from ..names import CUTE

ID = "cute-jit-recompile"
Loop = Union[ast.For, ast.While]


def check(ctx: Context) -> List[Finding]:
    findings: List[Finding] = []
    loops: List[Loop] = [n for n in ctx.source.nodes() if isinstance(n, (ast.For, ast.While))]
    for loop in reversed(loops):  # Inner loops first: a call is reported at its innermost loop.
        changed = assigned_names(loop.body + loop.orelse) | _assigned_attributes(loop.body)
        if isinstance(loop, ast.For):
            changed |= _names(loop.target)
        for stmt in loop.body:
            for call in _own_calls(stmt):
                if ctx.names.call_of(call, CUTE + ".compile"):
                    finding = _hoistable_compile(ctx, loop, stmt, call, changed)
                    if finding:
                        findings.append(finding)
                elif _no_cache_call(ctx, call):
                    findings.append(Finding(
                        ID, f"@cute.jit '{ctx.source.text(call.func)}' is called with "
                            "no_cache=True in a loop: it is compiled again on every iteration; "
                            "compile it once with cute.compile(...) before the loop and call "
                            "the result",
                        ctx.source.begin(call), ctx.source.end(call.func),
                        no_fix_reason="the compiled executor's arguments are chosen by the "
                                      "author (cute.compile takes example arguments)"))
    return _innermost_first(findings)


def _innermost_first(findings: List[Finding]) -> List[Finding]:
    seen: Set[int] = set()
    result: List[Finding] = []
    for f in findings:
        if f.begin not in seen:  # A call in nested loops: reported once, at the inner one.
            seen.add(f.begin)
            result.append(f)
    return sorted(result, key=lambda f: f.begin)


def _names(node: ast.AST) -> Set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _own_calls(stmt: ast.stmt) -> Iterator[ast.Call]:
    """Calls in the statement, loops inside it included (they are in this loop too),
    nested function bodies excluded."""
    stack: List[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Call):
            yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
                                      ast.ClassDef)):
                stack.append(child)


def _no_cache_call(ctx: Context, call: ast.Call) -> bool:
    for k in call.keywords:
        if k.arg == "no_cache" and isinstance(k.value, ast.Constant) and k.value.value is True:
            target = ctx.module.callee(call, ctx.module.enclosing.get(call))
            return target is not None and target.kind == "jit"
    return False


def _invariant(node: ast.expr, changed: Set[str]) -> bool:
    """Whether an argument is the same on every iteration: literals and names the
    loop does not assign (attributes and calls may change behind its back)."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Name):
        return node.id not in changed
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_invariant(e, changed) for e in node.elts)
    return False


def _hoistable_compile(ctx: Context, loop: Loop, stmt: ast.stmt, call: ast.Call,
                       changed: Set[str]) -> Optional[Finding]:
    args = list(call.args) + [k.value for k in call.keywords]
    if (any(isinstance(a, ast.Starred) for a in call.args)
            or any(k.arg is None for k in call.keywords)):
        return None
    if not all(_invariant(a, changed) or _attribute_of_unchanged(a, changed) for a in args):
        return None  # Compiling other arguments each time: autotuning, not a repeat.
    src = ctx.source
    finding = Finding(ID, "cute.compile(...) in a loop on arguments the loop does not change: "
                          "it compiles the same kernel on every iteration; compile once before "
                          "the loop", src.begin(call), src.end(call.func))
    reason = _hoist_blocker(ctx, loop, stmt, call, args, changed)
    if reason:
        finding.no_fix_reason = reason
        return finding
    fix = _hoist(ctx, loop, stmt)
    finding.fix = fix
    if not _runs_at_least_once(ctx, loop):
        fix.safe = False
        fix.reason = ("the loop may run no iteration: then the hoisted cute.compile "
                      "runs (and may raise) where it did not")
    return finding


def _assigned_attributes(stmts: Sequence[ast.stmt]) -> Set[str]:
    """`a.b` as 'a.b' for the attributes the statements assign."""
    stored = [n for s in stmts for n in ast.walk(s)
              if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)]
    return {d for d in (_dotted(n) for n in stored) if d}


def _dotted(node: ast.AST) -> Optional[str]:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def _attribute_of_unchanged(node: ast.expr, changed: Set[str]) -> bool:
    """`a.b.c` where the loop neither rebinds `a` nor assigns `a.b` or `a.b.c` (calls in
    the loop may still change it: reported without a fix)."""
    dotted = _dotted(node)
    if not isinstance(node, ast.Attribute) or dotted is None:
        return False
    if any(dotted == c or dotted.startswith(c + ".") for c in changed):
        return False
    base: ast.expr = node
    while isinstance(base, ast.Attribute):
        base = base.value
    return isinstance(base, ast.Name) and base.id not in changed


def _hoist_blocker(ctx: Context, loop: Loop, stmt: ast.stmt, call: ast.Call,
                   args: List[ast.expr], changed: Set[str]) -> str:
    src = ctx.source
    if not all(_invariant(a, changed) for a in args):
        return "an argument is an attribute, which the loop may change"
    if not (isinstance(stmt, ast.Assign) and stmt.value is call and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)):
        return "only a statement 'name = cute.compile(...)' directly in the loop is hoisted"
    target = stmt.targets[0].id
    others = [s for s in loop.body if s is not stmt]
    if target in assigned_names(others) or _names(loop.target if isinstance(loop, ast.For)
                                                  else loop.test) & {target}:
        return f"'{target}' is assigned elsewhere in the loop"
    if not others:
        return "the loop does nothing else"
    if loop.body.index(stmt) and target in _names_loaded(loop.body[:loop.body.index(stmt)]):
        return f"'{target}' is read earlier in the loop"
    if not src.only_code_on_lines(stmt) or stmt.lineno == loop.lineno:
        return "the statement shares its lines with other code"
    return ""


def _names_loaded(stmts: Sequence[ast.stmt]) -> Set[str]:
    return {n.id for s in stmts for n in ast.walk(s)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _runs_at_least_once(ctx: Context, loop: Loop) -> bool:
    if not isinstance(loop, ast.For):
        return False
    it = loop.iter
    if isinstance(it, (ast.List, ast.Tuple)):
        return bool(it.elts)
    if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
        values: List[int] = [a.value for a in it.args
                             if isinstance(a, ast.Constant) and type(a.value) is int]
        if (len(values) == len(it.args) and 1 <= len(values) <= 3
                and (len(values) < 3 or values[2])):
            return len(range(*values)) > 0
    return False


def _hoist(ctx: Context, loop: Loop, stmt: ast.stmt) -> Fix:
    """Moves the statement's lines (with their comments) above the loop."""
    src = ctx.source
    loop_indent = src.indentation(loop.lineno)
    body_indent = src.indentation(stmt.lineno)
    last = stmt.end_lineno or stmt.lineno
    lines = [src.line_text(n) for n in range(stmt.lineno, last + 1)]
    if not src.line_break(last):
        lines[-1] += src.line_break(loop.lineno) or "\n"
    moved = "".join(loop_indent + line[len(body_indent):] if line.startswith(body_indent)
                    else line for line in lines)
    first = stmt.lineno
    # Comment lines right above the statement belong to it.
    while first - 1 > loop.lineno and src.line_text(first - 1).strip().startswith("#"):
        first -= 1
        text = src.line_text(first)
        moved = (loop_indent + text[len(body_indent):] if text.startswith(body_indent)
                 else text) + moved
    loop_start = src.offset(loop.lineno, 0)
    return Fix([Edit(loop_start, loop_start, moved),
                Edit(src.offset(first, 0), src.line_end(last), "")])
