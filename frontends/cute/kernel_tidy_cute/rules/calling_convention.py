"""cute-calling-convention: a @cute.kernel is launched from @cute.jit code,
never called from plain Python nor from another kernel (the DSL raises an
error when it is)."""

from ..findings import Finding

ID = "cute-calling-convention"


def check(ctx):
    module = ctx.module
    plain_reached = _plain_functions_run_as_python(module)
    findings = []
    for call, caller in module.calls():
        target = module.callee(call, caller)
        if target is None or target.kind != "kernel":
            continue
        where = caller.context() if caller else "plain"
        reason = ("the launch needs a @cute.jit host function and its grid and block, "
                  "which only the author knows")
        if where == "kernel":
            reason = "whether the callee becomes a device function is the author's design"
            message = ("@cute.kernel '%s' is called from @cute.kernel '%s': a kernel cannot "
                       "call a kernel; make '%s' a plain or @cute.jit device function"
                       % (target.name, _top(caller).name, target.name))
        elif where == "plain" and (caller is None or caller in plain_reached):
            message = ("@cute.kernel '%s' is called from plain Python%s: kernels are launched "
                       "from a @cute.jit function, `%s(...).launch(grid=..., block=...)`"
                       % (target.name, " ('%s')" % caller.name if caller else " (module level)",
                          target.name))
        else:
            continue
        findings.append(Finding(ID, message, ctx.source.begin(call), ctx.source.end(call.func),
                                no_fix_reason=reason))
    return findings


def _top(fn):
    while fn.kind == "plain" and fn.parent is not None:
        fn = fn.parent
    return fn


def _plain_functions_run_as_python(module):
    """Plain functions this module calls from plain Python (module level or
    other such functions) and never from @cute.jit or kernel code. A plain
    function that the module never calls may be a helper that another
    module's @cute.jit calls: it is not one of them."""
    from_python, from_dsl = set(), set()
    for call, caller in module.calls():
        target = module.callee(call, caller)
        if target is None or target.kind != "plain" or target.parent is not None:
            continue
        (from_dsl if caller is not None and caller.context() != "plain" else
         from_python).add((target, caller))
    dsl_reached = {t for t, _ in from_dsl}
    reached = set()
    frontier = [t for t, c in from_python if c is None]
    while frontier:
        fn = frontier.pop()
        if fn in reached or fn in dsl_reached:
            continue
        reached.add(fn)
        frontier.extend(t for t, c in from_python if c is fn)
    return reached
