"""What the other modules of one run pass to a module's functions and classes.

A helper class of one file often gets its thread index from a kernel in another
file (`self.epilogue = Epilogue(...)` in __init__, `self.epilogue.run(tidx=tidx)`
in the kernel). The driver names the run's Python files; the modules that import
the analysed one are read (parsed, never imported or run), and each call of one
of its functions or classes is summarised by the index role (model.index_role)
of every argument, computed in the calling module. Imports are resolved by path:
`from .m import C` next to the file, `from pkg.m import C` to the run's files
whose path ends in pkg/m.py (several: each may be the one called, so each counts
the call)."""

import ast
import os
import re
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from .model import ExternalCalls, Function, Module
from .names import Names
from .source import Source

# One call of another module's function: (target module's path, the called name
# in it, the method called on an instance of it or None, the roles passed by
# position, by keyword, and whether *args/**kwargs hide some).
CallSummary = Tuple[str, str, Optional[str], List[Optional[str]], Dict[str, Optional[str]],
                    bool]
_WORD = re.compile(r"\w+")


def module_names(path: str) -> List[str]:
    """The dotted names a file may be imported as: every tail of its folders
    (pkg/sub/m.py: m, sub.m, pkg.sub.m); a package's __init__.py is the package."""
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)[1:]
    if not parts or not parts[-1].endswith(".py"):
        return []
    parts[-1] = parts[-1][:-3]
    if parts[-1] == "__init__":
        parts.pop()
    return [".".join(parts[i:]) for i in range(len(parts) - 1, -1, -1)
            if all(p.isidentifier() for p in parts[i:])]


class Project:
    """The Python files of one run and the calls between them (read lazily, kept
    for the next file of the run)."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.paths = [os.path.normpath(os.path.abspath(p)) for p in paths]
        self._path_set = set(self.paths)
        self._by_name: Dict[str, List[str]] = {}
        for path in self.paths:
            for name in module_names(path):
                self._by_name.setdefault(name, []).append(path)
        self._summaries: Dict[str, List[CallSummary]] = {}
        self._mentions: Optional[Dict[str, List[str]]] = None

    def external_calls(self, path: str, tree: ast.Module) -> ExternalCalls:
        """What the run's other modules pass to the functions and classes of the
        module at path (whose syntax tree is tree): per (class, function), one entry
        per call (model.py)."""
        path = os.path.normpath(os.path.abspath(path))
        names = module_names(path)
        if not names or not any(isinstance(n, (ast.ClassDef, ast.FunctionDef,
                                               ast.AsyncFunctionDef)) for n in tree.body):
            return {}
        found: ExternalCalls = {}
        for other in self._mentioning().get(names[0], []):
            if other == path:
                continue
            for target, name, method, positional, keywords, hidden in self._summary(other):
                if target != path:
                    continue
                found.setdefault((name, method or ""), []).append(
                    None if hidden else _by_parameter(positional, keywords))
        return _as_parameters(found, tree)

    def _mentioning(self) -> Dict[str, List[str]]:
        """Per module name of the run (a file's stem), the files whose words include
        it: only they can import that module (read once, one pass per file)."""
        if self._mentions is None:
            stems = {module_names(p)[0] for p in self.paths if module_names(p)}
            self._mentions = {}
            for path in self.paths:
                text = self._text(path)
                words = set(_WORD.findall(text.decode("utf-8", "replace"))) if text else set()
                for stem in words & stems:
                    self._mentions.setdefault(stem, []).append(path)
        return self._mentions

    @staticmethod
    def _text(path: str) -> Optional[bytes]:
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError:
            return None

    def _parsed(self, path: str) -> Optional[Source]:
        """Another file of the run, parsed (None: not readable, not Python)."""
        text = self._text(path)
        if text is None:
            return None
        try:
            source = Source(text)
            source.parse()
            return source
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None

    def _summary(self, path: str) -> List[CallSummary]:
        """The calls of path into the run's other modules, with the roles passed.
        The module is analysed only when an import of it names a file of the run."""
        found = self._summaries.get(path)
        if found is not None:
            return found
        found = []
        source = self._parsed(path)
        bindings = {} if source is None else self._bindings(path, source.tree)
        module: Optional[Module] = None
        if source is not None and bindings:
            try:
                module = Module(source.tree, Names(source.tree, source.nodes()))
            except (ValueError, RecursionError, MemoryError):
                module = None
        if module is not None:
            found = _calls(module, bindings)
        self._summaries[path] = found
        return found

    def summarise(self, path: str, module: Module, tree: ast.Module) -> List[CallSummary]:
        """The summary of path from its analysis without other modules' calls (the
        frontend's own, when it analyses path: kept, not parsed again)."""
        path = os.path.normpath(os.path.abspath(path))
        found = self._summaries.get(path)
        if found is None:
            bindings = self._bindings(path, tree)
            found = _calls(module, bindings) if bindings else []
            self._summaries[path] = found
        return found

    def _bindings(self, path: str, tree: ast.Module) -> Dict[str, List[Tuple[str, str]]]:
        """Per name bound by an import of path: the (module path, name) pairs of the
        run it may be; a name "" stands for the module itself."""
        found: Dict[str, List[Tuple[str, str]]] = {}
        folder = os.path.dirname(path)
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname is not None:
                        for target in self._resolve(folder, 0, alias.name):
                            found.setdefault(alias.asname, []).append((target, ""))
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    local = alias.asname or alias.name
                    module = node.module or ""
                    pairs = [(t, alias.name) for t in self._resolve(folder, node.level, module)]
                    sub = module + "." + alias.name if module else alias.name
                    pairs += [(t, "") for t in self._resolve(folder, node.level, sub)]
                    if pairs:
                        found.setdefault(local, []).extend(pairs)
        return found

    def _resolve(self, folder: str, level: int, dotted: str) -> List[str]:
        """The run's files a module name may be, imported from a file in folder."""
        if level:
            base = folder
            for _ in range(level - 1):
                base = os.path.dirname(base)
            stem = os.path.join(base, *dotted.split(".")) if dotted else base
            return [p for p in (stem + ".py", os.path.join(stem, "__init__.py"))
                    if p in self._path_set]
        return list(self._by_name.get(dotted, []))


def _by_parameter(positional: List[Optional[str]],
                  keywords: Dict[str, Optional[str]]) -> Dict[str, Optional[str]]:
    """A call's roles, positions as "#0", "#1"... until the parameters are known."""
    found = {f"#{i}": role for i, role in enumerate(positional)}
    found.update(keywords)
    return found


def _as_parameters(found: ExternalCalls, tree: ast.Module) -> ExternalCalls:
    """The calls keyed as model.py asks: a class's constructor as (class,
    "__init__"), a function as ("", name), a method as (class, method); positions
    turned into the parameters' names."""
    classes = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}
    functions = {n.name: n for n in tree.body
                 if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    result: ExternalCalls = {}
    for (name, method), calls in found.items():
        cls = classes.get(name)
        if cls is not None:
            wanted = method or "__init__"
            fn = next((m for m in cls.body if isinstance(m, (ast.FunctionDef,
                                                             ast.AsyncFunctionDef))
                       and m.name == wanted), None)
            key, skip = (name, wanted), 1
        elif not method and name in functions:
            fn, key, skip = functions[name], ("", name), 0
        else:
            continue
        if fn is None:
            continue
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args][skip:]
        entries = result.setdefault(key, [])
        for call in calls:
            if call is None or any(f"#{i}" in call for i in range(len(params), len(call))):
                entries.append(None)  # More arguments than parameters: not matched.
                continue
            entries.append({(params[int(k[1:])] if k.startswith("#") else k): role
                            for k, role in call.items()})
    return result


def _calls(module: Module, bindings: Dict[str, List[Tuple[str, str]]]) -> List[CallSummary]:
    """The calls of module that reach an imported name of the run: `C(...)`,
    `m.C(...)`, and methods of what those build, called on a name or on a field
    (`obj = C(...)` then `obj.run(...)`; `self.obj = C(...)` then `self.obj.run(...)`)."""
    found: List[CallSummary] = []
    # A method reaches the run only on what a call of an imported name built in
    # the same function (`obj = C(...)`) or class (`self.obj = C(...)`): in a
    # function or class with no such call, method calls are not looked into.
    building = {_unit(caller) for call, caller in module.calls()
                if caller is not None and _names_imported(call.func, bindings)}
    for call, caller in module.calls():
        if not _names_imported(call.func, bindings) and (
                caller is None or _unit(caller) not in building):
            continue
        for target, name, method in _targets(module, bindings, call, caller):
            positional: List[Optional[str]] = []
            hidden = False
            for arg in call.args:
                if isinstance(arg, ast.Starred):
                    hidden = True
                    break
                positional.append(_role(module, arg, caller))
            keywords: Dict[str, Optional[str]] = {}
            for keyword in call.keywords:
                if keyword.arg is None:
                    hidden = True
                else:
                    keywords[keyword.arg] = _role(module, keyword.value, caller)
            found.append((target, name, method, positional, keywords, hidden))
    return found


def _unit(fn: Function) -> ast.AST:
    """The class of a method (or of a function nested in one), else the function
    at the top of the module that holds fn."""
    while fn.parent is not None:
        fn = fn.parent
    return fn.cls if fn.cls is not None else fn.node


def _names_imported(func: ast.expr, bindings: Dict[str, List[Tuple[str, str]]]) -> bool:
    """Whether a call's callee is spelled with a name an import of the run binds
    (`C`, `m.C`): the calls that may build an object of the run."""
    if isinstance(func, ast.Attribute):
        func = func.value
    return isinstance(func, ast.Name) and func.id in bindings


def _role(module: Module, arg: ast.expr, caller: Optional[Function]) -> Optional[str]:
    return None if caller is None else module.index_role(arg, caller)


def _targets(module: Module, bindings: Dict[str, List[Tuple[str, str]]], call: ast.Call,
             caller: Optional[Function]) -> Iterable[Tuple[str, str, Optional[str]]]:
    """(module path, name, method) for each function of the run a call may reach."""
    func = call.func
    built = _built(module, bindings, func, caller)
    if built:
        return [(path, name, None) for path, name in built]
    if isinstance(func, ast.Attribute):
        instance = func.value
        source: Optional[ast.expr] = None
        holder: Optional[Function] = None
        if isinstance(instance, ast.Attribute) and caller is not None:
            stored = module.self_attribute(instance, caller, anywhere=True)
            source = stored[0] if stored is not None else None
            holder = stored[1] if stored is not None else None
        elif isinstance(instance, ast.Name) and caller is not None:
            source, holder = module.single_value(caller, instance.id), caller
        if isinstance(source, ast.Call):
            return [(path, name, func.attr)
                    for path, name in _built(module, bindings, source.func, holder)]
    return []


def _built(module: Module, bindings: Dict[str, List[Tuple[str, str]]], func: ast.expr,
           caller: Optional[Function]) -> List[Tuple[str, str]]:
    """The (module path, name) pairs of the run that `func` names: an imported name,
    or a name of an imported module (`m.C`); not one the caller binds itself."""
    # Whether the caller binds the name itself is asked last: most calls name
    # nothing the run's modules define, and the question walks the caller.
    if isinstance(func, ast.Name):
        found = [(path, name) for path, name in bindings.get(func.id, []) if name]
        if found and caller is not None and module.binds(caller, func.id):
            return []
        return found
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        found = [(path, func.attr) for path, name in bindings.get(func.value.id, [])
                 if not name]
        if found and caller is not None and module.binds(caller, func.value.id):
            return []
        return found
    return []
