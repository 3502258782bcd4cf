"""Builds the frontend's view of a snippet of Python for the unit tests."""

import ast
import os
import sys
import textwrap
from typing import List

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from kernel_tidy_cute.context import Context  # noqa: E402
from kernel_tidy_cute.findings import Finding  # noqa: E402
from kernel_tidy_cute.rules import RULES  # noqa: E402
from kernel_tidy_cute.source import Source  # noqa: E402

HEADER = "import cutlass\nimport cutlass.cute as cute\n"


def context(code: str, header: str = HEADER) -> Context:
    """The context of header + code (dedented), parsed."""
    source = Source((header + textwrap.dedent(code)).encode("utf-8"))
    source.parse()
    return Context(source)


def findings(rule: str, code: str, header: str = HEADER) -> List[Finding]:
    return RULES[rule](context(code, header))


def apply(code: str, finding: Finding, header: str = HEADER) -> str:
    """header + code with the finding's fix applied (the text after the header)."""
    data = (header + textwrap.dedent(code)).encode("utf-8")
    assert finding.fix is not None
    for edit in sorted(finding.fix.edits, key=lambda e: e.begin, reverse=True):
        data = data[:edit.begin] + edit.text.encode("utf-8") + data[edit.end:]
    text = data.decode("utf-8")
    ast.parse(text)
    return text[len(header):]
