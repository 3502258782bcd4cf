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
        self.assertEqual(UNIFORM, ctx.module.level(ast.parse("n + 1").body[0], fn))
        self.assertLess(UNIFORM, WARP)
        self.assertLess(WARP, LANE)

    def levels_at(self, code: str) -> Dict[str, Variation]:
        """The level of each `probe(NAME)` argument, keyed 'NAME@LINE' (line in code)."""
        ctx = context(code)
        got: Dict[str, Variation] = {}
        header_lines = 3  # The header and the blank first line of the code.
        for call, caller in ctx.module.calls():
            if isinstance(call.func, ast.Name) and call.func.id == "probe" and caller:
                arg = call.args[0]
                key = f"{ctx.source.text(arg)}@{call.lineno - header_lines}"
                got[key] = ctx.module.level(arg, caller)
        return got

    def test_a_name_varies_where_its_assignment_makes_it_vary(self) -> None:
        got = self.levels_at("""
            @cute.kernel
            def k(rows: cute.Tensor):
                tidx, _, _ = cute.arch.thread_idx()
                bidx, _, _ = cute.arch.block_idx()
                probe(bidx)
                bidx = tidx * 2
                probe(bidx)
            """)
        self.assertEqual({"bidx@5": UNIFORM, "bidx@7": LANE}, got)

    def test_branches_join_and_a_thread_dependent_test_taints_what_it_assigns(self) -> None:
        got = self.levels_at("""
            @cute.kernel
            def k(n: cutlass.Int32):
                tidx, _, _ = cute.arch.thread_idx()
                a = 0
                b = 0
                if n > 4:
                    a = tidx
                if tidx < 16:
                    b = 1
                probe(a)
                probe(b)
            """)
        self.assertEqual({"a@10": LANE, "b@11": LANE}, got)

    def test_loops_reach_a_fixed_point_and_breaks_leave_with_their_values(self) -> None:
        got = self.levels_at("""
            @cute.kernel
            def k(n: cutlass.Int32):
                tidx, _, _ = cute.arch.thread_idx()
                a = 0
                b = 0
                c = 0
                for i in range(n):
                    probe(a)
                    a = b
                    b = tidx
                while n > 0:
                    c = tidx
                    if n == 3:
                        break
                    c = 0
                probe(a)
                probe(c)
            """)
        self.assertEqual({"a@8": LANE, "a@16": LANE, "c@17": LANE}, got)

    def test_tuples_element_by_element_and_module_constants(self) -> None:
        got = self.levels_at("""
            warp_threads = 32
            @cute.kernel
            def k():
                tidx, _, _ = cute.arch.thread_idx()
                warp, lane = tidx // 32, tidx % 32
                probe(warp)
                probe(lane)
                probe(tidx // warp_threads)
                probe(tidx // cutlass.Int32(64))
                probe(tidx // 48)
            """)
        self.assertEqual({"warp@6": WARP, "lane@7": LANE, "tidx // warp_threads@8": WARP,
                          "tidx // cutlass.Int32(64)@9": WARP, "tidx // 48@10": LANE}, got)

    def test_warp_uniform_hints_collectives_and_block_indices(self) -> None:
        got = self.levels_at("""
            @cute.kernel
            def k(x: cute.Tensor):
                tidx, _, _ = cute.arch.thread_idx()
                bidx, bidy, _ = cute.arch.block_idx()
                cluster = cute.arch.block_idx_in_cluster()
                w = cute.arch.make_warp_uniform(tidx // 32)
                v = x[tidx]
                total = cute.arch.warp_reduction(v, lambda a, b: a + b)
                part = cute.arch.warp_reduction(v, lambda a, b: a + b, threads_in_group=8)
                first = cute.arch.shuffle_sync(v, 0)
                bits = cute.arch.vote_ballot_sync(v > 0)
                probe(bidx + bidy + cluster)
                probe(w)
                probe(total)
                probe(part)
                probe(first)
                probe(bits)
                probe(cute.arch.shuffle_sync(v, tidx ^ 1))
            """)
        self.assertEqual({"bidx + bidy + cluster@12": UNIFORM, "w@13": WARP, "total@14": WARP,
                          "part@15": LANE, "first@16": WARP, "bits@17": WARP,
                          "cute.arch.shuffle_sync(v, tidx ^ 1)@18": LANE}, got)

    def test_helpers_and_lambdas_take_their_callers_levels(self) -> None:
        got = self.levels_at("""
            def lane_of(t):
                probe(t)
                return t % 32
            def only_uniform(t):
                probe(t)
            @cute.kernel
            def k(n: cutlass.Int32):
                tidx, _, _ = cute.arch.thread_idx()
                lane_of(tidx)
                only_uniform(n)
                half = lambda t: probe(t)
                half(tidx)
            """)
        self.assertEqual({"t@2": LANE, "t@5": UNIFORM, "t@11": LANE}, got)

    def test_a_helper_returns_what_it_computes_not_what_it_is_given(self) -> None:
        got = self.levels_at("""
            def first_row(col):
                start = 0
                if cutlass.const_expr(True):
                    start = 1
                return start
            def lane_of(t):
                return t % 32
            def one_thread(t):
                if t == 0:
                    return 1
                return 0
            @cute.kernel
            def k():
                tidx, _, _ = cute.arch.thread_idx()
                probe(first_row(tidx))
                probe(lane_of(tidx))
                probe(one_thread(tidx))
            """)
        self.assertEqual({"first_row(tidx)@15": UNIFORM, "lane_of(tidx)@16": LANE,
                          "one_thread(tidx)@17": LANE}, got)

    def test_a_tuple_of_indices_keeps_each_elements_level(self) -> None:
        got = self.levels_at("""
            def role(info):
                tidx, warp = info
                probe(tidx)
                probe(warp)
                probe(info[1])
            @cute.kernel
            def k():
                tidx, _, _ = cute.arch.thread_idx()
                info = (tidx, cute.arch.make_warp_uniform(cute.arch.warp_idx()))
                role(info)
            """)
        self.assertEqual({"tidx@3": LANE, "warp@4": WARP, "info[1]@5": WARP}, got)

    def test_fields_vary_as_the_values_the_class_stores(self) -> None:
        got = self.levels_at("""
            class Epilogue:
                def __init__(self, tile):
                    self.tile = tile
                @cute.jit
                def setup(self):
                    tidx, _, _ = cute.arch.thread_idx()
                    self.tidx = tidx
                    self.warp = cute.arch.warp_idx()
                @cute.jit
                def run(self):
                    probe(self.tidx)
                    probe(self.warp)
                    probe(self.tile)
            """)
        self.assertEqual({"self.tidx@11": LANE, "self.warp@12": WARP, "self.tile@13": UNIFORM},
                         got)

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

    def test_answers_do_not_depend_on_which_function_is_asked_first(self) -> None:
        # f and g call each other; each reads its callers' arguments, so the first
        # asked used to see the other's as uniform (the caller still in progress).
        code = """
            @cute.kernel
            def k():
                tidx, _, _ = cute.arch.thread_idx()
                f(tidx)
            def f(x):
                g(x)
                w = x // 32
            def g(y):
                f(y)
                v = y // 32
                h(y % 32)
            def h(z):
                u = z & 31
            """
        answers = []
        for order in (["k", "f", "g", "h"], ["h", "g", "f", "k"], ["g", "k", "h", "f"]):
            module = context(code).module
            by_name = {fn.name: fn for fn in module.functions}
            got = {}
            for name in order:
                fn = by_name[name]
                for node in ast.walk(fn.node):
                    if isinstance(node, (ast.Name, ast.BinOp)):
                        got[(name, ast.dump(node))] = (module.level(node, fn),
                                                       module.index_role(node, fn))
            answers.append(got)
        self.assertEqual(answers[0], answers[1])
        self.assertEqual(answers[0], answers[2])
        # Through the recursion y may be anything tidx is: it varies per lane, and its
        # role is not known (so no warp-width finding rests on it).
        g_y = answers[0][("g", ast.dump(ast.Name("y", ast.Load())))]
        self.assertEqual((LANE, None), g_y)
        f_x = answers[0][("f", ast.dump(ast.Name("x", ast.Load())))]
        self.assertEqual(LANE, f_x[0])

    def test_a_helper_analysed_while_its_caller_is_in_progress_is_analysed_again(self) -> None:
        # The kernel reads what split returns; split's own function half() needs
        # split's analysis, while the kernel (split's caller) is still in
        # progress: that analysis took t as "may vary" and is not kept.
        code = """
            @cute.kernel
            def k():
                tidx, _, _ = cute.arch.thread_idx()
                r = split(tidx)
            def split(t):
                def half(v):
                    return v // 2
                lane = t % 32
                return half(lane)
            """
        module = context(code).module
        split = next(fn for fn in module.functions if fn.name == "split")
        lane = next(n for n in ast.walk(split.node) if isinstance(n, ast.BinOp)
                    and isinstance(n.op, ast.Mod))
        self.assertEqual(LANE, module.level(lane.left, split))
        self.assertEqual("lane", module.index_role(lane, split))

    def test_a_keyword_that_names_no_parameter_binds_no_name(self) -> None:
        # f takes offset=tidx in **kw: its `offset` is still the module's.
        code = """
            offset = 4
            @cute.kernel
            def k():
                tidx, _, _ = cute.arch.thread_idx()
                f(offset=tidx)
            def f(**kw):
                y = offset // 32
            """
        module = context(code).module
        f = next(fn for fn in module.functions if fn.name == "f")
        read = next(n for n in ast.walk(f.node) if isinstance(n, ast.Name) and n.id == "offset")
        self.assertEqual(UNIFORM, module.level(read, f))
        self.assertIsNone(module.index_role(read, f))


if __name__ == "__main__":
    unittest.main()
