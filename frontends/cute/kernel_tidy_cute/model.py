"""The functions of a module as the CuTe DSL sees them: @cute.jit host
functions, @cute.kernel device functions and plain Python, with their
enclosing functions and classes, and the values that vary per thread."""

import ast
import weakref
from dataclasses import dataclass
from typing import Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union

from .names import ARCH, FunctionKind, Names, constant_int, decorator_name
from .variation import (LANE, LANE_SOURCES, SHAPE_ATTRIBUTES, SHAPE_QUERIES, UNIFORM,
                        WARP, WARP_SOURCES, FunctionVariation, Variation, dsl_int_literal,
                        StoredMemo, element_key, is_int_type, join, stored_names)

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]
THREADISH = ("thread", "lane", "lane_idx")  # Roles of indices that differ per lane.
# Where a name's role comes from: its one value, or the arguments calls pass for it.
RoleSource = Union[ast.expr, List[Tuple[Optional[ast.expr], Optional["Function"]]]]
# What other modules of the run pass to this module's functions (project.py): per
# (class name or "", function name), one entry per call: per parameter the index
# role of the argument (None: not an index, or not known); an entry of None: a
# call whose arguments cannot be matched to the parameters (*args, **kwargs).
ExternalCalls = Dict[Tuple[str, str], List[Optional[Dict[str, Optional[str]]]]]


__all__ = ["LANE", "LANE_SOURCES", "SHAPE_ATTRIBUTES", "SHAPE_QUERIES", "UNIFORM", "WARP",
           "WARP_SOURCES", "Variation"]

WARP_PRIMITIVES = tuple(ARCH + "." + n for n in (
    "warp_idx", "lane_idx", "shuffle_sync", "shuffle_sync_up", "shuffle_sync_down",
    "shuffle_sync_bfly", "vote_ballot_sync", "vote_any_sync", "vote_all_sync",
    "vote_uni_sync", "warp_redux_sync", "match_sync", "sync_warp"))


@dataclass(eq=False)
class Function:
    """A function of the module: how it is decorated, and what encloses it."""
    node: FunctionNode
    kind: FunctionKind
    parent: Optional["Function"]
    cls: Optional[ast.ClassDef]

    @property
    def name(self) -> str:
        return self.node.name

    def context(self) -> FunctionKind:
        """Where its body runs: in a kernel, traced by @cute.jit, or plain Python.
        A nested plain function runs in the context of the function holding it."""
        fn: Optional[Function] = self
        while fn is not None:
            if fn.kind != "plain":
                return fn.kind
            fn = fn.parent
        return "plain"


class Module:
    """Functions of the module, the calls between them, and per-thread values."""

    def __init__(self, tree: ast.Module, names: Names,
                 external: Optional[ExternalCalls] = None) -> None:
        self.tree = tree
        self.names = names
        self.external: ExternalCalls = external or {}
        self.functions: List[Function] = []
        self.by_node: Dict[ast.AST, Function] = {}
        self.enclosing: Dict[ast.Call, Optional[Function]] = {}  # Call node -> its function
        self._collect(tree, None, None)
        self._calls: Optional[List[Tuple[ast.Call, Optional[Function]]]] = None
        self._variation: Dict[ast.AST, FunctionVariation] = {}
        self._in_progress: Set[Function] = set()
        # The callers in progress whose arguments the analysis under way took as
        # "may vary" (not known yet): an analysis reading one is not kept.
        self._unfinished: Set[Function] = set()
        self._callers: Optional[Dict[Function, List[Tuple[ast.Call,
                                                          Optional[Function]]]]] = None
        self._stores: Dict[ast.AST, Set[str]] = {}
        self._stored_memo: StoredMemo = {}
        self._assigned: Dict[ast.AST, Dict[str, List[ast.expr]]] = {}
        self._rooted: Dict[Function, bool] = {}
        # Per class, the fields stored once (in __init__, and in any method).
        self._class_attrs: Dict[ast.ClassDef, Tuple[Dict[str, Tuple[ast.expr, Function]],
                                                    ...]] = {}
        self._fields: Dict[ast.ClassDef, Dict[str, Variation]] = {}
        self._fields_of: Optional[ast.ClassDef] = None  # The class whose fields are sought.
        self._field_phase: Dict[ast.AST, FunctionVariation] = {}
        self._return_cache: Dict[Tuple[ast.AST, Tuple[Tuple[str, Variation], ...], int, bool],
                                 Optional[Variation]] = {}
        self._analysed_all = False
        self._consts: Dict[ast.AST, Dict[str, ast.expr]] = {}
        self._role_cache: Dict[Tuple[ast.AST, str], Optional[str]] = {}
        self._role_source_cache: Dict[ast.AST, Dict[str, RoleSource]] = {}
        self._role_pending: Set[Tuple[ast.AST, str]] = set()
        self._role_cut = False  # A role computed now met the depth bound or a cycle.
        self._lambda_params: Dict[ast.AST, Set[str]] = {}
        self._cycles: Optional[Dict[Function, int]] = None
        # Functions by where a call finds them (the first of a name wins): a
        # lookup per call, not a scan of every function (a 1 MB file has
        # thousands of both).
        self._nested: Dict[Tuple[int, str], Function] = {}
        self._top_level: Dict[str, Function] = {}
        self._methods: Dict[Tuple[int, str], Function] = {}
        # Classes by name, for constructor calls (a name bound once at module level).
        self._classes: Dict[str, ast.ClassDef] = {}
        defined: Dict[str, int] = {}
        for node in tree.body:
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                defined[node.name] = defined.get(node.name, 0) + 1
                if isinstance(node, ast.ClassDef):
                    self._classes[node.name] = node
        for stored in _module_level(tree):
            if isinstance(stored, ast.Name) and isinstance(stored.ctx, (ast.Store, ast.Del)):
                defined[stored.id] = defined.get(stored.id, 0) + 1
        self._classes = {k: v for k, v in self._classes.items() if defined[k] == 1}
        for f in self.functions:
            if f.parent is not None:
                self._nested.setdefault((id(f.parent), f.name), f)
            elif f.cls is None:
                self._top_level.setdefault(f.name, f)
            else:
                self._methods.setdefault((id(f.cls), f.name), f)

    def _collect(self, node: ast.AST, fn: Optional[Function],
                 cls: Optional[ast.ClassDef]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                kinds = [k for k in (decorator_name(self.names, d) for d in child.decorator_list)
                         if k]
                inner = Function(child, kinds[0] if kinds else "plain", fn,
                                 cls if fn is None else None)
                self.functions.append(inner)
                self.by_node[child] = inner
                for d in child.decorator_list + [a for a in child.args.defaults]:
                    self._collect_expr(d, fn)
                self._collect(child, inner, None)
            elif isinstance(child, ast.ClassDef) and fn is None:
                self._collect(child, None, child)
            else:
                if isinstance(child, ast.Call):
                    self.enclosing[child] = fn
                self._collect(child, fn, cls)

    def _collect_expr(self, node: ast.AST, fn: Optional[Function]) -> None:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Call):
                self.enclosing[sub] = fn

    def callee(self, call: ast.Call, caller: Optional[Function]) -> Optional[Function]:
        """The function of this module a call names: `f(...)` at module level,
        `C(...)` (C.__init__) for a class C of the module, or `self.m(...)` in a
        method of the class defining m."""
        func = call.func
        if isinstance(func, ast.Name):
            # A nested function of the caller (or of its parents) first.
            scope = caller
            while scope is not None:
                nested = self._nested.get((id(scope), func.id))
                if nested is not None:
                    return nested
                scope = scope.parent
            cls = self._classes.get(func.id)
            if cls is not None and func.id not in self._top_level:
                return self._methods.get((id(cls), "__init__"))
            return self._top_level.get(func.id)
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id == "self" and caller is not None):
            top = caller
            while top.parent is not None:
                top = top.parent
            if top.cls is not None:
                return self._methods.get((id(top.cls), func.attr))
        return None

    def calls(self) -> List[Tuple[ast.Call, Optional[Function]]]:
        """Every call of the module with the function it is in (one list for all)."""
        if self._calls is None:
            self._calls = list(self.enclosing.items())
        return self._calls

    # Values that vary per thread ------------------------------------------------

    def analysis(self, fn: Function) -> FunctionVariation:
        """The flow-sensitive levels of fn's expressions. Every function of the module
        is analysed at the first question, in the module's order: an analysis reads
        its callers' (and a recursive call's caller may still be in progress), so
        answers must not depend on which function a rule asks about first."""
        if not self._analysed_all:
            self._analysed_all = True
            for other in self.functions:
                self._analysis(other)
        return self._analysis(fn)

    def _analysis(self, fn: Function) -> FunctionVariation:
        """fn's analysis (computed once). While the fields of a class are being
        found, functions are analysed without fields, in a cache of their own."""
        cache = self._variation if self._fields_of is None else self._field_phase
        done = cache.get(fn.node)
        if done is not None:
            return done
        cls = self._class_of(fn)
        fields = self.field_levels(cls) if cls is not None and self._fields_of is None else {}
        self._in_progress.add(fn)
        unfinished_before, self._unfinished = self._unfinished, set()
        outer: Dict[str, Variation] = {}
        if fn.parent is not None:
            parent = self._analysis(fn.parent)
            outer = join(parent.outer, parent.summary)
        result = FunctionVariation(self.names, fn.node, self._param_levels(fn), outer,
                                   lambda node: self.int_value(node, fn), fields,
                                   lambda call, pos, kws: self._returns(call, fn, pos, kws, 0),
                                   self._stored_memo)
        self._in_progress.discard(fn)
        unfinished = self._unfinished - {fn}
        self._unfinished = unfinished_before | unfinished
        if not unfinished:
            # Read from a caller still in progress, it holds guesses: the question
            # asked once that caller is done gets a fresh analysis.
            cache[fn.node] = result
        return result

    def _returns(self, call: ast.Call, caller: Function, positional: List[Variation],
                 keywords: Dict[str, Variation], depth: int) -> Optional[Variation]:
        """How what a function of the module returns varies, analysed for the levels
        of this call's arguments (a few calls deep; None where not known)."""
        callee = self.callee(call, caller)
        if callee is None or callee.kind == "kernel" or callee.name == "__init__" \
                or depth >= 3:
            return None  # A constructor's result is the object, not what __init__ returns.
        params = callee.node.args.posonlyargs + callee.node.args.args
        skip = _bound(call, callee)
        levels = {p.arg: level for p, level in zip(params[skip:], positional)}
        levels.update(keywords)
        # The key holds all the result depends on (the depth bounds recursion), so a
        # result computed under another question is the same as a fresh one.
        key = (callee.node, tuple(sorted(levels.items())), depth, self._fields_of is None)
        if key in self._return_cache:
            return self._return_cache[key]
        self._return_cache[key] = None  # Only through the parent's analysis: not known.
        outer: Dict[str, Variation] = {}
        if callee.parent is not None:
            parent = self._analysis(callee.parent)
            outer = join(parent.outer, parent.summary)
        cls = self._class_of(callee)
        fields = self.field_levels(cls) if cls is not None and self._fields_of is None else {}
        target: Function = callee
        found = FunctionVariation(
            self.names, target.node, levels, outer, lambda node: self.int_value(node, target),
            fields, lambda c, pos, kws: self._returns(c, target, pos, kws, depth + 1),
            self._stored_memo).returns
        self._return_cache[key] = found
        return found

    def _class_of(self, fn: Function) -> Optional[ast.ClassDef]:
        top = fn
        while top.parent is not None:
            top = top.parent
        return top.cls

    def field_levels(self, cls: ast.ClassDef) -> Dict[str, Variation]:
        """How the fields a class's methods store (`self.tidx = tidx`) vary: the
        highest level of the values stored, each computed without fields."""
        found = self._fields.get(cls)
        if found is not None:
            return found
        self._fields_of = cls
        found = {}
        for method in self.functions:
            if self._class_of(method) is not cls:
                continue
            for node in walk_own(method.node):
                if not isinstance(node, ast.Assign):
                    continue
                for target in node.targets:
                    pairs = [(target, node.value)]
                    if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                            and len(target.elts) == len(node.value.elts):
                        pairs = list(zip(target.elts, node.value.elts))
                    for t, v in pairs:
                        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) \
                                and t.value.id == "self":
                            level = self.level(v, method)
                            found[t.attr] = max(found.get(t.attr, UNIFORM), level)
        self._fields_of = None
        self._field_phase.clear()
        self._fields[cls] = found
        return found

    def variation(self, fn: Function) -> Dict[str, Variation]:
        """Per local name of fn, the highest level any assignment gives it (uniform
        names are absent)."""
        return {k: v for k, v in self.analysis(fn).summary.items() if v != UNIFORM}

    def level(self, node: ast.AST, fn: Function) -> Variation:
        """How an expression of fn varies where it stands."""
        found = self.analysis(fn)
        recorded = found.levels.get(node)
        return recorded if recorded is not None else found.expr(node, None)

    def callers(self, fn: Function) -> List[Tuple[ast.Call, Optional[Function]]]:
        """The module's calls of fn, with the function each is in."""
        if self._callers is None:
            self._callers = {}
            for call, caller in self.enclosing.items():
                target = self.callee(call, caller)
                if target is not None:
                    self._callers.setdefault(target, []).append((call, caller))
        return self._callers.get(fn, [])

    def external_calls(self, fn: Function) -> List[Optional[Dict[str, Optional[str]]]]:
        """What the calls of fn in the run's other modules pass (project.py): a
        function or a method of a class at the module's top level."""
        if fn.parent is not None or not self.external:
            return []
        return self.external.get((fn.cls.name if fn.cls is not None else "", fn.name), [])

    def recursive(self, caller: Function, callee: Function) -> bool:
        """Whether a call from caller to callee is recursion: both in one cycle of the
        module's calls (strongly connected components, Tarjan's algorithm)."""
        if self._cycles is None:
            self._cycles = self._call_cycles()
        if caller is callee:
            return True
        return self._cycles.get(caller) == self._cycles.get(callee)

    def _call_cycles(self) -> Dict[Function, int]:
        """Each function's strongly connected component of the call graph (iterative:
        a long chain of calls must not exhaust Python's stack)."""
        callees: Dict[Function, List[Function]] = {f: [] for f in self.functions}
        for f in self.functions:
            for _, caller in self.callers(f):
                if caller is not None:
                    callees[caller].append(f)
        index: Dict[Function, int] = {}
        low: Dict[Function, int] = {}
        component: Dict[Function, int] = {}
        stack: List[Function] = []
        on_stack: Set[Function] = set()
        for root in self.functions:
            if root in index:
                continue
            work: List[Tuple[Function, int]] = [(root, 0)]
            while work:
                fn, i = work.pop()
                if i == 0:
                    index[fn] = low[fn] = len(index)
                    stack.append(fn)
                    on_stack.add(fn)
                targets = callees[fn]
                if i < len(targets):
                    work.append((fn, i + 1))
                    target = targets[i]
                    if target not in index:
                        work.append((target, 0))
                    elif target in on_stack:
                        low[fn] = min(low[fn], index[target])
                    continue
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[fn])
                if low[fn] == index[fn]:
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component[member] = index[fn]
                        if member is fn:
                            break
        return component

    def rooted(self, fn: Function) -> bool:
        """Whether every value reaching fn's parameters is known: a kernel, or a
        function called only from such functions of this module."""
        known = self._rooted.get(fn)
        if known is not None:
            return known
        self._rooted[fn] = False  # A cycle of calls proves nothing.
        if fn.kind == "kernel":
            result = True
        elif fn.parent is not None and not fn.node.args.args:
            result = self.rooted(fn.parent)
        else:
            # Calls from other modules pass what only their index roles tell.
            calls = self.callers(fn)
            result = bool(calls) and not self.external_calls(fn) and all(
                c is not None and self.rooted(c) for _, c in calls)
        self._rooted[fn] = result
        return result

    def _param_levels(self, fn: Function) -> Dict[str, Variation]:
        """A kernel's parameters are the same in every thread; another function's
        take the levels of the arguments the module's calls pass (none: uniform)."""
        params = fn.node.args.posonlyargs + fn.node.args.args
        named = {p.arg for p in fn.node.args.args + fn.node.args.kwonlyargs}
        levels: Dict[str, Variation] = {}
        tuples: Dict[str, Optional[List[Variation]]] = {}  # A tuple argument's elements.
        if fn.kind == "kernel":
            return levels
        for call, caller in self.callers(fn):
            if caller is None:
                continue
            skip = _bound(call, fn)
            pairs = [(p.arg, a) for p, a in zip(params[skip:], call.args)
                     if not isinstance(a, ast.Starred)]
            # A keyword naming no parameter (one **kwargs takes) binds no name.
            pairs += [(k.arg, k.value) for k in call.keywords if k.arg in named]
            if caller in self._in_progress:
                # What the call passes is not known yet: it may vary. Recursion
                # keeps that answer; another caller (analysed now because it asked
                # about a function nested in fn) is asked again once it is done.
                if not self.recursive(caller, fn):
                    self._unfinished.add(caller)
                for name, _ in pairs:
                    levels[name] = LANE
                    tuples[name] = None
                continue
            for name, arg in pairs:
                level = self.level(arg, caller)
                if levels.get(name, UNIFORM) < level:
                    levels[name] = level
                elements = self.analysis(caller).tuple_levels(arg, None)
                seen = tuples.setdefault(name, elements)
                if seen is not None and (elements is None or len(elements) != len(seen)):
                    tuples[name] = None
                elif seen is not None and elements is not None:
                    tuples[name] = [max(a, b) for a, b in zip(seen, elements)]
        # Another module's call passing a thread, lane or warp index: its level
        # (what else it passes is not known here, as for a function never called).
        for passed in self.external_calls(fn):
            for name, role in (passed or {}).items():
                level = LANE if role in THREADISH else WARP if role == "warp" else UNIFORM
                if levels.get(name, UNIFORM) < level:
                    levels[name] = level
                    tuples[name] = None  # Not a tuple of known elements.
        for name, elements in tuples.items():
            for i, element in enumerate(elements or []):
                levels[element_key(name, i)] = element
        return levels

    def int_value(self, node: Optional[ast.AST], fn: Optional[Function],
                  depth: int = 0) -> Optional[int]:
        """The value of an integer constant expression: literals, their DSL spelling
        (cutlass.Int32(32)), cute.arch.WARP_SIZE, names assigned once to a constant
        in fn or at module level (not rebound in fn), and arithmetic on them."""
        if node is None or depth > 20:
            return None
        literal = dsl_int_literal(self.names, node)
        if literal is not None:
            return constant_int(literal)
        if (isinstance(node, ast.Call) and is_int_type(self.names.qualified(node.func))
                and len(node.args) == 1 and not node.keywords):
            return self.int_value(node.args[0], fn, depth + 1)
        if self.names.is_(node, ARCH + ".WARP_SIZE"):
            return 32
        if isinstance(node, ast.Name):
            consts = self._constants(fn)
            expr = consts.get(node.id)
            if expr is None and fn is not None and node.id not in self._stored(fn):
                expr = self._constants(None).get(node.id)
            return self.int_value(expr, fn if node.id in consts else None, depth + 1)
        if isinstance(node, ast.Attribute) and fn is not None:
            found = self.self_attribute(node, fn)
            return None if found is None else self.int_value(found[0], found[1], depth + 1)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "len" and len(node.args) == 1 and not node.keywords
                and node.func.id not in self._constants(None)):
            return self._length(node.args[0], fn, depth + 1)
        if isinstance(node, ast.BinOp):
            left = self.int_value(node.left, fn, depth + 1)
            right = self.int_value(node.right, fn, depth + 1)
            if left is None or right is None:
                return None
            if isinstance(node.op, ast.Add):
                return left + right
            if isinstance(node.op, ast.Sub):
                return left - right
            if isinstance(node.op, ast.Mult):
                return left * right
            if isinstance(node.op, ast.FloorDiv) and right:
                return left // right
            if isinstance(node.op, (ast.LShift, ast.RShift)) and 0 <= right < 64:
                return left << right if isinstance(node.op, ast.LShift) else left >> right
        return None

    def _length(self, node: ast.AST, fn: Optional[Function], depth: int) -> Optional[int]:
        """The length of a tuple or list display (its starred parts included), also
        through a constant name or a self attribute that holds one."""
        if depth > 20:
            return None
        if isinstance(node, (ast.Tuple, ast.List)):
            total = 0
            for e in node.elts:
                inner = self._length(e.value, fn, depth + 1) if isinstance(e, ast.Starred) else 1
                if inner is None:
                    return None
                total += inner
            return total
        if isinstance(node, ast.Attribute) and fn is not None:
            found = self.self_attribute(node, fn)
            return None if found is None else self._length(found[0], found[1], depth + 1)
        if isinstance(node, ast.Name):
            consts = self._constants(fn)
            expr = consts.get(node.id)
            if expr is None and (fn is None or node.id not in self._stored(fn)):
                expr = self._constants(None).get(node.id)
            return None if expr is None else self._length(
                expr, fn if node.id in consts else None, depth + 1)
        return None

    def binds(self, fn: Function, name: str) -> bool:
        """Whether fn or a function enclosing it binds name (a local, a parameter)."""
        scope: Optional[Function] = fn
        while scope is not None:
            if name in self._stored(scope):
                return True
            scope = scope.parent
        return False

    def single_value(self, fn: Function, name: str) -> Optional[ast.expr]:
        """The value of fn's one assignment `name = value` (None: not so bound)."""
        return self._constants(fn).get(name)

    def self_attribute(self, node: ast.Attribute, fn: Function,
                       anywhere: bool = False) -> Optional[Tuple[ast.expr, Function]]:
        """The value of `self.x` in a method: the one assignment `self.x = value` of
        its class, in __init__ (anywhere: in any of its methods), with the method."""
        if not (isinstance(node.value, ast.Name) and node.value.id == "self"):
            return None
        top = fn
        while top.parent is not None:
            top = top.parent
        if top.cls is None:
            return None
        stores = self._class_attrs.get(top.cls)
        if stores is None:
            stores = ({}, {})
            counts: Dict[str, int] = {}
            for method in self.functions:
                if method.cls is not top.cls:
                    continue
                for sub in ast.walk(method.node):
                    if isinstance(sub, ast.Attribute) and isinstance(sub.ctx, ast.Store) \
                            and isinstance(sub.value, ast.Name) and sub.value.id == "self":
                        counts[sub.attr] = counts.get(sub.attr, 0) + 1
                    if (isinstance(sub, ast.Assign) and len(sub.targets) == 1
                            and isinstance(sub.targets[0], ast.Attribute)
                            and isinstance(sub.targets[0].value, ast.Name)
                            and sub.targets[0].value.id == "self"):
                        stores[1][sub.targets[0].attr] = (sub.value, method)
                        if method.name == "__init__":
                            stores[0][sub.targets[0].attr] = (sub.value, method)
            stores = tuple({k: v for k, v in found.items() if counts.get(k) == 1}
                           for found in stores)
            self._class_attrs[top.cls] = stores
        return stores[1 if anywhere else 0].get(node.attr)

    def assigned_values(self, fn: Function, unknown: ast.expr) -> Dict[str, List[ast.expr]]:
        """Per name, the values fn's own statements assign to it, in one walk: the
        value of `name = v` and of a tuple assignment naming it (`t, _ = v`);
        unknown for a loop variable, an augmented or an annotated assignment."""
        found = self._assigned.get(fn.node)
        if found is not None:
            return found
        found = {}
        for node in walk_own(fn.node):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found.setdefault(target.id, []).append(node.value)
                    elif isinstance(target, ast.Tuple):
                        for name in dict.fromkeys(e.id for e in target.elts
                                                  if isinstance(e, ast.Name)):
                            found.setdefault(name, []).append(node.value)
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For)) and isinstance(
                    node.target, ast.Name):
                found.setdefault(node.target.id, []).append(unknown)
        self._assigned[fn.node] = found
        return found

    def _stored(self, fn: Function) -> Set[str]:
        found = self._stores.get(fn.node)
        if found is None:
            found = stored_names(fn.node.body, self._stored_memo) | {
                a.arg for a in fn.node.args.posonlyargs + fn.node.args.args +
                fn.node.args.kwonlyargs}
            self._stores[fn.node] = found
        return found

    def _constants(self, fn: Optional[Function]) -> Dict[str, ast.expr]:
        """Names bound exactly once, by `name = value`, in fn's body (or the module's
        statements outside functions and classes), and not parameters."""
        key: ast.AST = fn.node if fn is not None else self.tree
        found = self._consts.get(key)
        if found is not None:
            return found
        counts: Dict[str, int] = {}
        single: Dict[str, ast.expr] = {}
        nodes: Iterable[ast.AST] = walk_own(fn.node) if fn is not None else _module_level(
            self.tree)
        for node in nodes:
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                counts[node.id] = counts.get(node.id, 0) + 1
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                counts[node.name] = counts.get(node.name, 0) + 2
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if len(targets) == 1 and isinstance(targets[0], ast.Name):
                    single[targets[0].id] = node.value
        params = set() if fn is None else {a.arg for a in fn.node.args.posonlyargs +
                                           fn.node.args.args + fn.node.args.kwonlyargs}
        found = {n: v for n, v in single.items() if counts.get(n) == 1 and n not in params}
        self._consts[key] = found
        return found

    def index_role(self, node: Optional[ast.AST], fn: Function, depth: int = 0) -> Optional[str]:
        """"thread" for a thread index (thread_idx()[0], tidx - 128, tidx % 128), "warp"
        for a warp index (tid // 32, tid >> 5, warp_idx()), "lane" for a lane index
        (tid % 32, tid & 31), "lane_idx" for lane_idx() itself (the lane even in a block
        whose rows are not whole warps); also through a name assigned once, a field
        stored once in __init__, and a parameter that every call of the module (and
        of the run's other modules) passes one of them. None: anything
        else, a row or element index computed from them included."""
        if node is None or depth > 20:
            self._role_cut |= node is not None
            return None
        if isinstance(node, ast.Call):
            q = self.names.qualified(node.func)
            if q == ARCH + ".lane_idx":
                return "lane_idx"
            if q in WARP_SOURCES:
                return "warp"
            if q == ARCH + ".make_warp_uniform" and len(node.args) == 1:
                return self.index_role(node.args[0], fn, depth + 1)
            if is_int_type(q) and len(node.args) == 1:
                return self.index_role(node.args[0], fn, depth + 1)
            return None
        if isinstance(node, ast.Subscript):
            return "thread" if self.names.call_of(node.value, *LANE_SOURCES[:1]) else None
        if isinstance(node, ast.Attribute):
            # self.x stored once, in __init__: the role of the value stored.
            stored = self.self_attribute(node, fn)
            return None if stored is None else self.index_role(stored[0], stored[1], depth + 1)
        if isinstance(node, ast.Name):
            sources = self._role_sources(fn)
            if node.id in sources:
                return self._name_role(fn, node.id, sources[node.id], depth)
            if node.id not in self._stored(fn) and (
                    fn.parent is not None or node.id in self._lambda_parameters(fn)) \
                    and self.level(node, fn) == LANE:
                return "thread"  # A lambda's parameter that its calls pass per thread.
            return None
        if not isinstance(node, ast.BinOp):
            return None
        left = self.index_role(node.left, fn, depth + 1)
        if isinstance(node.op, (ast.Add, ast.Sub)):
            for mine, role, other in ((node.left, left, node.right),
                                      (node.right, None, node.left)):
                role = role or (self.index_role(mine, fn, depth + 1)
                                if isinstance(node.op, ast.Add) else None)
                if role in THREADISH and self.level(other, fn) == UNIFORM:
                    return "thread"  # Shifted by the same amount in every thread.
            return None
        value = self.int_value(node.right, fn)
        if value is None and isinstance(node.op, ast.Mod) and left == "thread" \
                and self.level(node.right, fn) == UNIFORM:
            return "thread"  # tidx % num_threads: the index in a group of threads.
        if value is None or left not in THREADISH:
            return None
        if (isinstance(node.op, ast.FloorDiv) and value == 32) or (
                isinstance(node.op, ast.RShift) and value == 5):
            return "warp" if left == "thread" else None
        if (isinstance(node.op, ast.Mod) and value == 32) or (
                isinstance(node.op, ast.BitAnd) and value == 31):
            return "lane"
        if left == "thread" and value > 32 and (
                (isinstance(node.op, ast.Mod) and value % 32 == 0)
                or (isinstance(node.op, ast.BitAnd) and (value + 1) % 32 == 0
                    and value & (value + 1) == 0)):
            return "thread"  # The thread's index in a warpgroup (tidx % 128).
        return None

    def _lambda_parameters(self, fn: Function) -> Set[str]:
        """The names fn's lambdas take. Outside them, a name fn does not bind is
        not fn's own, and in a function at the top of the module (no enclosing
        names) it is the same in every thread: no analysis needs to say so (asked
        for another module's call, it would analyse all that module)."""
        found = self._lambda_params.get(fn.node)
        if found is None:
            found = {a.arg for node in ast.walk(fn.node) if isinstance(node, ast.Lambda)
                     for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs}
            self._lambda_params[fn.node] = found
        return found

    def _name_role(self, fn: Function, name: str, source: RoleSource,
                   depth: int) -> Optional[str]:
        """The role of a name from its one assignment, or from what every call passes
        for a parameter (memoized; a cycle has none)."""
        key = (fn.node, name)
        if key in self._role_cache:
            cached = self._role_cache[key]
            self._role_cut |= key in self._role_pending
            return cached
        self._role_cache[key] = None
        self._role_pending.add(key)
        cut_before, self._role_cut = self._role_cut, False
        if isinstance(source, ast.AST):
            role = self.index_role(source, fn, depth + 1)
        else:
            passed: Set[Optional[str]] = {
                None if arg is None or caller is None else self.index_role(arg, caller,
                                                                           depth + 1)
                for arg, caller in source}
            passed.update(None if call is None else call.get(name)
                          for call in self.external_calls(fn))
            role = next(iter(passed)) if len(passed) == 1 else (
                "thread" if passed <= set(THREADISH) else None)
        self._role_pending.discard(key)
        if self._role_cut:
            # Cut by the depth bound or a cycle of names: what another question
            # would find may differ, so it is not kept.
            del self._role_cache[key]
        else:
            self._role_cache[key] = role
        self._role_cut |= cut_before
        return role

    def _role_sources(self, fn: Function) -> Dict[str, RoleSource]:
        """Per name of fn: the value of its one assignment, or for a parameter never
        assigned, the arguments the module's calls pass (with their functions)."""
        found = self._role_source_cache.get(fn.node)
        if found is not None:
            return found
        found = {}
        counts: Dict[str, int] = {}
        for node in walk_own(fn.node):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                counts[node.id] = counts.get(node.id, 0) + 1
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
                if isinstance(target, ast.Name):
                    found[target.id] = value
                elif (isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple)
                      and len(target.elts) == len(value.elts)):
                    for t, v in zip(target.elts, value.elts):
                        if isinstance(t, ast.Name):
                            found[t.id] = v
                elif isinstance(target, ast.Tuple) and self.names.call_of(
                        value, *LANE_SOURCES[:1]) and target.elts and isinstance(
                        target.elts[0], ast.Name):
                    found[target.elts[0].id] = ast.Subscript(value, ast.Constant(0))
        params = fn.node.args.posonlyargs + fn.node.args.args
        found = {n: v for n, v in found.items()
                 if counts.get(n) == 1 and n not in {p.arg for p in params}}
        calls = self.callers(fn) if fn.kind != "kernel" else []
        external = self.external_calls(fn) if fn.kind != "kernel" else []
        for i, param in enumerate(params):
            if counts.get(param.arg) or not (calls or external):
                continue
            args: List[Tuple[Optional[ast.expr], Optional[Function]]] = []
            for call, caller in calls:
                skip = _bound(call, fn)
                arg = next((k.value for k in call.keywords if k.arg == param.arg), None)
                if arg is None and 0 <= i - skip < len(call.args):
                    arg = call.args[i - skip]
                # A call from fn's own cycle of calls (recursion) passes what fn's
                # parameter is: not known, whatever is asked first.
                recursive = caller is not None and self.recursive(caller, fn)
                args.append((None if isinstance(arg, ast.Starred) or recursive else arg,
                             caller))
            found[param.arg] = args
        self._role_source_cache[fn.node] = found
        return found


def _bound(call: ast.Call, callee: Function) -> int:
    """How many parameters a call of a function of the module binds before its
    arguments: `self` of `self.m(...)` and of a constructor `C(...)`."""
    return 1 if isinstance(call.func, ast.Attribute) or callee.name == "__init__" else 0


def _module_level(tree: ast.Module) -> Iterator[ast.AST]:
    """The nodes of the module's own statements, outside functions and classes."""
    stack: List[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                 ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))


_OWN_NODES: "weakref.WeakKeyDictionary[ast.AST, Tuple[ast.AST, ...]]" = \
    weakref.WeakKeyDictionary()
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def walk_own(fn_node: FunctionNode) -> Tuple[ast.AST, ...]:
    """The nodes of a function's body, without those of nested functions and classes
    (walked once per function: every rule asks, several times)."""
    found = _OWN_NODES.get(fn_node)
    if found is not None:
        return found
    nodes: List[ast.AST] = []
    stack: List[ast.AST] = list(fn_node.body)
    while stack:
        node = stack.pop()
        nodes.append(node)
        for field in node._fields:
            value = getattr(node, field, None)
            if isinstance(value, ast.AST):
                if not isinstance(value, _NESTED):
                    stack.append(value)
            elif isinstance(value, list):
                stack.extend(c for c in value
                             if isinstance(c, ast.AST) and not isinstance(c, _NESTED))
    found = tuple(nodes)
    _OWN_NODES[fn_node] = found
    return found


def target_names(target: ast.AST) -> List[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for e in target.elts for n in target_names(e)]
    if isinstance(target, ast.Starred):
        return target_names(target.value)
    return []


def assigned_names(nodes: Iterable[ast.AST]) -> Set[str]:
    """Names bound anywhere in the given statements (targets, loop variables, with-as)."""
    result: Set[str] = set()
    for stmt in nodes:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
                result.add(node.id)
    return result


def element_type(names: Names, fn: Function, var: str,
                 before: Optional[ast.AST] = None) -> Optional[str]:
    """The cutlass numeric type of a local variable where visible: an annotation
    (`x: cutlass.Float32`), a constructor (`x = cutlass.Float32(...)`), a
    conversion (`x = y.to(cutlass.Float32)`); None when unknown or ambiguous."""
    found: Set[Optional[str]] = set()

    def type_of(expr: ast.AST) -> Optional[str]:
        q = names.qualified(expr)
        if q and q.startswith("cutlass.") and q.rsplit(".", 1)[1][:1].isupper():
            return q.rsplit(".", 1)[1]
        return None

    for arg in fn.node.args.args + fn.node.args.kwonlyargs + fn.node.args.posonlyargs:
        if arg.arg == var:
            found.add(type_of(arg.annotation) if arg.annotation is not None else None)
    for node in walk_own(fn.node):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and node.target.id == var:
            found.add(type_of(node.annotation))
        elif isinstance(node, ast.Assign) and any(var in target_names(t) for t in node.targets):
            value = node.value
            if not (len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
                found.add(None)
                continue
            if node is before:
                continue
            if isinstance(value, ast.Call) and type_of(value.func):
                found.add(type_of(value.func))
            elif (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
                  and value.func.attr == "to" and len(value.args) == 1):
                found.add(type_of(value.args[0]))
            elif isinstance(value, (ast.BinOp, ast.Call)) and _mentions(value, var):
                continue  # v = v + ...: keeps the type v already has.
            else:
                found.add(None)
    if len(found) == 1:
        return next(iter(found))
    return None


def _mentions(node: ast.AST, var: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == var for n in ast.walk(node))
