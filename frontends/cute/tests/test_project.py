"""project: what the run's other modules pass to a module's functions and classes."""

import io
import json
import os
import shutil
import tempfile
import textwrap
import unittest
from typing import Dict, List, Optional, Tuple

from kernel_tidy_cute import analyze, serve
from kernel_tidy_cute.project import Project, module_names

from .support import HEADER

WIDTH = "cute-hardcoded-warp-width"
LANE = ("literal warp width 32 in lane index arithmetic on a thread index: use "
        "cute.arch.WARP_SIZE")
WARP = ("literal warp width 32 in warp index arithmetic on a thread index: use "
        "cute.arch.WARP_SIZE")

# A helper module whose thread indices come only from other modules' calls.
TILES = HEADER + textwrap.dedent("""
    class RowWriter:
        def __init__(self, thread, rows):
            self.thread = thread
            self.warp = self.thread // 32
            self.rows = rows

        def store(self, dst: cute.Tensor, position):
            dst[position % 32] = self.warp


    def lane_of(index):
        return index % 32
    """)


class ProjectTest(unittest.TestCase):
    def setUp(self) -> None:
        self.root = tempfile.mkdtemp()

    def tearDown(self) -> None:
        shutil.rmtree(self.root)

    def write(self, name: str, text: str) -> str:
        path = os.path.join(self.root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def found(self, path: str, paths: Optional[List[str]] = None,
              rule: str = WIDTH) -> List[Tuple[int, int, str]]:
        """(line, column, message) of rule's findings in path, the run being paths."""
        with open(path, "rb") as f:
            data = f.read()
        project = Project(paths) if paths is not None else None
        report = analyze(data, [rule], None, path, project)
        self.assertEqual([], report["errors"])
        result = []
        for finding in report["findings"]:
            line_start = data.rfind(b"\n", 0, finding["offset"]) + 1
            result.append((data.count(b"\n", 0, finding["offset"]) + 1,
                           finding["offset"] - line_start + 1, finding["message"]))
        return result

    def kernel(self, body: str, imports: str = "from .tiles import RowWriter, lane_of\n") -> str:
        return HEADER + imports + textwrap.dedent("""

            @cute.kernel
            def k(dst: cute.Tensor):
                tidx, _, _ = cute.arch.thread_idx()
            """) + textwrap.indent(textwrap.dedent(body), "    ")

    def test_module_names_are_every_tail_of_the_path(self) -> None:
        self.assertEqual(["m", "sub.m", "pkg.sub.m"],
                         module_names("/pkg/sub/m.py")[:3])
        self.assertEqual(["sub", "pkg.sub"], module_names("/pkg/sub/__init__.py")[:2])
        self.assertEqual([], module_names("/pkg/notes.txt"))

    def test_constructors_methods_and_functions_get_what_another_module_passes(self) -> None:
        tiles = self.write("pkg/tiles.py", TILES)
        kernel = self.write("pkg/kern.py", self.kernel("""
            writer = RowWriter(tidx, 4)
            writer.store(dst, tidx)
            dst[0] = lane_of(tidx)
            """))
        self.assertEqual([(7, 36, WARP), (11, 24, LANE), (15, 20, LANE)],
                         self.found(tiles, [tiles, kernel]))
        # The same file alone: nothing is known about its parameters.
        self.assertEqual([], self.found(tiles))
        self.assertEqual([], self.found(tiles, [tiles]))

    def test_a_field_holding_an_instance_reaches_its_methods(self) -> None:
        tiles = self.write("pkg/tiles.py", TILES)
        kernel = self.write("pkg/kern.py", HEADER + textwrap.dedent("""
            from pkg.tiles import RowWriter


            class Gemm:
                def __init__(self):
                    self.writer = RowWriter(0, 4)

                @cute.kernel
                def kernel(self, dst: cute.Tensor):
                    tidx, _, _ = cute.arch.thread_idx()
                    self.writer.store(dst, position=tidx)
            """))
        # store's position is a thread index; the constructor gets 0: no warp index.
        self.assertEqual([(11, 24, LANE)], self.found(tiles, [kernel, tiles]))

    def test_the_order_of_the_run_s_files_changes_nothing(self) -> None:
        # Analysed first, the kernel's own analysis summarises its calls; analysed
        # after the helper, the helper's question parses it: the same summary.
        tiles = self.write("pkg/tiles.py", TILES)
        kernel = self.write("pkg/kern.py", self.kernel("RowWriter(tidx, 4)\n"))
        answers = []
        for order in ([tiles, kernel], [kernel, tiles]):
            project = Project(order)
            found = {}
            for path in order:
                with open(path, "rb") as f:
                    found[path] = analyze(f.read(), [WIDTH], None, path, project)["findings"]
            answers.append(found)
        self.assertEqual(answers[0], answers[1])
        self.assertEqual(1, len(answers[0][tiles]))

    def test_calls_that_do_not_all_pass_an_index_prove_nothing(self) -> None:
        tiles = self.write("pkg/tiles.py", TILES)
        mixed = self.write("pkg/kern.py", self.kernel("""
            RowWriter(tidx, 4)
            dst[0] = lane_of(tidx)
            """))
        other = self.write("pkg/host.py", HEADER + textwrap.dedent("""
            from . import tiles


            def plan(rows, *args):
                tiles.RowWriter(rows, 4)
                return tiles.lane_of(*args)
            """))
        self.assertEqual([], self.found(tiles, [tiles, mixed, other]))

    def test_a_name_bound_by_the_caller_is_not_the_import(self) -> None:
        tiles = self.write("pkg/tiles.py", TILES)
        kernel = self.write("pkg/kern.py", self.kernel("""
            lane_of = cute.arch.lane_idx
            dst[0] = lane_of(tidx)
            """))
        self.assertEqual([], self.found(tiles, [tiles, kernel]))

    def test_a_module_of_the_same_name_elsewhere_counts_its_calls_too(self) -> None:
        # Two folders hold a tiles.py; `from tiles import ...` may be either, so
        # each counts the call: one passing a row makes both unknown.
        first = self.write("a/tiles.py", TILES)
        second = self.write("b/tiles.py", TILES)
        by_thread = self.write("a/kern.py", self.kernel(
            "dst[0] = lane_of(tidx)\n", "from tiles import lane_of\n"))
        by_row = self.write("b/host.py", HEADER + "from tiles import lane_of\n"
                            "\n\ndef f(row):\n    return lane_of(row)\n")
        run = [first, second, by_thread]
        self.assertEqual([(15, 20, LANE)], self.found(first, run))
        self.assertEqual([(15, 20, LANE)], self.found(second, run))
        self.assertEqual([], self.found(first, run + [by_row]))

    def test_a_divergent_barrier_under_a_field_from_another_module(self) -> None:
        tiles = self.write("pkg/tiles.py", HEADER + textwrap.dedent("""
            class Stage:
                def __init__(self, thread):
                    self.thread = thread

                def drain(self):
                    if self.thread == 0:
                        cute.arch.sync_threads()
            """))
        kernel = self.write("pkg/kern.py", self.kernel(
            "Stage(tidx).drain()\n", "from .tiles import Stage\n"))
        self.assertEqual([], self.found(tiles, [tiles], "cute-divergent-barrier"))
        found = self.found(tiles, [tiles, kernel], "cute-divergent-barrier")
        self.assertEqual([(10, 13)], [(line, column) for line, column, _ in found])

    def test_the_request_names_the_run_s_modules(self) -> None:
        tiles = self.write("pkg/tiles.py", TILES)
        kernel = self.write("pkg/kern.py", self.kernel("dst[0] = lane_of(tidx)\n"))
        data = TILES.encode("utf-8")
        requests = b""
        extras: List[Dict[str, object]] = [{}, {"file": tiles, "modules": [tiles, kernel]}]
        for extra in extras:
            header: Dict[str, object] = {"version": 2, "path": "tiles.py", "checks": [WIDTH],
                                         "length": len(data)}
            header.update(extra)
            requests += json.dumps(header).encode("utf-8") + b"\n" + data
        out = io.BytesIO()
        self.assertEqual(0, serve(io.BytesIO(requests), out))
        answers = [json.loads(line) for line in out.getvalue().splitlines()]
        self.assertEqual([0, 1], [len(a["findings"]) for a in answers])


if __name__ == "__main__":
    unittest.main()
