"""Huge files: memory linear in the file's size, and a file over the limit refused
before it is read."""

import ast
import json
import os
import subprocess
import sys
import time
import unittest

from kernel_tidy_cute import MAX_FILE_BYTES, analyze
from kernel_tidy_cute.source import Source

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# One kernel with the shapes the analysis follows (thread and warp indices, a
# helper, a branch, a loop, a shuffle), repeated under new names.
KERNEL = '''
@cute.jit
def helper_{n}(lane, x):
    return x + (lane % 32)

@cute.kernel
def kernel_{n}(dst: cute.Tensor, src: cute.Tensor):
    tidx, _, _ = cute.arch.thread_idx()
    warp = tidx // 32
    lane = tidx % 32
    acc = src[tidx]
    for offset in [16, 8, 4, 2, 1]:
        acc = acc + cute.arch.shuffle_sync_bfly(acc, offset)
    if warp == 0:
        dst[lane] = helper_{n}(lane, acc)
    cute.arch.sync_threads()
'''
HEADER = "import cutlass\nimport cutlass.cute as cute\n"
# The peak memory an analysis may add per MB of source: the syntax tree takes
# about 60 MB per MB; parsed whole, Python's parser held a second tree beside it
# (a 12.9 MB file took 2.36 GB, 183 MB per MB).
MB_PER_MB = 160  # Measured 0.3 MB: 122 parsed in pieces, 184 parsed whole.
MEASURE = """
import resource, sys, time
sys.path.insert(0, sys.argv[1])
from kernel_tidy_cute import analyze
from kernel_tidy_cute.rules import RULES
data = open(sys.argv[2], "rb").read()
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.process_time()
report = analyze(data, list(RULES))
print(len(report["findings"]), len(report["errors"]), time.process_time() - start,
      (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024)
"""


def synthetic(megabytes: float) -> bytes:
    parts, size, n = [HEADER], len(HEADER), 0
    while size < megabytes * 1e6:
        parts.append(KERNEL.format(n=n))
        size += len(parts[-1])
        n += 1
    return "".join(parts).encode("utf-8")


class HugeFileTest(unittest.TestCase):
    def test_memory_grows_with_the_file_within_a_bound(self) -> None:
        data = synthetic(0.3)
        path = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"kt-huge-{os.getpid()}.py")
        with open(path, "wb") as f:
            f.write(data)
        try:
            out = subprocess.run([sys.executable, "-B", "-c", MEASURE, ROOT, path],
                                 check=True, capture_output=True, text=True).stdout.split()
        finally:
            os.remove(path)
        findings, errors, _, grown = int(out[0]), int(out[1]), float(out[2]), float(out[3])
        kernels = data.count(b"@cute.kernel")
        self.assertEqual(0, errors)
        # Each kernel's `// 32` and `% 32` (in the kernel and its helper): all analysed.
        self.assertGreaterEqual(findings, 3 * kernels)
        self.assertLess(grown, MB_PER_MB * len(data) / 1e6)

    def test_a_big_file_parsed_in_pieces_is_the_file_parsed_whole(self) -> None:
        # Lines that begin like a definition inside a string, a bracket and after a
        # decorator: no piece may start there.
        tricky = ('TEXT = """\ndef not_code():\n"""\nCALLS = [\nf\n]\n@cute.jit\n'
                  'def g():\n    pass\nif True:\n    x = 1\nelse:\n    x = 2\n')
        text = (HEADER + (tricky + KERNEL.format(n=0)) * 400).encode("utf-8")
        source = Source(text)
        source.parse()
        self.assertIsNotNone(source._parse_in_pieces(source._text))
        self.assertEqual(ast.dump(ast.parse(text), include_attributes=True),
                         ast.dump(source.tree, include_attributes=True))
        # An error in a late piece: the whole file's exact error.
        report = analyze(text + b"def broken(:\n", ["cute-hardcoded-warp-width"])
        self.assertEqual(text.count(b"\n") + 1, report["errors"][0]["line"])

    def test_a_file_over_the_limit_is_refused_unread(self) -> None:
        data = b"#" * (MAX_FILE_BYTES + 1)
        start = time.process_time()
        report = analyze(data, ["cute-hardcoded-warp-width"])
        self.assertLess(time.process_time() - start, 1.0)
        self.assertEqual([], report["findings"])
        self.assertEqual(1, len(report["errors"]))
        self.assertEqual("not analysed: the file is 16.0 MiB, over the CuTe DSL frontend's "
                         "limit of 16 MiB (its syntax tree takes about 60 MB of memory per MB "
                         "of source)", report["errors"][0]["message"])
        self.assertEqual(json.loads(json.dumps(report)), report)


if __name__ == "__main__":
    unittest.main()
