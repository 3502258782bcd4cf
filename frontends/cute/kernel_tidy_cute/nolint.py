"""NOLINT comments, as clang-tidy reads them, written as Python comments:
`# NOLINT`, `# NOLINT(glob, ...)` on the reported line, `# NOLINTNEXTLINE(...)`
on the line above, `# NOLINTBEGIN(...)` ... `# NOLINTEND(...)` around lines.
An unmatched BEGIN or END is an error of the file, as in clang-tidy."""

import fnmatch
import re

DIRECTIVE = re.compile(r"NOLINT(NEXTLINE|BEGIN|END)?(\(([^)]*)\))?")


def _globs(text):
    if text is None:
        return ["*"]
    return [g.strip() for g in text.split(",") if g.strip()]


def _matches(globs, rule):
    return any(fnmatch.fnmatchcase(rule, g) for g in globs)


class Suppressions:
    def __init__(self, source):
        self.lines = {}  # line -> [globs]
        self.ranges = []  # (first line, last line, globs)
        self.errors = []  # (line, column, message)
        open_blocks = []
        for line, column, text in source.comments():
            body = text[1:].strip()
            match = DIRECTIVE.match(body)
            if not match:
                continue
            kind, globs = match.group(1), _globs(match.group(3))
            if kind is None:
                self.lines.setdefault(line, []).append(globs)
            elif kind == "NEXTLINE":
                self.lines.setdefault(line + 1, []).append(globs)
            elif kind == "BEGIN":
                open_blocks.append((line, column, match.group(3)))
            else:
                for i in range(len(open_blocks) - 1, -1, -1):
                    if open_blocks[i][2] == match.group(3):
                        begin = open_blocks.pop(i)
                        self.ranges.append((begin[0], line, globs))
                        break
                else:
                    self.errors.append((line, column + 1,
                                        "unmatched 'NOLINTEND' comment without a previous "
                                        "'NOLINTBEGIN' comment"))
        for line, column, _ in open_blocks:
            self.errors.append((line, column + 1,
                                "unmatched 'NOLINTBEGIN' comment without a subsequent "
                                "'NOLINTEND' comment"))

    def suppressed(self, rule, line):
        if any(_matches(g, rule) for g in self.lines.get(line, [])):
            return True
        return any(first <= line <= last and _matches(g, rule) for first, last, g in self.ranges)
