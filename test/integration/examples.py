#!/usr/bin/env python3
"""examples_as_documented: `kernel-tidy check examples/` reports exactly the
findings that examples/README.md's table lists (file:line:column, rule, fix
kind), so the newcomer's first page never drifts from the tool.
Usage: examples.py SOURCE_DIR KERNEL_TIDY_BINARY"""
import json
import os
import re
import subprocess
import sys


def documented(readme):
    rows = re.findall(r"^\| ([\w.]+):(\d+):(\d+) \| ([\w-]+) \| (safe|unsafe|none) \|$",
                      open(readme).read(), re.M)
    return sorted((f, int(line), int(col), rule, fix) for f, line, col, rule, fix in rows)


def reported(src, binary):
    proc = subprocess.run([binary, "check", "--format", "json", "examples/"], cwd=src,
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        sys.exit(f"FAIL: kernel-tidy exited {proc.returncode}: {proc.stderr.strip()}")
    report = json.loads(proc.stdout)
    if report["summary"]["errors"]:
        sys.exit(f"FAIL: errors: {report['summary']['errors']}")
    return sorted((os.path.basename(d["file"]), d["line"], d["column"], d["rule"],
                   d["fix"]["applicability"] if d["fix"] else "none")
                  for d in report["diagnostics"])


def main():
    src, binary = sys.argv[1], sys.argv[2]
    want = documented(os.path.join(src, "examples/README.md"))
    got = reported(src, binary)
    if not want:
        sys.exit("FAIL: examples/README.md has no table of findings")
    for row in sorted(set(want) - set(got)):
        print("FAIL: documented, not reported:", row)
    for row in sorted(set(got) - set(want)):
        print("FAIL: reported, not documented:", row)
    if want != got:
        return 1
    print(f"ok: {len(got)} findings as documented")
    return 0


sys.exit(main())
