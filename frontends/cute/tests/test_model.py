"""model: the module's functions, the calls between them, what varies per thread."""

import ast
import unittest
from typing import Dict, Optional, Tuple

from kernel_tidy_cute.model import LANE, UNIFORM, WARP, Function, Variation, element_type

from .support import context


class ModelTest(unittest.TestCase):
    def test_functions_know_their_kind_and_context(self) -> None:
        module = context("""
            @cute.kernel
            def k():
                def helper():
                    pass
            @cute.jit
            def host():
                pass
            class C:
                def m(self):
                    pass
            """).module
        kinds = {f.name: (f.kind, f.context()) for f in module.functions}
        self.assertEqual({"k": ("kernel", "kernel"), "helper": ("plain", "kernel"),
                          "host": ("jit", "jit"), "m": ("plain", "plain")}, kinds)

    def test_callee_finds_nested_then_top_level_functions_and_methods(self) -> None:
        ctx = context("""
            def f():
                pass
            def g():
                def f():
                    pass
                f()
            f()
            class C:
                def m(self):
                    self.n()
                def n(self):
                    pass
            """)
        module = ctx.module
        by_name: Dict[Tuple[Optional[str], str], Optional[Function]] = {}
        for call, caller in module.calls():
            target = module.callee(call, caller)
            spelled = ctx.source.text(call)
            by_name[(caller.name if caller else None, spelled)] = target
        g = next(f for f in module.functions if f.name == "g")
        nested = by_name[("g", "f()")]
        self.assertIsNotNone(nested)
        assert nested is not None
        self.assertIs(g, nested.parent)
        top = by_name[(None, "f()")]
        assert top is not None
        self.assertIsNone(top.parent)
        method = by_name[("m", "self.n()")]
        assert method is not None
        self.assertEqual("n", method.name)

    def test_variation_follows_assignments_and_warp_division(self) -> None:
        ctx = context("""
            @cute.kernel
            def k():
                tidx, _, _ = cute.arch.thread_idx()
                warp = tidx // 32
                lane = tidx % 32
                n = 4
                for i in range(tidx):
                    pass
            """)
        fn = ctx.module.functions[0]
        self.assertEqual({"tidx": LANE, "_": LANE, "warp": WARP, "lane": LANE, "i": LANE},
                         ctx.module.variation(fn))
        self.assertIsInstance(ctx.module.variation(fn)["warp"], Variation)
        self.assertEqual(UNIFORM, ctx.module.expr_variation(ast.parse("n + 1").body[0], {}))
        self.assertLess(UNIFORM, WARP)
        self.assertLess(WARP, LANE)

    def test_element_type_from_annotations_constructors_and_conversions(self) -> None:
        ctx = context("""
            @cute.kernel
            def k(a: cutlass.Float32, b):
                c = cutlass.Int32(0)
                d = b.to(cutlass.Uint32)
                e = c
                f: cutlass.Int32 = 1
                f = f + 1
            """)
        fn = ctx.module.functions[0]
        got = {v: element_type(ctx.names, fn, v) for v in "abcdef"}
        self.assertEqual({"a": "Float32", "b": None, "c": "Int32", "d": "Uint32", "e": None,
                          "f": "Int32"}, got)


if __name__ == "__main__":
    unittest.main()
