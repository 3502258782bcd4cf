"""run.py, the entry point: an interpreter too old gets one line, not a traceback."""

import contextlib
import io
import os
import runpy
import sys
import unittest
from unittest import mock

RUN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "run.py")


class RunTest(unittest.TestCase):
    def test_python_older_than_3_8_is_named(self) -> None:
        stderr = io.StringIO()
        with mock.patch.object(sys, "version_info", (3, 7, 17, "final", 0)), \
                contextlib.redirect_stderr(stderr), self.assertRaises(SystemExit) as ended:
            runpy.run_path(RUN, run_name="__main__")
        self.assertEqual(2, ended.exception.code)
        self.assertEqual("kernel-tidy's CuTe DSL frontend needs Python 3.8 or newer; this is "
                         "Python 3.7 (KERNEL_TIDY_PYTHON names another interpreter)\n",
                         stderr.getvalue())


if __name__ == "__main__":
    unittest.main()
