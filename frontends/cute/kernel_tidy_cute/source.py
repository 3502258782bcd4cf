"""A Python file as stored, with the byte offsets of its AST nodes and comments.

Every offset this module hands out is a byte offset into the file as stored
(the driver applies edits to those bytes). Python itself works on the decoded
text: it honours a UTF-8 BOM and a PEP 263 coding line (`# -*- coding: latin-1
-*-`), takes CR LF, a lone CR and LF as line breaks, and gives columns as
UTF-8 byte offsets into the decoded line. So the file is decoded here exactly
as Python decodes it, split into lines with Python's line breaks, and each
(line, UTF-8 column) is mapped back to the stored bytes of that line. A file
whose encoding does not map back byte for byte is refused (ValueError): a
position that is not exact would edit the wrong bytes."""

import ast
import codecs
import re
import tokenize
from typing import Iterator, List, Optional, Tuple

# Python's line breaks (its tokenizer translates CR LF and a lone CR to LF);
# str.splitlines() would also break at form feeds, U+2028 and others.
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# A file over this many characters is parsed in pieces of about this size.
_PIECE_CHARS = 64 * 1024
# The characters that stand for bytes of a UTF-8 file that are not UTF-8.
_UNDECODABLE = re.compile("[\udc80-\udcff]")


def _encoding_of(data: bytes) -> Tuple[str, int]:
    """The codec Python decodes data with and the length of its BOM."""
    lines = iter(data.splitlines(keepends=True)[:2])
    try:
        name, _ = tokenize.detect_encoding(lambda: next(lines, b""))
    except SyntaxError as e:
        # A byte that is not UTF-8 in a comment of the first two lines, which
        # Python's own tokenizer accepts: read as UTF-8 (each such byte keeps one
        # position; parse() asks Python about the bytes). An unknown codec or a
        # BOM against the coding line stays an error.
        if "invalid or missing encoding declaration" not in str(e):
            raise
        name = "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8"
    if name == "utf-8-sig":
        return "utf-8", len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0
    return codecs.lookup(name).name, 0


def span(node: ast.AST) -> Tuple[int, int, int, int]:
    """(line, UTF-8 column, end line, end column) of a node that has a position
    (an expression, a statement, an argument: every node the rules report)."""
    first: int = getattr(node, "lineno")
    last: int = getattr(node, "end_lineno")
    return first, getattr(node, "col_offset"), last, getattr(node, "end_col_offset")


class Source:
    """The parsed file: AST, byte offsets of nodes, comment tokens."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.encoding, bom = _encoding_of(data)
        self.utf8 = self.encoding == "utf-8"
        # Python accepts bytes that are not UTF-8 in a comment; each stays one
        # character (a lone surrogate) so that positions after it stay exact.
        self._errors = "surrogateescape" if self.utf8 else "strict"
        try:
            text = data[bom:].decode(self.encoding, self._errors)
        except UnicodeDecodeError as e:
            raise ValueError(f"the file is not valid {self.encoding} (byte "
                             f"0x{data[bom + e.start]:02x} at offset {bom + e.start})") from None
        # Python lines: decoded text with its line break, and the offset of its first
        # byte; as before, N line breaks make N + 1 lines (the last one maybe empty).
        self._lines: List[str] = []
        self.line_starts: List[int] = []
        at, begin = bom, 0
        for end in [m.end() for m in _LINE_BREAK.finditer(text)] + [len(text)]:
            line = text[begin:end]
            stored = line.encode(self.encoding, self._errors)
            # Strict UTF-8 decoding is exact; another codec must give the bytes back.
            if not self.utf8 and (data[at:at + len(stored)] != stored
                                  or not self._fixed_bytes(line, stored)):
                raise ValueError(f"the file's encoding {self.encoding} does not map each "
                                 "character to bytes of its own; positions in it would not "
                                 "be exact")
            self._lines.append(line)
            self.line_starts.append(at)
            at, begin = at + len(stored), end
        if at != len(data):
            raise ValueError(f"the file's encoding {self.encoding} does not give back its "
                             "bytes; positions in it would not be exact")
        self._text = text
        self.tree: ast.Module = ast.Module(body=[], type_ignores=[])
        self._nodes: Optional[List[ast.AST]] = None
        self._comments: Optional[List[Tuple[int, int, str]]] = None

    def parse(self) -> None:
        """Parses the decoded text (a str: its coding line is not applied twice).
        Raises SyntaxError, RecursionError or ValueError as ast.parse does."""
        text = self._text
        if _UNDECODABLE.search(text):
            # Python's verdict on the bytes (it refuses them outside comments); the
            # text parsed has one ASCII byte for each, so columns stay stored bytes.
            ast.parse(self.data)
            text = _UNDECODABLE.sub("?", text)
        self.tree = self._parse_in_pieces(text) or ast.parse(text)

    def _parse_in_pieces(self, text: str) -> Optional[ast.Module]:
        """A big file parsed a piece of top-level definitions at a time, so that
        Python's parser holds its own tree of one piece beside the finished ones
        (whole, it holds both trees of the file: twice the memory). Pieces start at
        a line that begins with `def`, `class` or a decorator, where the text before
        parses (a piece that ends inside a string, a bracket or a block does not; it
        grows to a later such line, twice as far each time). None where the last
        piece does not parse: the caller parses the whole text, for its exact errors."""
        if len(text) < _PIECE_CHARS or "__future__" in text or text is not self._text:
            return None  # A future import may change how the rest parses.
        lines = self._lines  # Python's lines (a form feed does not end one).
        body: List[ast.stmt] = []
        start, size, wanted = 0, 0, _PIECE_CHARS
        for i, line in enumerate(lines + [""]):
            last = i == len(lines)
            if i > start and (last or (
                    size >= wanted and line.startswith(("def ", "class ", "@", "async def "))
                    and not lines[i - 1].startswith("@"))):
                try:
                    piece = ast.parse("".join(lines[start:i]))
                except SyntaxError:
                    if last:
                        return None
                    wanted *= 2  # Inside a string or a bracket: a longer piece.
                    size += len(line)
                    continue
                ast.increment_lineno(piece, start)
                body.extend(piece.body)
                start, size, wanted = i, 0, _PIECE_CHARS
            size += len(line)
        return ast.Module(body=body, type_ignores=[])

    def nodes(self) -> List[ast.AST]:
        """Every node of the tree (ast.walk's order), walked once for all who ask."""
        if self._nodes is None:
            self._nodes = list(ast.walk(self.tree))
        return self._nodes

    def _fixed_bytes(self, line: str, stored: bytes) -> bool:
        """Whether each character of line has bytes of its own, so that a prefix of
        the line is stored as a prefix of its bytes (not so for stateful codecs such
        as ISO-2022-JP)."""
        if line.isascii() and stored == line.encode("ascii"):
            return True
        return b"".join(c.encode(self.encoding) for c in line) == stored

    def _raw_column(self, line: int, prefix: str) -> int:
        """Bytes that the decoded prefix of line takes in the stored file."""
        return len(prefix.encode(self.encoding, self._errors))

    def _prefix(self, line: int, col: int) -> str:
        """The decoded text of line before UTF-8 byte column col (as ast gives it)."""
        text = self._lines[line - 1]
        if text.isascii():
            return text[:col]
        return text.encode("utf-8", self._errors)[:col].decode("utf-8", self._errors)

    @property
    def line_count(self) -> int:
        return len(self._lines)

    def offset(self, line: int, col: int) -> int:
        """Stored byte offset of a 1-based line and a 0-based UTF-8 byte column (as
        ast gives them)."""
        if col == 0 or self.utf8:
            return self.line_starts[line - 1] + col
        return self.line_starts[line - 1] + self._raw_column(line, self._prefix(line, col))

    def char_offset(self, line: int, char: int) -> int:
        """Stored byte offset of a 1-based line and a 0-based character column
        (tokenize's and SyntaxError's unit), clamped to the line."""
        if not 1 <= line <= len(self._lines):
            return 0 if line < 1 else len(self.data)
        return self.line_starts[line - 1] + self._raw_column(line, self._lines[line - 1][:char])

    def begin(self, node: ast.AST) -> int:
        first, column, _, _ = span(node)
        return self.offset(first, column)

    def end(self, node: ast.AST) -> int:
        _, _, last, end_column = span(node)
        return self.offset(last, end_column)

    def text(self, node: ast.AST) -> str:
        """The decoded source text of node."""
        first, column, last, end_column = span(node)
        head = self._prefix(first, column)
        tail = self._prefix(last, end_column)
        if first == last:
            return tail[len(head):]
        middle = "".join(self._lines[first:last - 1])
        return self._lines[first - 1][len(head):] + middle + tail

    def line_text(self, line: int) -> str:
        """The decoded text of line, with its line break."""
        return self._lines[line - 1]

    def line_break(self, line: int) -> str:
        """The line break that ends line ("\\r\\n", "\\r", "\\n"; "" at the end of the file)."""
        text = self._lines[line - 1]
        body = text.rstrip("\r\n")
        return text[len(body):]

    def indentation(self, line: int) -> str:
        text = self.line_text(line)
        return text[:len(text) - len(text.lstrip(" \t"))]

    def line_end(self, line: int) -> int:
        """Offset just past the line break of line (or the end of the file)."""
        return self.line_starts[line] if line < len(self.line_starts) else len(self.data)

    def _tokenizer_lines(self) -> Iterator[str]:
        # Each line ends in LF, as the tokenizer expects (it would not end a line
        # at a lone CR); columns count characters, so they do not change.
        for line in self._lines:
            body = line.rstrip("\r\n")
            yield body + "\n" if body != line else line

    def comments(self) -> List[Tuple[int, int, str]]:
        """(line, stored byte column, text) of every comment, in file order. Raises
        ValueError when the tokenizer cannot read the file: a comment it missed would
        be lost by a fix that keeps the comments of the lines it replaces."""
        if self._comments is None:
            comments = []
            lines = iter(self._tokenizer_lines())
            try:
                for tok in tokenize.generate_tokens(lambda: next(lines, "")):
                    if tok.type == tokenize.COMMENT:
                        line, column = tok.start
                        # tokenize columns count characters; offsets count stored bytes.
                        prefix = self._lines[line - 1][:column]
                        comments.append((line, self._raw_column(line, prefix), tok.string))
            except (tokenize.TokenError, SyntaxError) as e:
                raise ValueError(f"cannot read the comments: {e}") from None
            self._comments = comments
        return self._comments

    def comments_between(self, first_line: int, last_line: int) -> List[Tuple[int, int, str]]:
        return [c for c in self.comments() if first_line <= c[0] <= last_line]

    def only_code_on_lines(self, node: ast.AST) -> bool:
        """Whether node's lines hold nothing but node (and maybe a trailing comment)."""
        first, column, last, end_column = span(node)
        rest = self._lines[last - 1][len(self._prefix(last, end_column)):].strip()
        before = self._prefix(first, column)
        return before.strip() == "" and (rest == "" or rest.startswith("#"))
