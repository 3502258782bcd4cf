"""NOLINT comments, as clang-tidy reads them, written as Python comments:
`# NOLINT`, `# NOLINT(glob, ...)` on the reported line, `# NOLINTNEXTLINE(...)`
on the line above, `# NOLINTBEGIN(...)` ... `# NOLINTEND(...)` around lines.
As in clang-tidy, a directive may stand anywhere in the comment
(`# lane id, NOLINT(cute-...)`), and an unmatched BEGIN or END is an error of
the file."""

import fnmatch
import re
from typing import Dict, List, Optional, Tuple

from .source import Source

DIRECTIVE = re.compile(r"NOLINT(NEXTLINE|BEGIN|END)?(\(([^)]*)\))?")


def _globs(text: Optional[str]) -> List[str]:
    if text is None:
        return ["*"]
    return [g.strip() for g in text.split(",") if g.strip()]


def _matches(globs: List[str], rule: str) -> bool:
    return any(fnmatch.fnmatchcase(rule, g) for g in globs)


class Suppressions:
    """The lines and ranges each rule is silenced on, and the file's NOLINT errors."""

    def __init__(self, source: Source) -> None:
        self.lines: Dict[int, List[List[str]]] = {}
        self.ranges: List[Tuple[int, int, List[str]]] = []  # (first line, last line, globs)
        self.errors: List[Tuple[int, int, str]] = []  # (line, column, message)
        open_blocks: List[Tuple[int, int, Optional[str]]] = []  # (line, column, globs)
        for line, column, text in source.comments():
            for match in DIRECTIVE.finditer(text):
                kind, globs = match.group(1), _globs(match.group(3))
                errors = "surrogateescape" if source.utf8 else "replace"
                at = column + len(text[:match.start()].encode(source.encoding, errors))
                if kind is None:
                    self.lines.setdefault(line, []).append(globs)
                elif kind == "NEXTLINE":
                    self.lines.setdefault(line + 1, []).append(globs)
                elif kind == "BEGIN":
                    open_blocks.append((line, at, match.group(3)))
                else:
                    self._end_block(open_blocks, line, at, match.group(3), globs)
        for line, at, _ in open_blocks:
            self.errors.append((line, at + 1,
                                "unmatched 'NOLINTBEGIN' comment without a subsequent "
                                "'NOLINTEND' comment"))

    def _end_block(self, open_blocks: List[Tuple[int, int, Optional[str]]], line: int, at: int,
                   checks: Optional[str], globs: List[str]) -> None:
        """Closes the innermost open block with the same checks as this END."""
        for i in range(len(open_blocks) - 1, -1, -1):
            if open_blocks[i][2] == checks:
                begin = open_blocks.pop(i)
                self.ranges.append((begin[0], line, globs))
                return
        self.errors.append((line, at + 1,
                            "unmatched 'NOLINTEND' comment without a previous "
                            "'NOLINTBEGIN' comment"))

    def suppressed(self, rule: str, line: int) -> bool:
        if any(_matches(g, rule) for g in self.lines.get(line, [])):
            return True
        return any(first <= line <= last and _matches(g, rule) for first, last, g in self.ranges)
