"""comment_places: where --add-nolint may end a line with a comment (issue 49)."""

import sys
import unittest
from typing import Dict, Tuple

from kernel_tidy_cute.nolint import comment_places
from kernel_tidy_cute.source import Source


def places(data: bytes) -> Dict[int, Tuple[int, bool]]:
    source = Source(data)
    source.parse()
    return comment_places(source)


class CommentPlacesTest(unittest.TestCase):
    def test_line_ends_after_code_and_comments(self) -> None:
        data = b"x = 1\ny = 2  # type: ignore[attr]\n"
        self.assertEqual({1: (5, False), 2: (data.index(b"]") + 1, False)}, places(data))

    def test_a_string_continued_by_a_backslash_holds_no_comment(self) -> None:
        # The '#' on line 2 is inside the string: line 1 has no end, line 2 ends
        # after the string's close and the code that follows.
        data = b"s = 'a \\\n#b' + t\n"
        self.assertEqual({2: (len(data) - 1, False)}, places(data))

    def test_backslash_joined_lines_and_triple_quotes(self) -> None:
        data = b"x = 1 + \\\n    2\ny = '''a\n# b\n'''\n"
        found = places(data)
        self.assertEqual([2, 5], sorted(found))

    def test_brackets_end_physical_lines(self) -> None:
        data = b"f(a,  # first\n  b)\n"
        self.assertEqual({1: (data.index(b"\n"), False), 2: (len(data) - 1, False)},
                         places(data))

    def test_rules_join_a_nolint_list_already_there(self) -> None:
        data = b"x = 1  # lane, NOLINT(cute-a) and more\ny = 2  # NOLINT()\n"
        found = places(data)
        self.assertEqual((data.index(b")"), True), found[1])
        self.assertEqual((len(data) - 1, False), found[2])

    def test_lone_cr_line_breaks_are_lines(self) -> None:
        data = b"x = 1\ry = 2  # c\rz = 3"
        self.assertEqual({1: (5, False), 2: (data.index(b"\rz"), False), 3: (len(data), False)},
                         places(data))

    def test_offsets_are_stored_bytes(self) -> None:
        data = "x = 'é'  # café\n".encode("utf-8")
        self.assertEqual({1: (len(data) - 1, False)}, places(data))

    @unittest.skipUnless(sys.version_info >= (3, 12), "PEP 701 f-strings need Python 3.12")
    def test_fstrings_with_quotes_inside(self) -> None:
        data = b'names = {}\nx = f"{names["#"]}"\n'
        self.assertEqual((len(data) - 1, False), places(data)[2])


if __name__ == "__main__":
    unittest.main()
