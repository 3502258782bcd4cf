"""cute-divergent-barrier: a block barrier (cute.arch.sync_threads(),
cute.arch.barrier()) or a warp barrier (sync_warp()) under control flow that
differs between the threads it waits for: with the preprocessor on, such
`if`s and loops are device control flow, and the barrier hangs or is undefined."""

import ast
from typing import Iterator, List, Sequence, Tuple

from ..context import Context
from ..findings import Finding
from ..model import LANE, UNIFORM, WARP, Function, Variation
from ..names import ARCH

ID = "cute-divergent-barrier"
BLOCK_BARRIERS = (ARCH + ".sync_threads", ARCH + ".barrier")
WARP_BARRIERS = (ARCH + ".sync_warp",)
ONE_THREAD = (ARCH + ".elect_one",)

# The enclosing control flow that differs between threads: how, and which statement.
Guards = List[Tuple[Variation, ast.stmt]]


def check(ctx: Context) -> List[Finding]:
    findings: List[Finding] = []
    for fn in ctx.module.functions:
        _walk(ctx, fn, fn.node.body, [], findings)
    return findings


def _walk(ctx: Context, fn: Function, stmts: Sequence[ast.stmt], guards: Guards,
          findings: List[Finding]) -> None:
    """guards: (level, statement) of the enclosing thread-varying control flow."""
    for stmt in stmts:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for call in _calls_outside_nested_blocks(stmt):
            _check_call(ctx, call, guards, findings)
        if isinstance(stmt, (ast.If, ast.While)):
            level = ctx.module.level(stmt.test, fn)
            inner: Guards = guards + [(level, stmt)] if level != UNIFORM else guards
            _walk(ctx, fn, stmt.body, inner, findings)
            _walk(ctx, fn, stmt.orelse, inner, findings)
        elif isinstance(stmt, ast.For):
            level = ctx.module.level(stmt.iter, fn)
            inner = guards + [(level, stmt)] if level != UNIFORM else guards
            _walk(ctx, fn, stmt.body, inner, findings)
            _walk(ctx, fn, stmt.orelse, inner, findings)
        elif isinstance(stmt, ast.With):
            one = any(ctx.names.call_of(item.context_expr, *ONE_THREAD) for item in stmt.items)
            with_guards: Guards = guards + [(LANE, stmt)] if one else guards
            _walk(ctx, fn, stmt.body, with_guards, findings)
        elif isinstance(stmt, ast.Try):
            blocks = [stmt.body, stmt.orelse, stmt.finalbody] + [h.body for h in stmt.handlers]
            for block in blocks:
                _walk(ctx, fn, block, guards, findings)
        elif hasattr(ast, "Match") and isinstance(stmt, ast.Match):
            level = ctx.module.level(stmt.subject, fn)
            inner = guards + [(level, stmt)] if level != UNIFORM else guards
            for case in stmt.cases:
                _walk(ctx, fn, case.body, inner, findings)


def _calls_outside_nested_blocks(stmt: ast.stmt) -> Iterator[ast.Call]:
    """Calls of the statement itself (its test, its value), not of its inner blocks."""
    roots: List[ast.AST] = []
    if isinstance(stmt, (ast.If, ast.While)):
        roots = [stmt.test]
    elif isinstance(stmt, ast.For):
        roots = [stmt.iter]
    elif isinstance(stmt, ast.With):
        roots = [i.context_expr for i in stmt.items]
    elif isinstance(stmt, ast.Try) or (hasattr(ast, "Match") and isinstance(stmt, ast.Match)):
        roots = []
    else:
        roots = [stmt]
    for root in roots:
        for node in ast.walk(root):
            if isinstance(node, ast.Call):
                yield node


def _check_call(ctx: Context, call: ast.Call, guards: Guards, findings: List[Finding]) -> None:
    name = ctx.names.qualified(call.func)
    if name is None:
        return
    if name in BLOCK_BARRIERS:
        partial = name.endswith(".barrier") and any(
            k.arg == "number_of_threads" for k in call.keywords)
        # A named barrier for some warps (number_of_threads) may sit under a
        # warp-uniform branch: warp specialization. Lane-varying control never fits.
        threshold = LANE if partial else WARP
        scope = "the threads that take part in it" if partial else "every thread of the block"
    elif name in WARP_BARRIERS:
        threshold, scope = LANE, "every lane of the warp"
    else:
        return
    for level, guard in guards:
        if level >= threshold:
            barrier = name.rsplit(".", 1)[1] + "()"
            if isinstance(guard, ast.With):
                where = f"in 'with elect_one()' (line {guard.lineno}), which one thread runs"
            else:
                what = {ast.If: "an 'if'", ast.While: "a 'while' loop",
                        ast.For: "a 'for' loop"}.get(type(guard), "control flow")
                where = f"under {what} that depends on the thread index (line {guard.lineno})"
            findings.append(Finding(
                ID, f"{barrier} {where}: it must be reached by {scope}",
                ctx.source.begin(call), ctx.source.end(call),
                no_fix_reason="where the barrier belongs depends on what it protects"))
            return
