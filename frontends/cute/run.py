"""Entry point of the CuTe DSL frontend, run by the kernel-tidy driver as
`python3 -I -B run.py` (isolated: the user's PYTHONPATH and site packages
cannot change what the rules do). Reads a JSON request on stdin, writes the
JSON report on stdout (docs/architecture.md, "The CuTe DSL frontend")."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kernel_tidy_cute import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
