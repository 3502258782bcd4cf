"""Which names of a module stand for the CuTe DSL: `cutlass`, `cutlass.cute`,
`cutlass.cute.arch` and their members, however they are imported and aliased."""

import ast
from typing import Dict, Iterable, Literal, Optional

CUTE = "cutlass.cute"
ARCH = "cutlass.cute.arch"


class Names:
    """Resolves expressions to the qualified DSL name they denote."""

    def __init__(self, tree: ast.Module, nodes: Optional[Iterable[ast.AST]] = None) -> None:
        """nodes: every node of tree, when the caller has them already."""
        self.aliases: Dict[str, str] = {}  # local name -> qualified name
        for node in ast.walk(tree) if nodes is None else nodes:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if not alias.name.startswith("cutlass"):
                        continue
                    if alias.asname:
                        self.aliases[alias.asname] = alias.name
                    else:  # `import cutlass.cute` binds `cutlass`.
                        self.aliases[alias.name.split(".")[0]] = "cutlass"
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module == "cutlass" or node.module.startswith("cutlass."):
                    for alias in node.names:
                        if alias.name != "*":
                            local = alias.asname or alias.name
                            self.aliases[local] = f"{node.module}.{alias.name}"

    def uses_dsl(self) -> bool:
        return bool(self.aliases)

    def qualified(self, node: Optional[ast.AST]) -> Optional[str]:
        """'cutlass.cute.arch.thread_idx' for `cute.arch.thread_idx` etc.; None otherwise."""
        if isinstance(node, ast.Name):
            return self.aliases.get(node.id)
        if isinstance(node, ast.Attribute):
            base = self.qualified(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def is_(self, node: Optional[ast.AST], *names: str) -> bool:
        return self.qualified(node) in names

    def call_of(self, node: Optional[ast.AST], *names: str) -> bool:
        return isinstance(node, ast.Call) and self.qualified(node.func) in names

    def spelling(self, qualified: str) -> Optional[str]:
        """How this file can write the qualified name, or None (nothing imported leads there)."""
        best: Optional[str] = None
        for local, target in self.aliases.items():
            if qualified == target or qualified.startswith(target + "."):
                candidate = local + qualified[len(target):]
                if best is None or len(candidate) < len(best):
                    best = candidate
        return best


FunctionKind = Literal["jit", "kernel", "plain"]


def decorator_name(names: Names, decorator: ast.expr) -> Optional[FunctionKind]:
    """'jit' / 'kernel' for @cute.jit, @cute.kernel, @cute.jit(...), else None."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    qualified = names.qualified(target)
    if qualified in (CUTE + ".jit", "cutlass.jit"):
        return "jit"
    if qualified in (CUTE + ".kernel", "cutlass.kernel"):
        return "kernel"
    return None


def constant_int(node: Optional[ast.AST]) -> Optional[int]:
    """The value of an integer literal (also -N), else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = constant_int(node.operand)
        return -inner if inner is not None else None
    return None
