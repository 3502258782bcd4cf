"""kernel-tidy's frontend for NVIDIA CuTe DSL (CUTLASS 4 Python) kernels.

Protocol (docs/architecture.md): one process serves many files. For each, the
driver writes on stdin one line of JSON, {"version": 2, "path": display name,
"checks": [enabled rule ids], "options": {CheckOptions}, "length": N}, and
when the run has other Python files, "file": the file's absolute path and
"modules": the absolute paths of all the run's Python files (read, never run,
for what their calls pass to this file's functions: project.py), followed by
the file's N bytes, and reads on stdout one line of JSON:
{"version": 2, "findings": [...], "errors": [{"line", "column", "message"}]}.
Offsets are byte offsets into the file as stored (source.py maps Python's
positions back to them), and each edit names the text it replaces. The
process ends at the end of its input, and when its parent is gone."""

import bisect
import json
import os
import signal
import sys
import threading
import time
from typing import Any, BinaryIO, Dict, List, Optional, Tuple

from .context import Context
from .findings import Finding
from .nolint import Suppressions, comment_places
from .project import Project
from .rules import RULES
from .source import Source

PROTOCOL_VERSION = 2
# Python's syntax tree takes about 60 MB of memory per MB of source (parsed in
# pieces, source.py), and the analysis is linear in it: a larger file is refused
# rather than allowed to take more than about 1.5 GB (real CuTe DSL files are
# under 1 MB).
MAX_FILE_BYTES = 16 * 1024 * 1024


def _error(message: str, line: int = 0, column: int = 0,
           offset: Optional[int] = None) -> Dict[str, Any]:
    """An error of the file; offset, when known, is the stored byte offset the
    driver places it at (its lines may differ from Python's: a lone CR)."""
    error: Dict[str, Any] = {"line": line, "column": column, "message": message}
    if offset is not None:
        error["offset"] = offset
    return error


def _failed(*errors: Dict[str, Any]) -> Dict[str, Any]:
    return {"version": PROTOCOL_VERSION, "findings": [], "errors": list(errors)}


def analyze(text: bytes, checks: List[str], options: Optional[Dict[str, str]] = None,
            path: Optional[str] = None, project: Optional[Project] = None) -> Dict[str, Any]:
    """The report of one file: findings of the enabled checks, NOLINT applied; with
    the run's project, what its other modules pass to this file's functions is
    known (path: this file's absolute path)."""
    if len(text) > MAX_FILE_BYTES:
        return _failed(_error(
            f"not analysed: the file is {len(text) / 2**20:.1f} MiB, over the CuTe DSL "
            f"frontend's limit of {MAX_FILE_BYTES // 2**20} MiB (its syntax tree takes about "
            "60 MB of memory per MB of source)"))
    try:
        source = Source(text)
    except SyntaxError as e:  # An unknown codec or a BOM against the coding line.
        return _failed(_error(f"cannot decode: {e.msg}", e.lineno or 0))
    except ValueError as e:  # Bytes that are not the encoding's, positions not exact.
        return _failed(_error(f"cannot parse: {e}"))
    try:
        source.parse()
        suppressions = Suppressions(source)
    except SyntaxError as e:
        line = e.lineno or 0
        column = max((e.offset or 1) - 1, 0)
        return _failed(_error(f"Python syntax error: {e.msg}", line, e.offset or 0,
                              source.char_offset(line, column) if line else None))
    except (RecursionError, MemoryError):
        # Python's parser gives up on deep nesting (100,000 unary minus signs)
        # with either: one clear message, not a traceback.
        return _failed(_error("cannot parse: the code is nested too deeply for Python's "
                              "parser"))
    except ValueError as e:  # Null bytes; a tokenizer that cannot read the comments.
        return _failed(_error(f"cannot parse: {e}"))
    external = project.external_calls(path, source.tree) if project and path else None
    ctx = Context(source, options, external)
    if project and path and not external:
        # What this file passes to the others, from its own analysis: it is
        # the analysis the other files would build (nothing reaches it from them).
        project.summarise(path, ctx.module, source.tree)
    errors = [_error(f"{message} [clang-tidy-nolint]", line, column,
                     source.line_starts[line - 1] + column - 1)
              for line, column, message in suppressions.errors]
    findings: List[Finding] = []
    if ctx.names.uses_dsl() and not errors:
        for rule in checks:
            check = RULES.get(rule)
            if check is None:
                continue
            try:
                found = check(ctx)
            except RecursionError:
                errors.append(_error(f"{rule}: the code is nested too deeply to analyse"))
                continue
            for finding in found:
                line = _line_of(source, finding.begin)
                if not suppressions.suppressed(rule, line):
                    findings.append(finding)
    findings.sort(key=lambda f: (f.begin, f.rule))
    for finding in findings:
        _check_fix(source, finding)
    places = comment_places(source) if findings else {}
    reports = []
    for finding in findings:
        report = finding.to_json(source.data)
        # Where the driver's --add-nolint puts the comment of this line; None:
        # nowhere (the line goes on in a string or after a backslash).
        place = places.get(_line_of(source, finding.begin))
        report["nolint"] = None if place is None else {"offset": place[0], "join": place[1]}
        reports.append(report)
    return {"version": PROTOCOL_VERSION, "findings": reports, "errors": errors}


def _check_fix(source: Source, finding: Finding) -> None:
    """Drops a fix that cannot be sent exactly. The driver writes an edit's text as
    UTF-8 and checks each edit's "replaced" text (UTF-8) against the stored bytes:
    in a UTF-8 file an edit may not touch or move bytes that are not UTF-8, in a
    file in another encoding it may only touch and write ASCII."""
    if finding.fix is None:
        return
    for edit in finding.fix.edits:
        replaced = source.data[edit.begin:edit.end]
        if source.utf8:
            try:
                replaced.decode("utf-8")
                edit.text.encode("utf-8")
                continue
            except UnicodeError:
                reason = "the fix would change bytes that are not UTF-8"
        elif replaced.isascii() and edit.text.isascii():
            continue
        else:
            reason = (f"the file is encoded in {source.encoding} and the fix would change "
                      "non-ASCII text")
        finding.no_fix_reason = f"{reason}; it is left to the author"
        finding.fix = None
        return


def _line_of(source: Source, offset: int) -> int:
    return bisect.bisect_right(source.line_starts, offset)


def _exit_when_orphaned(parent: int) -> None:
    """Ends the process when the driver is gone (killed, even with SIGKILL): the
    interpreter is then adopted by another process, and nobody reads its reply."""
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(1)


_projects: Dict[Tuple[str, ...], Project] = {}


def _project(request: Dict[str, Any]) -> Optional[Project]:
    """The run's project (one per list of modules: the files of one run share it)."""
    modules = request.get("modules")
    if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
        return None
    key = tuple(modules)
    if key not in _projects:
        _projects.clear()
        _projects[key] = Project(modules)
    return _projects[key]


def _answer(request: Dict[str, Any], text: bytes) -> Dict[str, Any]:
    """The report of one request; a defect of the frontend itself is an error of
    the file, not the end of the process that serves the other files."""
    try:
        path = request.get("file")
        return analyze(text, request.get("checks", list(RULES)), request.get("options"),
                       path if isinstance(path, str) else None, _project(request))
    except Exception as e:  # pylint: disable=broad-except
        return _failed(_error(f"internal error of the CuTe DSL frontend: "
                              f"{type(e).__name__}: {e}"))


def serve(stdin: BinaryIO, stdout: BinaryIO) -> int:
    """Answers requests until stdin ends; 1 when a request is cut short."""
    while True:
        header = stdin.readline()
        if not header:
            return 0
        request = json.loads(header.decode("utf-8"))
        length = request["length"]
        text = stdin.read(length)
        if len(text) != length:
            return 1
        stdout.write(json.dumps(_answer(request, text)).encode("ascii") + b"\n")
        stdout.flush()


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--rules"]:
        sys.stdout.write("".join(rule + "\n" for rule in RULES))
        return 0
    # Interrupted with its driver (Ctrl-C reaches the whole process group): end
    # quietly, without a traceback of KeyboardInterrupt.
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    threading.Thread(target=_exit_when_orphaned, args=(os.getppid(),), daemon=True).start()
    return serve(sys.stdin.buffer, sys.stdout.buffer)
