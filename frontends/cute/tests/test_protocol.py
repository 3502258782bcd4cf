"""The frontend's protocol: one process answers many requests, one line each."""

import io
import json
import unittest
from typing import Any, Dict, List

from kernel_tidy_cute import analyze, serve

KERNEL = (b"import cutlass\nimport cutlass.cute as cute\n@cute.kernel\n"
          b"def k(dst: cute.Tensor):\n    tidx, _, _ = cute.arch.thread_idx()\n"
          b"    dst[tidx // 32] = tidx\n")


def request(text: bytes, checks: List[str]) -> bytes:
    header = {"version": 2, "path": "k.py", "checks": checks, "options": {},
              "length": len(text)}
    return json.dumps(header).encode() + b"\n" + text


def answers(stdin: bytes) -> List[Dict[str, Any]]:
    out = io.BytesIO()
    status = serve(io.BytesIO(stdin), out)
    lines = out.getvalue().decode().splitlines()
    result: List[Dict[str, Any]] = [json.loads(line) for line in lines]
    result.append({"status": status})
    return result


class ProtocolTest(unittest.TestCase):
    def test_one_answer_per_request_until_the_input_ends(self) -> None:
        got = answers(request(KERNEL, ["cute-hardcoded-warp-width"]) +
                      request(b"def f(:\n", ["cute-hardcoded-warp-width"]) +
                      request(KERNEL, []))
        self.assertEqual(4, len(got))
        self.assertEqual(1, len(got[0]["findings"]))
        self.assertIn("syntax error", got[1]["errors"][0]["message"])
        self.assertEqual([], got[2]["findings"])
        self.assertEqual({"status": 0}, got[3])

    def test_a_request_cut_short_ends_the_process(self) -> None:
        got = answers(request(KERNEL, [])[:-3])
        self.assertEqual([{"status": 1}], got)

    def test_offsets_are_stored_bytes_and_edits_name_their_text(self) -> None:
        report = analyze(b"# \xc3\xa9\n" + KERNEL, ["cute-hardcoded-warp-width"])
        finding = report["findings"][0]
        edit = finding["fix"]["edits"][0]
        self.assertEqual(edit["offset"], finding["offset"])
        self.assertEqual("32", edit["replaced"])
        self.assertEqual(b"32", (b"# \xc3\xa9\n" + KERNEL)[edit["offset"]:edit["offset"] + 2])


if __name__ == "__main__":
    unittest.main()
