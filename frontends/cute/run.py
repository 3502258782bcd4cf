"""Entry point of the CuTe DSL frontend, run by the kernel-tidy driver as
`python3 -I -B run.py` (isolated: the user's PYTHONPATH and site packages
cannot change what the rules do). Reads a JSON request on stdin, writes the
JSON report on stdout (docs/architecture.md, "The CuTe DSL frontend")."""

import os
import sys

# Checked before the frontend is imported, in words that Python 3.7 and older
# can parse, so that an old interpreter gets one line and not a traceback.
if sys.version_info < (3, 8):
    sys.stderr.write("kernel-tidy's CuTe DSL frontend needs Python 3.8 or newer; this is "
                     "Python %d.%d (KERNEL_TIDY_PYTHON names another interpreter)\n"
                     % tuple(sys.version_info[:2]))
    sys.exit(2)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kernel_tidy_cute import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
