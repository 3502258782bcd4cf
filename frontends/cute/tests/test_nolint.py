"""nolint: NOLINT, NOLINTNEXTLINE and NOLINTBEGIN/END in Python comments."""

import unittest

from kernel_tidy_cute.nolint import Suppressions
from kernel_tidy_cute.source import Source


def suppressions(code: str) -> Suppressions:
    source = Source(code.encode("utf-8"))
    source.parse()
    return Suppressions(source)


class NolintTest(unittest.TestCase):
    def test_nolint_anywhere_in_a_comment(self) -> None:
        s = suppressions("x = 1  # lane id, NOLINT(cute-hardcoded-*)\ny = 2  # NOLINT\n")
        self.assertTrue(s.suppressed("cute-hardcoded-warp-width", 1))
        self.assertFalse(s.suppressed("cute-launch-config", 1))
        self.assertTrue(s.suppressed("cute-launch-config", 2))

    def test_not_in_strings(self) -> None:
        s = suppressions("x = '# NOLINT'\n")
        self.assertFalse(s.suppressed("cute-launch-config", 1))

    def test_nextline_and_blocks(self) -> None:
        s = suppressions("# see below: NOLINTNEXTLINE(cute-a)\nx = 1\n"
                         "# NOLINTBEGIN(cute-b)\ny = 2\n# NOLINTEND(cute-b)\nz = 3\n")
        self.assertTrue(s.suppressed("cute-a", 2))
        self.assertFalse(s.suppressed("cute-a", 1))
        self.assertTrue(s.suppressed("cute-b", 4))
        self.assertFalse(s.suppressed("cute-b", 6))
        self.assertEqual([], s.errors)

    def test_unmatched_begin_and_end_are_errors_at_the_directive(self) -> None:
        s = suppressions("x = 1  # NOLINTBEGIN\n")
        self.assertEqual([(1, 10, "unmatched 'NOLINTBEGIN' comment without a subsequent "
                                  "'NOLINTEND' comment")], s.errors)
        s = suppressions("# NOLINTBEGIN(a)\n# NOLINTEND(b)\n")
        self.assertEqual(2, len(s.errors))


if __name__ == "__main__":
    unittest.main()
