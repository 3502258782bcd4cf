"""names: how cutlass, cutlass.cute and cutlass.cute.arch are imported and spelled."""

import ast
import unittest

from kernel_tidy_cute.names import Names, constant_int, decorator_name


def names(code: str) -> Names:
    return Names(ast.parse(code))


def expr(code: str) -> ast.expr:
    node = ast.parse(code, mode="eval").body
    return node


class NamesTest(unittest.TestCase):
    def test_aliases_resolve_to_qualified_names(self) -> None:
        n = names("import cutlass.cute as cute\nfrom cutlass.cute import arch as a\n")
        self.assertEqual("cutlass.cute.arch.thread_idx", n.qualified(expr("cute.arch.thread_idx")))
        self.assertEqual("cutlass.cute.arch.lane_idx", n.qualified(expr("a.lane_idx")))
        self.assertIsNone(n.qualified(expr("numpy.arange")))
        self.assertTrue(n.call_of(expr("a.warp_idx()"), "cutlass.cute.arch.warp_idx"))
        self.assertFalse(n.call_of(expr("a.warp_idx"), "cutlass.cute.arch.warp_idx"))

    def test_import_of_a_submodule_binds_the_package(self) -> None:
        n = names("import cutlass.cute\n")
        self.assertEqual("cutlass.cute.arch", n.qualified(expr("cutlass.cute.arch")))
        self.assertTrue(n.uses_dsl())
        self.assertFalse(names("import numpy\nfrom . import cutlass\n").uses_dsl())

    def test_spelling_is_the_shortest_that_reaches_the_name(self) -> None:
        n = names("import cutlass\nimport cutlass.cute as cute\n")
        self.assertEqual("cute.arch.WARP_SIZE", n.spelling("cutlass.cute.arch.WARP_SIZE"))
        self.assertIsNone(names("import numpy\n").spelling("cutlass.cute.arch.WARP_SIZE"))

    def test_decorators_and_integer_literals(self) -> None:
        n = names("import cutlass.cute as cute\n")
        self.assertEqual("jit", decorator_name(n, expr("cute.jit")))
        self.assertEqual("kernel", decorator_name(n, expr("cute.kernel(preprocess=True)")))
        self.assertIsNone(decorator_name(n, expr("staticmethod")))
        self.assertEqual(-32, constant_int(expr("-32")))
        self.assertIsNone(constant_int(expr("True")))
        self.assertIsNone(constant_int(expr("32.0")))


if __name__ == "__main__":
    unittest.main()
