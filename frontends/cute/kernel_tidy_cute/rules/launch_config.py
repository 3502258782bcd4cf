"""cute-launch-config: the keywords of `kernel(...).launch(...)` that the DSL
rejects at JIT time, or that the hardware cannot run."""

import ast
import math

from ..findings import Finding
from ..model import WARP_PRIMITIVES, walk_own
from ..names import constant_int

ID = "cute-launch-config"
MAX_THREADS_PER_BLOCK = 1024  # Every CUDA GPU since compute capability 2.0.
NO_FIX = "which value was meant is the author's choice"


def check(ctx):
    findings = []
    for call, caller in ctx.module.calls():
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "launch"
                and isinstance(call.func.value, ast.Call)):
            continue
        kernel = ctx.module.callee(call.func.value, caller)
        if kernel is None and not (caller and caller.context() == "jit"):
            continue  # Some other object's launch().
        if kernel is not None and kernel.kind != "kernel":
            continue
        findings.extend(_check_launch(ctx, call, kernel))
    return findings


def _dims(node):
    """The elements of a literal list or tuple, else None."""
    if isinstance(node, (ast.List, ast.Tuple)) and not any(
            isinstance(e, ast.Starred) for e in node.elts):
        return node.elts
    return None


def _literal_non_int(node):
    return isinstance(node, ast.Constant) and type(node.value) is not int


def _check_launch(ctx, call, kernel):
    src = ctx.source
    keywords = {k.arg: k.value for k in call.keywords if k.arg}
    found = []

    def report(node, message):
        found.append(Finding(ID, message, src.begin(node), src.end(node), no_fix_reason=NO_FIX))

    for name in ("grid", "block"):
        value = keywords.get(name)
        if value is None:
            continue
        elts = _dims(value)
        if elts is not None and not 1 <= len(elts) <= 3:
            report(value, "'%s' has %d dimensions; the DSL takes one to three integers"
                   % (name, len(elts)))
        elif _literal_non_int(value) or (elts and any(_literal_non_int(e) for e in elts)):
            report(value, "'%s' must be integers (a list or tuple of one to three)" % name)
    for name in ("cluster", "fallback_cluster", "max_number_threads"):
        value = keywords.get(name)
        if value is None or (isinstance(value, ast.Constant) and value.value is None):
            continue
        elts = _dims(value)
        if (elts is not None and len(elts) != 3) or isinstance(value, ast.Constant):
            count = ("has %d element%s" % (len(elts), "" if len(elts) == 1 else "s")
                     if elts is not None else "is a scalar")
            report(value, "'%s' %s; the DSL takes exactly three: [x, y, z]" % (name, count))
    if "fallback_cluster" in keywords and "cluster" not in keywords:
        report(keywords["fallback_cluster"],
               "'fallback_cluster' without 'cluster': the DSL rejects it; set the preferred "
               "'cluster' too")

    block = _literal_dims(keywords.get("block"))
    if block is not None:
        threads = math.prod(block)
        if threads > MAX_THREADS_PER_BLOCK:
            report(keywords["block"], "block of %d threads: a block has at most %d threads"
                   % (threads, MAX_THREADS_PER_BLOCK))
        elif threads % 32 and kernel is not None:
            primitive = _warp_primitive(ctx, kernel)
            if primitive is not None:
                report(keywords["block"],
                       "block of %d threads is not a whole number of warps, but kernel '%s' "
                       "uses the warp-level '%s': its last warp is partial"
                       % (threads, kernel.name, primitive))
    grid = _literal_dims(keywords.get("grid"))
    cluster = _literal_dims(keywords.get("cluster"))
    if grid is not None and cluster is not None and len(cluster) == 3:
        grid3 = grid + [1] * (3 - len(grid))
        for axis, (g, c) in enumerate(zip(grid3, cluster)):
            if c > 0 and g % c:
                report(keywords["cluster"],
                       "cluster dimension %s = %d does not divide grid dimension %s = %d"
                       % ("xyz"[axis], c, "xyz"[axis], g))
                break
    return found


def _literal_dims(node):
    """[x, y, z] when a launch dimension is written as integer literals."""
    if node is None:
        return None
    value = constant_int(node)
    if value is not None:
        return [value]
    elts = _dims(node)
    if elts is None or not 1 <= len(elts) <= 3:
        return None
    values = [constant_int(e) for e in elts]
    return values if all(v is not None for v in values) else None


def _warp_primitive(ctx, kernel):
    for node in walk_own(kernel.node):
        if isinstance(node, ast.Call):
            name = ctx.names.qualified(node.func)
            if name in WARP_PRIMITIVES:
                return name.rsplit(".", 1)[1]
    return None
