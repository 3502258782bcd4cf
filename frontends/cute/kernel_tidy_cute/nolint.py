"""NOLINT comments, as clang-tidy reads them, written as Python comments:
`# NOLINT`, `# NOLINT(glob, ...)` on the reported line, `# NOLINTNEXTLINE(...)`
on the line above, `# NOLINTBEGIN(...)` ... `# NOLINTEND(...)` around lines.
As in clang-tidy, a directive may stand anywhere in the comment
(`# lane id, NOLINT(cute-...)`), and an unmatched BEGIN or END is an error of
the file."""

import fnmatch
import re
import tokenize
from typing import Dict, Iterator, List, Optional, Tuple

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


def _tokenizer_lines(source: Source) -> Iterator[str]:
    """The lines as the tokenizer expects them: each ends in LF (it would not end a
    line at a lone CR); columns count characters, so they do not change."""
    for line in range(1, source.line_count + 1):
        text = source.line_text(line)
        body = text.rstrip("\r\n")
        yield body + "\n" if body != text else text


def comment_places(source: Source) -> Dict[int, Tuple[int, bool]]:
    """Where `--add-nolint` may put a NOLINT comment on each line, found with Python's
    own tokenizer, never by scanning characters: the stored offset of the line's end
    (where the tokenizer ends a logical or physical line, after any comment there) and
    False, or the offset of the ')' of a NOLINT(...) already on the line and True (the
    rules join its list). A line that holds no such end (it is inside a string, or goes
    on with a backslash) is absent: a comment there would change the code. Raises
    ValueError when the tokenizer cannot read the file."""
    places: Dict[int, Tuple[int, bool]] = {}
    comments: Dict[int, Tuple[int, str]] = {}
    lines = _tokenizer_lines(source)
    try:
        for tok in tokenize.generate_tokens(lambda: next(lines, "")):
            line, column = tok.start
            if tok.type == tokenize.COMMENT:
                comments[line] = (column, tok.string)
            elif tok.type in (tokenize.NEWLINE, tokenize.NL) and line not in places:
                places[line] = (source.char_offset(line, column), False)
    except (tokenize.TokenError, SyntaxError) as e:
        raise ValueError(f"cannot find the ends of the lines: {e}") from None
    for line, (column, text) in comments.items():
        for match in DIRECTIVE.finditer(text):
            if line in places and match.group(1) is None and (match.group(3) or "").strip():
                places[line] = (source.char_offset(line, column + match.end() - 1), True)
                break
    return places
