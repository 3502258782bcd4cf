"""Each cute-* rule on the smallest code that shows it, outside the fixture runs
(test/fixtures/cute-*: whole files, messages, fixed files)."""

import unittest

from .support import apply, findings


class CallingConventionTest(unittest.TestCase):
    def test_a_kernel_called_from_python_or_a_kernel(self) -> None:
        found = findings("cute-calling-convention", """
            @cute.kernel
            def k():
                pass
            @cute.kernel
            def outer():
                k()
            k()
            """)
        self.assertEqual(2, len(found))
        self.assertIn("a kernel cannot call a kernel", found[0].message)
        self.assertIn("(module level)", found[1].message)
        self.assertTrue(all(f.fix is None and f.no_fix_reason for f in found))

    def test_a_kernel_launched_from_jit_code(self) -> None:
        self.assertEqual([], findings("cute-calling-convention", """
            @cute.kernel
            def k():
                pass
            @cute.jit
            def host():
                k().launch(grid=[1, 1, 1], block=[32, 1, 1])
            """))


class LaunchConfigTest(unittest.TestCase):
    def test_a_block_too_large(self) -> None:
        found = findings("cute-launch-config", """
            @cute.kernel
            def k():
                pass
            @cute.jit
            def host():
                k().launch(grid=[1, 1, 1], block=[64, 32, 1])
            """)
        self.assertEqual(["block of 2048 threads: a block has at most 1024 threads"],
                         [f.message for f in found])

    def test_a_valid_launch(self) -> None:
        self.assertEqual([], findings("cute-launch-config", """
            @cute.kernel
            def k():
                pass
            @cute.jit
            def host():
                k().launch(grid=[8, 1, 1], block=[256, 1, 1], cluster=[2, 1, 1])
            """))


class ButterflyReductionTest(unittest.TestCase):
    CODE = """
        @cute.kernel
        def k(counts: cute.Tensor):
            tidx, _, _ = cute.arch.thread_idx()
            n = cutlass.Int32(counts[tidx])
            for i in range(5):
                n = n + cute.arch.shuffle_sync_bfly(n, offset=1 << i)
            counts[tidx] = n
        """

    def test_an_integer_sum_becomes_one_warp_redux(self) -> None:
        found = findings("cute-butterfly-reduction", self.CODE)
        self.assertEqual(1, len(found))
        fix = found[0].fix
        assert fix is not None
        self.assertTrue(fix.safe)
        self.assertIn('    n = cute.arch.warp_redux_sync(n, "add")\n',
                      apply(self.CODE, found[0]))

    def test_a_partial_butterfly_is_not_one(self) -> None:
        self.assertEqual([], findings("cute-butterfly-reduction",
                                      self.CODE.replace("range(5)", "range(4)")))


class HardcodedWarpWidthTest(unittest.TestCase):
    CODE = """
        @cute.kernel
        def k(dst: cute.Tensor):
            tidx, _, _ = cute.arch.thread_idx()
            dst[tidx // 32] = tidx
            dst[tidx & 31] = tidx
        """

    def test_warp_arithmetic_on_a_thread_index(self) -> None:
        found = sorted(findings("cute-hardcoded-warp-width", self.CODE), key=lambda f: f.begin)
        self.assertEqual(2, len(found))
        fixed = apply(self.CODE, found[0])
        self.assertIn("dst[tidx // cute.arch.WARP_SIZE] = tidx", fixed)
        self.assertIn("dst[tidx & (cute.arch.WARP_SIZE - 1)]", apply(self.CODE, found[1]))

    def test_uniform_values_are_not_warp_arithmetic(self) -> None:
        self.assertEqual([], findings("cute-hardcoded-warp-width",
                                      self.CODE.replace("tidx, _, _ = cute.arch.thread_idx()",
                                                        "tidx = 7")))


class DivergentBarrierTest(unittest.TestCase):
    def test_a_barrier_under_a_thread_dependent_if(self) -> None:
        found = findings("cute-divergent-barrier", """
            @cute.kernel
            def k():
                tidx, _, _ = cute.arch.thread_idx()
                if tidx < 16:
                    cute.arch.sync_threads()
                if tidx // 32 == 0:
                    cute.arch.sync_warp()
            """)
        self.assertEqual(1, len(found))
        self.assertTrue(found[0].message.startswith("sync_threads() under an 'if' that "
                                                    "depends on the thread index (line 7)"))


class JitRecompileTest(unittest.TestCase):
    CODE = """
        @cute.jit
        def add_one(x: cute.Tensor):
            pass
        def benchmark(x):
            for _ in range(10):
                compiled = cute.compile(add_one, x)
                compiled(x)
        """

    def test_compile_hoisted_out_of_the_loop(self) -> None:
        found = findings("cute-jit-recompile", self.CODE)
        self.assertEqual(1, len(found))
        fixed = apply(self.CODE, found[0])
        self.assertIn("    compiled = cute.compile(add_one, x)\n    for _ in range(10):\n"
                      "        compiled(x)\n", fixed)

    def test_compile_of_what_the_loop_changes(self) -> None:
        self.assertEqual([], findings("cute-jit-recompile",
                                      self.CODE.replace("for _ in", "for x in")))


if __name__ == "__main__":
    unittest.main()


class ContendedAtomicTest(unittest.TestCase):
    CODE = """
        @cute.kernel
        def k(keys: cute.Tensor, out: cute.Tensor, cursor: cute.Tensor):
            tidx, _, _ = cute.arch.thread_idx()
            if keys[tidx] > 0:
                slot = cute.arch.atomic_add(cursor.iterator.llvm_ptr, cutlass.Int32(1))
                out[slot] = keys[tidx]
        """

    def test_a_slot_allocation_on_one_counter_is_reported_without_a_fix(self) -> None:
        found = findings("cute-contended-atomic", self.CODE)
        self.assertEqual(1, len(found))
        self.assertIn("its old value used", found[0].message)
        self.assertIsNone(found[0].fix)
        self.assertIn("fixed lane mask", found[0].no_fix_reason)

    def test_a_per_lane_address_or_a_lane_zero_guard_is_not(self) -> None:
        per_lane = self.CODE.replace("cursor.iterator.llvm_ptr", "cursor.iterator.llvm_ptr + tidx")
        guarded = self.CODE.replace("if keys[tidx] > 0:", "if tidx == 0:")
        self.assertEqual([], findings("cute-contended-atomic", per_lane))
        self.assertEqual([], findings("cute-contended-atomic", guarded))

    def test_a_data_comparison_is_not_a_guard(self) -> None:
        equal = self.CODE.replace("if keys[tidx] > 0:", "if keys[tidx] == 7:")
        self.assertEqual(1, len(findings("cute-contended-atomic", equal)))
        # A name loaded from memory in two places is data too.
        twice = self.CODE.replace("if keys[tidx] > 0:", "key = keys[tidx]\n"
                                  "            if tidx > 4:\n"
                                  "                key = keys[tidx + 1]\n"
                                  "            if key == 7:")
        self.assertEqual(1, len(findings("cute-contended-atomic", twice)))


class WarpWidthSpellingsTest(unittest.TestCase):
    def test_dsl_integers_and_helper_parameters(self) -> None:
        code = """
            def lane_of(t):
                return t & cutlass.Int32(31)
            @cute.kernel
            def k(dst: cute.Tensor):
                tidx, _, _ = cute.arch.thread_idx()
                dst[tidx] = lane_of(tidx) + tidx // cutlass.Int32(32)
            """
        found = findings("cute-hardcoded-warp-width", code)
        self.assertEqual(2, len(found))
        fixed = apply(code, found[0])
        self.assertIn("t & cutlass.Int32(cute.arch.WARP_SIZE - 1)", fixed)

    def test_an_integer_type_from_another_dsl_module(self) -> None:
        header = "import cutlass.cute as cute\nfrom cutlass.cute.typing import Int32\n"
        found = findings("cute-hardcoded-warp-width", """
            @cute.kernel
            def k(dst: cute.Tensor):
                tidx, _, _ = cute.arch.thread_idx()
                dst[tidx] = tidx % Int32(32)
            """, header)
        self.assertEqual(1, len(found))

    def test_a_multiplied_32_only_when_it_scales_a_warp_index(self) -> None:
        code = """
            @cute.kernel
            def k(dst: cute.Tensor):
                tidx, _, _ = cute.arch.thread_idx()
                warp, lane = tidx // cute.arch.WARP_SIZE, cute.arch.lane_idx()
                dst[(lane & 1) * 32 + warp * 32] = 0
                dst[warp * 32 + lane] = 1
            """
        found = findings("cute-hardcoded-warp-width", code)
        self.assertEqual(["warp offset"], [f.message.split(" in ")[1].split(" arith")[0]
                                           for f in found])
        fixed = apply(code, found[0])
        self.assertIn("dst[warp * cute.arch.WARP_SIZE + lane] = 1", fixed)
        self.assertIn("dst[(lane & 1) * 32 + warp * 32] = 0", fixed)
