"""kernel-tidy's frontend for NVIDIA CuTe DSL (CUTLASS 4 Python) kernels.

Protocol (docs/architecture.md): the driver writes on stdin one line of JSON,
{"version": 1, "path": display name, "checks": [enabled rule ids],
 "options": {CheckOptions}}, followed by the file's bytes, and reads on stdout:
{"version": 1, "findings": [...], "errors": [{"line", "column", "message"}]}.
Offsets are UTF-8 byte offsets into "text"."""

import json
import sys

from .context import Context
from .nolint import Suppressions
from .rules import RULES
from .source import Source

PROTOCOL_VERSION = 1


def analyze(text: bytes, checks, options=None):
    """The report of one file: findings of the enabled checks, NOLINT applied."""
    try:
        source = Source(text)
    except SyntaxError as e:
        line = e.lineno or 0
        return {"version": PROTOCOL_VERSION, "findings": [],
                "errors": [{"line": line, "column": e.offset or 0,
                            "message": "Python syntax error: %s" % e.msg}]}
    except RecursionError:
        return {"version": PROTOCOL_VERSION, "findings": [],
                "errors": [{"line": 0, "column": 0,
                            "message": "cannot parse: the code is nested too deeply"}]}
    except ValueError as e:  # Null bytes, bad encodings.
        return {"version": PROTOCOL_VERSION, "findings": [],
                "errors": [{"line": 0, "column": 0, "message": "cannot parse: %s" % e}]}
    ctx = Context(source, options)
    suppressions = Suppressions(source)
    errors = [{"line": l, "column": c, "message": m + " [clang-tidy-nolint]"}
              for l, c, m in suppressions.errors]
    findings = []
    if ctx.names.uses_dsl() and not errors:
        for rule in checks:
            check = RULES.get(rule)
            if check is None:
                continue
            try:
                found = check(ctx)
            except RecursionError:
                errors.append({"line": 0, "column": 0, "message": "%s: the code is nested too "
                               "deeply to analyse" % rule})
                continue
            for finding in found:
                line = _line_of(source, finding.begin)
                if not suppressions.suppressed(rule, line):
                    findings.append(finding)
    findings.sort(key=lambda f: (f.begin, f.rule))
    return {"version": PROTOCOL_VERSION, "findings": [f.to_json() for f in findings],
            "errors": errors}


def _line_of(source, offset):
    import bisect
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
