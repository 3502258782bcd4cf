"""cute-jit-recompile: compilation repeated in a loop: a @cute.jit function
called with no_cache=True (a fresh compilation per call), or cute.compile(...)
on arguments the loop does not change (the same executor each time); and a
hand-written compile cache whose key leaves out a value the compiled kernel is
built from (a call differing only there reuses the wrong kernel)."""

import ast
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Set, Union

from ..context import Context
from ..findings import Edit, Finding, Fix
from ..model import Function, assigned_names, walk_own
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
    return _innermost_first(findings) + _cache_keys(ctx)


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


# Hand-written compile caches: cache[key] = cute.compile(Kernel(a, b), ...) ----------

def _cache_keys(ctx: Context) -> List[Finding]:
    findings: List[Finding] = []
    for fn in ctx.module.functions:
        values = _single_values(fn)
        for node in walk_own(fn.node):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Subscript)):
                continue
            compiled = node.value
            if isinstance(compiled, ast.Name):
                compiled = values.get(compiled.id, compiled)
            if not ctx.names.call_of(compiled, CUTE + ".compile"):
                continue
            assert isinstance(compiled, ast.Call)
            finding = _incomplete_key(ctx, fn, node.targets[0], compiled, values)
            if finding is not None:
                findings.append(finding)
    return findings


def _incomplete_key(ctx: Context, fn: Function, store: ast.Subscript, compiled: ast.Call,
                    values: Dict[str, ast.expr]) -> Optional[Finding]:
    key: ast.AST = store.slice
    if isinstance(key, ast.Name):
        key = values.get(key.id, key)
    if not isinstance(key, (ast.Tuple, ast.Call)):
        return None  # A key computed elsewhere: its parts are not visible.
    kernel = compiled.args[0] if compiled.args else None
    # The kernel object: its constructor call, or every one a name is assigned in
    # the branches that choose it.
    every = _all_values(fn)
    kernels: List[ast.expr] = []
    if isinstance(kernel, ast.Call):
        kernels = [kernel]
    elif isinstance(kernel, ast.Name):
        kernels = every.get(kernel.id, [])
    if not kernels or not all(isinstance(k, ast.Call) for k in kernels):
        return None
    params = {a.arg for a in fn.node.args.posonlyargs + fn.node.args.args +
              fn.node.args.kwonlyargs} - {"self", "cls"}
    built_from = _sources([a for k in kernels if isinstance(k, ast.Call)
                           for a in k.args + [w.value for w in k.keywords]], every)
    keyed = _sources([key], every)
    missing = sorted((built_from & params) - keyed)
    if not missing:
        return None
    names = ", ".join(f"'{m}'" for m in missing)
    src = ctx.source
    return Finding(
        ID, f"compile cache key {src.text(key)} leaves out {names}, which the compiled kernel "
            f"is built from ({_constructor(src.text, kernels[0])}): a call that differs only "
            "there "
            "reuses a kernel compiled for another value", src.begin(store), src.end(store),
        no_fix_reason="which values belong in the key is the author's choice")


def _all_values(fn: Function) -> Dict[str, List[ast.expr]]:
    """Local names of fn with all the values `name = value` assigns them."""
    values: Dict[str, List[ast.expr]] = {}
    for node in walk_own(fn.node):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name):
            values.setdefault(node.targets[0].id, []).append(node.value)
    return values


def _single_values(fn: Function) -> Dict[str, ast.expr]:
    """Local names of fn assigned exactly once, by `name = value`."""
    counts: Dict[str, int] = {}
    values: Dict[str, ast.expr] = {}
    for node in walk_own(fn.node):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            counts[node.id] = counts.get(node.id, 0) + 1
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name):
            values[node.targets[0].id] = node.value
    return {n: v for n, v in values.items() if counts.get(n) == 1}


def _sources(exprs: Sequence[ast.AST], values: Dict[str, List[ast.expr]]) -> Set[str]:
    """The names the expressions read, through the values of the local names."""
    seen: Set[str] = set()
    stack = [n.id for e in exprs for n in ast.walk(e) if isinstance(n, ast.Name)]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        for value in values.get(name, []):
            stack.extend(n.id for n in ast.walk(value) if isinstance(n, ast.Name))
    return seen


def _constructor(text: Callable[[ast.AST], str], call: ast.expr) -> str:
    return f"{text(call.func)}(...)" if isinstance(call, ast.Call) else "its constructor"
