"""A Python file as bytes, with the byte offsets of its AST nodes and its comments."""

import ast
import io
import tokenize


class Source:
    """The parsed file: AST, byte offsets of nodes, comment tokens."""

    def __init__(self, data: bytes):
        self.data = data
        self.tree = ast.parse(data)
        self.line_starts = [0]
        for i, byte in enumerate(data):
            if byte == 0x0A:
                self.line_starts.append(i + 1)
        self._comments = None

    def offset(self, line: int, col: int) -> int:
        """Byte offset of a 1-based line and a 0-based byte column (as ast gives them)."""
        return self.line_starts[line - 1] + col

    def begin(self, node) -> int:
        return self.offset(node.lineno, node.col_offset)

    def end(self, node) -> int:
        return self.offset(node.end_lineno, node.end_col_offset)

    def text(self, node) -> str:
        return self.data[self.begin(node):self.end(node)].decode("utf-8")

    def line_text(self, line: int) -> str:
        start = self.line_starts[line - 1]
        stop = self.line_starts[line] if line < len(self.line_starts) else len(self.data)
        return self.data[start:stop].decode("utf-8")

    def indentation(self, line: int) -> str:
        text = self.line_text(line)
        return text[:len(text) - len(text.lstrip(" \t"))]

    def line_end(self, line: int) -> int:
        """Offset just past the newline of line (or the end of the file)."""
        return self.line_starts[line] if line < len(self.line_starts) else len(self.data)

    def comments(self):
        """(line, byte column, text) of every comment, in file order."""
        if self._comments is None:
            self._comments = []
            tokens = tokenize.tokenize(io.BytesIO(self.data).readline)
            try:
                for tok in tokens:
                    if tok.type == tokenize.COMMENT:
                        line = tok.start[0]
                        # tokenize columns count characters; offsets count bytes.
                        prefix = self.line_text(line)[:tok.start[1]]
                        self._comments.append((line, len(prefix.encode("utf-8")), tok.string))
            except (tokenize.TokenError, SyntaxError):
                pass  # ast.parse accepted the file; a tokenizer quirk only loses comments.
        return self._comments

    def comments_between(self, first_line: int, last_line: int):
        return [c for c in self.comments() if first_line <= c[0] <= last_line]

    def only_code_on_lines(self, node) -> bool:
        """Whether node's lines hold nothing but node (and maybe a trailing comment)."""
        first = self.line_text(node.lineno)
        last = self.line_text(node.end_lineno)
        rest = last.encode("utf-8")[node.end_col_offset:].decode("utf-8").strip()
        return (first[:node.col_offset].strip() == "" and (rest == "" or rest.startswith("#")))
