"""kernel-tidy's frontend for NVIDIA CuTe DSL (CUTLASS 4 Python) kernels.

Protocol (docs/architecture.md): the driver writes on stdin one line of JSON,
{"version": 1, "path": display name, "checks": [enabled rule ids],
 "options": {CheckOptions}}, followed by the file's bytes, and reads on stdout:
{"version": 1, "findings": [...], "errors": [{"line", "column", "message"}]}.
Offsets are byte offsets into the file as stored (source.py maps Python's
positions back to them), and each edit names the text it replaces."""

import bisect
import json
import sys
from typing import Any, Dict, List, Optional

from .context import Context
from .findings import Finding
from .nolint import Suppressions
from .rules import RULES
from .source import Source

PROTOCOL_VERSION = 1


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


def analyze(text: bytes, checks: List[str],
            options: Optional[Dict[str, str]] = None) -> Dict[str, Any]:
    """The report of one file: findings of the enabled checks, NOLINT applied."""
    try:
        source = Source(text)
    except SyntaxError as e:  # An unknown codec or a BOM against the coding line.
        return _failed(_error("cannot decode: %s" % e.msg, e.lineno or 0))
    except ValueError as e:  # Bytes that are not the encoding's, positions not exact.
        return _failed(_error("cannot parse: %s" % e))
    try:
        source.parse()
        suppressions = Suppressions(source)
    except SyntaxError as e:
        line = e.lineno or 0
        column = max((e.offset or 1) - 1, 0)
        return _failed(_error("Python syntax error: %s" % e.msg, line, e.offset or 0,
                              source.char_offset(line, column) if line else None))
    except (RecursionError, MemoryError):
        # Python's parser gives up on deep nesting (100,000 unary minus signs)
        # with either: one clear message, not a traceback.
        return _failed(_error("cannot parse: the code is nested too deeply for Python's "
                              "parser"))
    except ValueError as e:  # Null bytes; a tokenizer that cannot read the comments.
        return _failed(_error("cannot parse: %s" % e))
    ctx = Context(source, options)
    errors = [_error(m + " [clang-tidy-nolint]", l, c, source.line_starts[l - 1] + c - 1)
              for l, c, m in suppressions.errors]
    findings: List[Finding] = []
    if ctx.names.uses_dsl() and not errors:
        for rule in checks:
            check = RULES.get(rule)
            if check is None:
                continue
            try:
                found = check(ctx)
            except RecursionError:
                errors.append(_error("%s: the code is nested too deeply to analyse" % rule))
                continue
            for finding in found:
                line = _line_of(source, finding.begin)
                if not suppressions.suppressed(rule, line):
                    findings.append(finding)
    findings.sort(key=lambda f: (f.begin, f.rule))
    for finding in findings:
        _check_fix(source, finding)
    return {"version": PROTOCOL_VERSION, "findings": [f.to_json(source.data) for f in findings],
            "errors": errors}


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
            reason = ("the file is encoded in %s and the fix would change non-ASCII text"
                      % source.encoding)
        finding.no_fix_reason = reason + "; it is left to the author"
        finding.fix = None
        return


def _line_of(source: Source, offset: int) -> int:
    return bisect.bisect_right(source.line_starts, offset)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv == ["--rules"]:
        sys.stdout.write("".join(rule + "\n" for rule in RULES))
        return 0
    data = sys.stdin.buffer.read()
    header, _, text = data.partition(b"\n")
    request = json.loads(header.decode("utf-8"))
    report = analyze(text, request.get("checks", list(RULES)), request.get("options"))
    sys.stdout.write(json.dumps(report))
    return 0
