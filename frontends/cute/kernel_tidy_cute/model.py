"""The functions of a module as the CuTe DSL sees them: @cute.jit host
functions, @cute.kernel device functions and plain Python, with their
enclosing functions and classes, and the values that vary per thread."""

import ast
import enum
from dataclasses import dataclass
from typing import Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union

from .names import ARCH, FunctionKind, Names, constant_int, decorator_name

FunctionNode = Union[ast.FunctionDef, ast.AsyncFunctionDef]


class Variation(enum.IntEnum):
    """How a value differs between the threads of a block (ordered: a join is max)."""
    UNIFORM = 0  # The same in every thread.
    WARP = 1  # Uniform in a warp, varies between the warps of a block.
    LANE = 2  # Varies between the lanes of a warp.


UNIFORM, WARP, LANE = Variation.UNIFORM, Variation.WARP, Variation.LANE

LANE_SOURCES = (ARCH + ".thread_idx", ARCH + ".lane_idx")
WARP_SOURCES = (ARCH + ".warp_idx",)

# The shape of a per-thread tensor (a partition by thread_idx) is the same in
# every thread: what these return does not vary even when their argument does.
SHAPE_QUERIES = tuple("cutlass.cute." + n for n in (
    "size", "rank", "depth", "cosize", "shape", "size_in_bytes", "make_layout"))
SHAPE_ATTRIBUTES = ("shape", "layout", "element_type", "stride", "memspace")

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

    def __init__(self, tree: ast.Module, names: Names) -> None:
        self.tree = tree
        self.names = names
        self.functions: List[Function] = []
        self.by_node: Dict[ast.AST, Function] = {}
        self.enclosing: Dict[ast.Call, Optional[Function]] = {}  # Call node -> its function
        self._collect(tree, None, None)
        self._variation: Dict[ast.AST, Dict[str, Variation]] = {}
        # Functions by where a call finds them (the first of a name wins): a
        # lookup per call, not a scan of every function (a 1 MB file has
        # thousands of both).
        self._nested: Dict[Tuple[int, str], Function] = {}
        self._top_level: Dict[str, Function] = {}
        self._methods: Dict[Tuple[int, str], Function] = {}
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
        """The function of this module a call names: `f(...)` at module level, or
        `self.m(...)` in a method of the class defining m."""
        func = call.func
        if isinstance(func, ast.Name):
            # A nested function of the caller (or of its parents) first.
            scope = caller
            while scope is not None:
                nested = self._nested.get((id(scope), func.id))
                if nested is not None:
                    return nested
                scope = scope.parent
            return self._top_level.get(func.id)
        if (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)
                and func.value.id == "self" and caller is not None):
            top = caller
            while top.parent is not None:
                top = top.parent
            if top.cls is not None:
                return self._methods.get((id(top.cls), func.attr))
        return None

    def calls_in(self, fn: Optional[Function]) -> List[ast.Call]:
        return [c for c, owner in self.enclosing.items() if owner is fn]

    def calls(self) -> List[Tuple[ast.Call, Optional[Function]]]:
        return list(self.enclosing.items())

    # Values that vary per thread ------------------------------------------------

    def variation(self, fn: Function) -> Dict[str, Variation]:
        """Per local name of fn, how it varies (LANE, WARP); uniform names are absent.
        Flow-insensitive: a name varies if any assignment to it does."""
        if fn.node in self._variation:
            return self._variation[fn.node]
        result: Dict[str, Variation] = {}
        if fn.parent is not None:
            result.update(self.variation(fn.parent))
        self._variation[fn.node] = result
        assigns: List[Tuple[List[ast.expr], ast.expr]] = []
        for node in walk_own(fn.node):
            if isinstance(node, ast.Assign):
                assigns.append((node.targets, node.value))
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                assigns.append(([node.target], node.value))
            elif isinstance(node, ast.NamedExpr):
                assigns.append(([node.target], node.value))
            elif isinstance(node, (ast.For, ast.comprehension)):
                assigns.append(([node.target], node.iter))
        changed = True
        while changed:
            changed = False
            for targets, value in assigns:
                level = self.expr_variation(value, result)
                if level == UNIFORM:
                    continue
                for target in targets:
                    for name in target_names(target):
                        if result.get(name, UNIFORM) < level:
                            result[name] = level
                            changed = True
        return result

    def expr_variation(self, node: Optional[ast.AST], names: Dict[str, Variation]) -> Variation:
        """How the value of an expression varies, given how the names vary."""
        if node is None:
            return UNIFORM
        if isinstance(node, ast.Call):
            if self.names.call_of(node, *LANE_SOURCES):
                return LANE
            if self.names.call_of(node, *WARP_SOURCES):
                return WARP
            if self.names.call_of(node, "cutlass.const_expr", *SHAPE_QUERIES):
                return UNIFORM
        if isinstance(node, ast.Attribute) and node.attr in SHAPE_ATTRIBUTES:
            return UNIFORM
        if isinstance(node, ast.BinOp):
            left = self.expr_variation(node.left, names)
            right = self.expr_variation(node.right, names)
            divisor = constant_int(node.right)
            if divisor is None and self.names.is_(node.right, ARCH + ".WARP_SIZE"):
                divisor = 32
            # tid // 32 (or >> 5 and more) is the same for the lanes of a warp.
            if left == LANE and right == UNIFORM and divisor is not None and (
                    (isinstance(node.op, ast.FloorDiv) and divisor > 0 and divisor % 32 == 0)
                    or (isinstance(node.op, ast.RShift) and divisor >= 5)):
                left = WARP
            return max(left, right)
        if isinstance(node, ast.Name):
            return names.get(node.id, UNIFORM)
        if isinstance(node, (ast.Lambda, ast.FunctionDef)):
            return UNIFORM
        return max([self.expr_variation(c, names) for c in ast.iter_child_nodes(node)],
                   default=UNIFORM)

    def varies_per_lane(self, node: ast.AST, fn: Function) -> bool:
        return self.expr_variation(node, self.variation(fn)) == LANE


def walk_own(fn_node: FunctionNode) -> Iterator[ast.AST]:
    """The nodes of a function's body, without those of nested functions and classes."""
    stack: List[ast.AST] = list(fn_node.body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                                      ast.Lambda)):
                stack.append(child)


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
