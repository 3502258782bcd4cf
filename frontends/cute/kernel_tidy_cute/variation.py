"""How values differ between the threads of a block, flow-sensitively: each
assignment gives its names the level of its value at that point, control-flow
merges join, loops run to a fixed point, and a name assigned under control
that differs between threads differs too. Every expression evaluated is
recorded with its level, so a rule asks about a node where it stands."""

import ast
import enum
from typing import Callable, Dict, FrozenSet, List, Optional, Set

from .names import ARCH, Names, constant_int


class Variation(enum.IntEnum):
    """How a value differs between the threads of a block (ordered: a join is max)."""
    UNIFORM = 0  # The same in every thread.
    WARP = 1  # Uniform in a warp, varies between the warps of a block.
    LANE = 2  # Varies between the lanes of a warp.


UNIFORM, WARP, LANE = Variation.UNIFORM, Variation.WARP, Variation.LANE

LANE_SOURCES = tuple(ARCH + "." + n for n in (
    "thread_idx", "lane_idx", "lanemask_lt", "lanemask_le", "lanemask_eq", "lanemask_ge",
    "lanemask_gt"))
WARP_SOURCES = tuple(ARCH + "." + n for n in ("warp_idx", "physical_warp_id"))
# Results that every lane of the warp shares, whatever their operands: the hint
# make_warp_uniform, and the full-warp collectives.
WARP_RESULTS = tuple(ARCH + "." + n for n in (
    "make_warp_uniform", "warp_redux_sync", "vote_ballot_sync", "vote_any_sync",
    "vote_all_sync", "vote_uni_sync", "activemask"))
# warp_reduction's result is the warp's when threads_in_group is the whole warp.
GROUP_REDUCTIONS = tuple(ARCH + "." + n for n in (
    "warp_reduction", "warp_reduction_sum", "warp_reduction_max"))
LANE_SHUFFLES = tuple(ARCH + "." + n for n in (
    "shuffle_sync_bfly", "shuffle_sync_up", "shuffle_sync_down"))

# The shape of a per-thread tensor (a partition by thread_idx) is the same in
# every thread: what these return does not vary even when their argument does.
SHAPE_QUERIES = tuple("cutlass.cute." + n for n in (
    "size", "rank", "depth", "cosize", "shape", "size_in_bytes", "make_layout"))
SHAPE_ATTRIBUTES = ("shape", "layout", "element_type", "stride", "memspace")
# cutlass.Int32(32): how the DSL spells an integer constant (the types are also
# exported by cutlass.cute.typing, cutlass.cutlass_dsl...).
INT_NAMES = ("Int8", "Int16", "Int32", "Int64", "Uint8", "Uint16", "Uint32", "Uint64")


def is_int_type(qualified: Optional[str]) -> bool:
    """cutlass.Int32, cutlass.cute.typing.Int32, cutlass.cutlass_dsl.Uint32..."""
    return qualified is not None and qualified.startswith("cutlass.") \
        and qualified.rsplit(".", 1)[1] in INT_NAMES


Env = Dict[str, Variation]
Lookup = Callable[[ast.Name], Variation]
ReturnsOf = Callable[[ast.Call, List[Variation], Dict[str, Variation]], Optional[Variation]]


def dsl_int_literal(names: Names, node: Optional[ast.AST]) -> Optional[ast.expr]:
    """The integer literal of `32` or of its DSL spelling `cutlass.Int32(32)`, else None."""
    if constant_int(node) is not None:
        assert isinstance(node, ast.expr)
        return node
    if (isinstance(node, ast.Call) and is_int_type(names.qualified(node.func))
            and len(node.args) == 1 and not node.keywords and constant_int(node.args[0])
            is not None):
        return node.args[0]
    return None


def bound_names(target: ast.AST) -> List[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for e in target.elts for n in bound_names(e)]
    if isinstance(target, ast.Starred):
        return bound_names(target.value)
    return []


StoredMemo = Dict[ast.AST, FrozenSet[str]]


def stored_names(stmts: List[ast.stmt], memo: Optional[StoredMemo] = None) -> Set[str]:
    """Names the statements bind (outside nested functions, whose names are their own).
    memo: each statement's names, shared by those who ask about the same tree (nested
    ifs and loops ask about their bodies at every level: one walk of each statement)."""
    memo = {} if memo is None else memo
    found: Set[str] = set()
    for stmt in stmts:
        found |= _stored_in(stmt, memo)
    return found


def _stored_in(stmt: ast.stmt, memo: StoredMemo) -> FrozenSet[str]:
    known = memo.get(stmt)
    if known is not None:
        return known
    found: Set[str] = set()
    stack: List[ast.AST] = [stmt]
    while stack:
        node = stack.pop()
        if node is not stmt and isinstance(node, ast.stmt):
            found |= _stored_in(node, memo)
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
            continue
        if not isinstance(node, ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))
    result = frozenset(found)
    memo[stmt] = result
    return result


def join(a: Env, b: Env) -> Env:
    """Each name at the higher of its levels; a tuple's element levels ('t#0')
    only where both sides know them."""
    merged = dict(a)
    for name, level in b.items():
        if merged.get(name, UNIFORM) < level:
            merged[name] = level
    for name in [n for n in merged if "#" in n and (n not in a or n not in b)]:
        del merged[name]
    return merged


def element_key(name: str, index: int) -> str:
    return f"{name}#{index}"


class FunctionVariation:
    """The levels of one function's expressions, from the levels its parameters
    take (at the module's call sites) and its enclosing function's names."""

    def __init__(self, names: Names, node: ast.AST, params: Env, outer: Env,
                 int_value: Callable[[ast.AST], Optional[int]],
                 fields: Optional[Env] = None,
                 returns_of: Optional[ReturnsOf] = None,
                 stored: Optional[StoredMemo] = None) -> None:
        """returns_of: the level a call of a function of the module returns, given
        the levels of its arguments (None: not known); stored: a memo of the names
        statements bind, shared by the analyses of one module."""
        self._stored: StoredMemo = {} if stored is None else stored
        self.names = names
        self.returns_of = returns_of
        self._control: List[Variation] = [UNIFORM]  # Of the enclosing if and loops.
        self.fields = fields or {}  # self.x: how the class's stores to it vary.
        self.outer = outer  # The enclosing function's names (closure), summarized.
        self.int_value = int_value
        self.levels: Dict[ast.AST, Variation] = {}  # Expression -> level (max over passes).
        # A name holding a tuple where it is read: the levels of its elements.
        self.elements: Dict[ast.AST, List[Variation]] = {}
        self.summary: Env = {}  # Name -> the highest level any assignment gives it.
        self.returns = UNIFORM
        self._lambdas: Dict[str, ast.Lambda] = {}
        self._breaks: List[List[Env]] = []
        self._continues: List[List[Env]] = []
        self._inlining: Set[ast.Lambda] = set()
        self._tuple_names: Set[str] = {k.split("#")[0] for k in params if "#" in k}
        body = getattr(node, "body", [])
        self._block(body if isinstance(body, list) else [], dict(params))

    # Statements ------------------------------------------------------------

    def _block(self, stmts: List[ast.stmt], env: Env) -> Env:
        for stmt in stmts:
            env = self._stmt(stmt, env)
        return env

    def _assign(self, target: ast.AST, level: Variation, env: Env,
                elements: Optional[List[Variation]] = None) -> None:
        for name in bound_names(target):
            env[name] = level
            if name in self._tuple_names:  # Its old elements go.
                for key in [k for k in env if k.startswith(name + "#")]:
                    del env[key]
            if elements is not None and isinstance(target, ast.Name):
                self._tuple_names.add(name)
                for i, element in enumerate(elements):
                    env[element_key(name, i)] = element
            if self.summary.get(name, UNIFORM) < level:
                self.summary[name] = level
        if not isinstance(target, (ast.Name, ast.Tuple, ast.List, ast.Starred)):
            self.expr(target, env)  # a[i] = v, self.x = v: evaluates its subscripts.

    def _assign_value(self, target: ast.AST, value: ast.expr, env: Env) -> None:
        """target = value; a tuple to a tuple of the same length element by element,
        also through a name that holds one."""
        elements = self.tuple_levels(value, env)
        if elements is not None and isinstance(target, (ast.Tuple, ast.List)) \
                and len(target.elts) == len(elements) \
                and not any(isinstance(e, ast.Starred) for e in target.elts):
            for t, level in zip(target.elts, elements):
                self._assign(t, level, env)
            return
        if elements is not None and isinstance(target, ast.Name):
            self._assign(target, max(elements, default=UNIFORM), env, elements)
            return
        if isinstance(target, ast.Name) and isinstance(value, ast.Lambda):
            self._lambdas[target.id] = value
        self._assign(target, self.expr(value, env), env)

    def _stmt(self, stmt: ast.stmt, env: Env) -> Env:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                self._assign_value(target, stmt.value, env)
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self._assign_value(stmt.target, stmt.value, env)
        elif isinstance(stmt, ast.AugAssign):
            level = self.expr(stmt.value, env)
            if isinstance(stmt.target, ast.Name):
                level = max(level, self._name(stmt.target, env))
            self._assign(stmt.target, level, env)
        elif isinstance(stmt, ast.If):
            return self._branches(stmt.test, [stmt.body, stmt.orelse], env)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            return self._loop(stmt, env)
        elif isinstance(stmt, ast.While):
            return self._loop(stmt, env)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            for item in stmt.items:
                level = self.expr(item.context_expr, env)
                if item.optional_vars is not None:
                    self._assign(item.optional_vars, level, env)
            return self._block(stmt.body, env)
        elif isinstance(stmt, ast.Try) or type(stmt).__name__ == "TryStar":
            return self._try(stmt, env)
        elif type(stmt).__name__ == "Match":
            subject: ast.expr = getattr(stmt, "subject")
            bodies: List[List[ast.stmt]] = [c.body for c in getattr(stmt, "cases")]
            return self._branches(subject, bodies + [[]], env)
        elif isinstance(stmt, ast.Break) and self._breaks:
            self._breaks[-1].append(dict(env))
        elif isinstance(stmt, ast.Continue) and self._continues:
            self._continues[-1].append(dict(env))
        elif isinstance(stmt, ast.Return):
            # A return under thread-dependent control returns per thread too.
            value = self.expr(stmt.value, env) if stmt.value is not None else UNIFORM
            self.returns = max(self.returns, value, self._control[-1])
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self._assign(ast.Name(stmt.name, ast.Store()), UNIFORM, env)
        elif isinstance(stmt, (ast.Expr, ast.Assert, ast.Raise, ast.Delete)):
            for child in ast.iter_child_nodes(stmt):
                if isinstance(child, ast.expr):
                    self.expr(child, env)
        return env

    def _branches(self, test: ast.expr, bodies: List[List[ast.stmt]], env: Env) -> Env:
        """An if (or a match): the branches from env, joined; names they assign
        differ as much as the test that chose between them."""
        level = self.expr(test, env)
        merged: Optional[Env] = None
        self._control.append(max(self._control[-1], level))
        for body in bodies:
            out = self._block(body, dict(env))
            merged = out if merged is None else join(merged, out)
        self._control.pop()
        assert merged is not None
        if level != UNIFORM:
            self._raise(stored_names([s for b in bodies for s in b], self._stored), level,
                        merged)
        return merged

    def _raise(self, names: Set[str], level: Variation, env: Env) -> None:
        for name in names:
            if env.get(name, UNIFORM) < level:
                env[name] = level
                if self.summary.get(name, UNIFORM) < level:
                    self.summary[name] = level

    def _loop(self, loop: ast.stmt, env: Env) -> Env:
        """A for or while loop: its head's names to a fixed point over the body."""
        assert isinstance(loop, (ast.For, ast.AsyncFor, ast.While))
        body_names = stored_names(loop.body, self._stored)
        head = dict(env)
        exits: List[Env] = []
        while True:
            self._breaks.append([])
            self._continues.append([])
            if isinstance(loop, ast.While):
                control = self.expr(loop.test, head)
                inner = dict(head)
            else:
                control = self.expr(loop.iter, head)
                inner = dict(head)
                self._assign(loop.target, control, inner)
            self._control.append(max(self._control[-1], control))
            out = self._block(loop.body, inner)
            self._control.pop()
            for other in self._continues.pop():
                out = join(out, other)
            exits = self._breaks.pop()
            if control != UNIFORM:
                # Threads run different iterations (a thread-dependent trip count).
                self._raise(body_names | stored_names([loop], self._stored), control, out)
            following = join(head, out)
            if following == head:
                break
            head = following
        after = self._block(loop.orelse, dict(head))
        for other in exits:
            after = join(after, other)
        return after

    def _try(self, stmt: ast.stmt, env: Env) -> Env:
        body_out = self._block(getattr(stmt, "body"), dict(env))
        anywhere = join(env, body_out)
        outs = [self._block(getattr(stmt, "orelse"), dict(body_out))]
        for handler in getattr(stmt, "handlers"):
            inner = dict(anywhere)
            if handler.name:
                self._assign(ast.Name(handler.name, ast.Store()), UNIFORM, inner)
            outs.append(self._block(handler.body, inner))
        merged = outs[0]
        for other in outs[1:]:
            merged = join(merged, other)
        return self._block(getattr(stmt, "finalbody"), merged)

    # Expressions -----------------------------------------------------------

    def tuple_levels(self, value: ast.AST, env: Optional[Env]) -> Optional[List[Variation]]:
        """The levels of a tuple's elements: a tuple display, or a name holding one."""
        if isinstance(value, (ast.Tuple, ast.List)) and not any(
                isinstance(e, ast.Starred) for e in value.elts):
            levels = [self.expr(v, env) for v in value.elts]
            if env is not None:
                self.levels[value] = max(self.levels.get(value, UNIFORM),
                                         max(levels, default=UNIFORM))
            return levels
        if isinstance(value, ast.Name):
            self.expr(value, env)
            return self.elements.get(value) if env is None else self._elements(value.id, env)
        return None

    def _elements(self, name: str, env: Env) -> Optional[List[Variation]]:
        found: List[Variation] = []
        while element_key(name, len(found)) in env:
            found.append(env[element_key(name, len(found))])
        return found or None

    def _name(self, node: ast.Name, env: Optional[Env]) -> Variation:
        if env is not None and node.id in env:
            elements = self._elements(node.id, env)
            if elements is not None:
                self.elements[node] = elements
            return env[node.id]
        if env is None and node in self.levels:
            return self.levels[node]
        if env is None and node.id in self.summary:
            return self.summary[node.id]
        return self.outer.get(node.id, UNIFORM)

    def expr(self, node: ast.AST, env: Optional[Env]) -> Variation:
        """The level of an expression; env None: a query after the analysis (the
        names' recorded levels)."""
        level = self._expr(node, env)
        if env is not None:
            if self.levels.get(node, UNIFORM) < level or node not in self.levels:
                self.levels[node] = max(level, self.levels.get(node, UNIFORM))
        return level

    def _children(self, node: ast.AST, env: Optional[Env]) -> Variation:
        return max([self.expr(c, env) for c in ast.iter_child_nodes(node)
                    if isinstance(c, (ast.expr, ast.comprehension, ast.keyword, ast.slice))
                    or type(c).__name__ in ("Index", "ExtSlice")], default=UNIFORM)

    def _expr(self, node: ast.AST, env: Optional[Env]) -> Variation:
        if isinstance(node, ast.Name):
            return self._name(node, env)
        if isinstance(node, ast.Call):
            return self._call(node, env)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) \
                and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int:
            elements = self.tuple_levels(node.value, env)
            if elements is not None and 0 <= node.slice.value < len(elements):
                return elements[node.slice.value]
        if isinstance(node, ast.Attribute):
            value = self.expr(node.value, env)
            if isinstance(node.value, ast.Name) and node.value.id == "self":
                value = max(value, self.fields.get(node.attr, UNIFORM))
            return UNIFORM if node.attr in SHAPE_ATTRIBUTES else value
        if isinstance(node, ast.BinOp):
            left, right = self.expr(node.left, env), self.expr(node.right, env)
            divisor = self.int_value(node.right)
            # tid // 32 (or >> 5 and more) is the same for the lanes of a warp.
            if left == LANE and right == UNIFORM and divisor is not None and (
                    (isinstance(node.op, ast.FloorDiv) and divisor > 0 and divisor % 32 == 0)
                    or (isinstance(node.op, ast.RShift) and divisor >= 5)):
                left = WARP
            return max(left, right)
        if isinstance(node, ast.NamedExpr):
            level = self.expr(node.value, env)
            if env is not None:
                self._assign(node.target, level, env)
            return level
        if isinstance(node, ast.Lambda):
            self._inline(node, [], env)  # Its body, with its parameters uniform.
            return UNIFORM
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            inner = dict(env) if env is not None else None
            level = UNIFORM
            for gen in node.generators:
                it = self.expr(gen.iter, inner)
                level = max(level, it)
                if inner is not None:
                    self._assign(gen.target, it, inner)
                for cond in gen.ifs:
                    level = max(level, self.expr(cond, inner))
            parts = ([node.key, node.value] if isinstance(node, ast.DictComp)
                     else [node.elt])
            return max([level] + [self.expr(p, inner) for p in parts])
        return self._children(node, env)

    def _call(self, node: ast.Call, env: Optional[Env]) -> Variation:
        args = self._children(node, env)
        q = self.names.qualified(node.func)
        if q in LANE_SOURCES:
            return LANE
        if q in WARP_SOURCES:
            return WARP
        if q in ("cutlass.const_expr",) + SHAPE_QUERIES:
            return UNIFORM
        if q in WARP_RESULTS:
            return min(args, WARP)
        if q in GROUP_REDUCTIONS:
            group = _keyword(node, "threads_in_group")
            whole = group is None or self.int_value(group) == 32
            return min(args, WARP) if whole else args
        if q == ARCH + ".shuffle_sync":
            # Every lane reads the lane the offset names: one lane's value when the
            # offset is the same in the warp, unless segments (mask_and_clamp) split it.
            offset = node.args[1] if len(node.args) > 1 else _keyword(node, "offset")
            segmented = len(node.args) > 3 or any(k.arg == "mask_and_clamp"
                                                  for k in node.keywords)
            if offset is not None and not segmented and self.expr(offset, env) <= WARP:
                return min(args, WARP)
            return args
        if isinstance(node.func, ast.Name) and node.func.id in self._lambdas:
            lam = self._lambdas[node.func.id]
            return max(args, self._inline(lam, [self.expr(a, env) for a in node.args], env))
        if self.returns_of is not None and q is None and not any(
                isinstance(a, ast.Starred) for a in node.args) and all(
                k.arg is not None for k in node.keywords):
            # A function of the module: what it returns for these arguments (a
            # helper may return the same in every thread whatever it is given).
            positional = [self.levels.get(a, UNIFORM) for a in node.args]
            keywords = {k.arg: self.levels.get(k.value, UNIFORM) for k in node.keywords
                        if k.arg is not None}
            returned = self.returns_of(node, positional, keywords)
            if returned is not None:
                return max(returned, self.levels.get(node.func, UNIFORM))
        return args

    def _inline(self, lam: ast.Lambda, args: List[Variation], env: Optional[Env]) -> Variation:
        """The level of a lambda's body with its parameters at the levels of args."""
        if lam in self._inlining:
            return UNIFORM
        self._inlining.add(lam)
        inner: Env = dict(env) if env is not None else dict(self.summary)
        params = [a.arg for a in lam.args.posonlyargs + lam.args.args]
        for i, name in enumerate(params):
            inner[name] = args[i] if i < len(args) else UNIFORM
        for a in lam.args.kwonlyargs:
            inner[a.arg] = UNIFORM
        level = self.expr(lam.body, inner)
        self._inlining.discard(lam)
        return level


def _keyword(call: ast.Call, name: str) -> Optional[ast.expr]:
    for k in call.keywords:
        if k.arg == name:
            return k.value
    return None
