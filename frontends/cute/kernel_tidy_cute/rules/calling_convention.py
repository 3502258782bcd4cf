"""cute-calling-convention: a @cute.kernel is launched from @cute.jit code,
never called from plain Python nor from another kernel (the DSL raises an
error when it is)."""

from typing import List, Optional, Set, Tuple

from ..context import Context
from ..findings import Finding
from ..model import Function, Module

ID = "cute-calling-convention"


def check(ctx: Context) -> List[Finding]:
    module = ctx.module
    plain_reached = _plain_functions_run_as_python(module)
    findings: List[Finding] = []
    for call, caller in module.calls():
        target = module.callee(call, caller)
        if target is None or target.kind != "kernel":
            continue
        where = caller.context() if caller else "plain"
        reason = ("the launch needs a @cute.jit host function and its grid and block, "
                  "which only the author knows")
        if where == "kernel" and caller is not None:
            reason = "whether the callee becomes a device function is the author's design"
            message = (f"@cute.kernel '{target.name}' is called from @cute.kernel "
                       f"'{_top(caller).name}': a kernel cannot call a kernel; make "
                       f"'{target.name}' a plain or @cute.jit device function")
        elif where == "plain" and (caller is None or caller in plain_reached):
            place = f" ('{caller.name}')" if caller else " (module level)"
            message = (f"@cute.kernel '{target.name}' is called from plain Python{place}: "
                       "kernels are launched from a @cute.jit function, "
                       f"`{target.name}(...).launch(grid=..., block=...)`")
        else:
            continue
        findings.append(Finding(ID, message, ctx.source.begin(call), ctx.source.end(call.func),
                                no_fix_reason=reason))
    return findings


def _top(fn: Function) -> Function:
    while fn.kind == "plain" and fn.parent is not None:
        fn = fn.parent
    return fn


def _plain_functions_run_as_python(module: Module) -> Set[Function]:
    """Plain functions this module calls from plain Python (module level or
    other such functions) and never from @cute.jit or kernel code. A plain
    function that the module never calls may be a helper that another
    module's @cute.jit calls: it is not one of them."""
    from_python: Set[Tuple[Function, Optional[Function]]] = set()
    from_dsl: Set[Tuple[Function, Optional[Function]]] = set()
    for call, caller in module.calls():
        target = module.callee(call, caller)
        if target is None or target.kind != "plain" or target.parent is not None:
            continue
        (from_dsl if caller is not None and caller.context() != "plain" else
         from_python).add((target, caller))
    dsl_reached = {t for t, _ in from_dsl}
    reached: Set[Function] = set()
    frontier = [t for t, c in from_python if c is None]
    while frontier:
        fn = frontier.pop()
        if fn in reached or fn in dsl_reached:
            continue
        reached.add(fn)
        frontier.extend(t for t, c in from_python if c is fn)
    return reached
