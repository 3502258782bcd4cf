#!/usr/bin/env python3
"""The man page's options, README.md's option tables and the shell completions
against what `kernel-tidy __cli-docs` makes of the CLI definition.

    cli-docs.py SOURCE_DIR KERNEL_TIDY [--write]

Without --write, exits 1 naming each file that drifted (ctest cli_docs_in_sync);
with it, rewrites them.
"""
import subprocess
import sys
from pathlib import Path
from typing import Callable, List, Tuple


def between(begin: str, end: str) -> Callable[[str, str], str]:
    """Replaces the text between the marker lines `begin` and `end`."""
    def put(old: str, generated: str) -> str:
        head, sep, rest = old.partition(begin + "\n")
        if not sep or end not in rest:
            raise SystemExit(f"markers {begin!r} / {end!r} not found")
        return head + begin + "\n" + generated + rest[rest.index(end):]
    return put


def whole(old: str, generated: str) -> str:
    return generated


def main(argv: List[str]) -> int:
    source, binary = Path(argv[1]), argv[2]
    write = "--write" in argv[3:]
    targets: List[Tuple[str, str, Callable[[str, str], str]]] = [
        ("man", "packaging/man/kernel-tidy.1",
         between('.\\" BEGIN GENERATED: kernel-tidy __cli-docs man',
                 '.\\" END GENERATED')),
        ("options", "README.md",
         between("<!-- BEGIN GENERATED: kernel-tidy __cli-docs options -->",
                 "<!-- END GENERATED -->")),
        ("bash", "packaging/completions/kernel-tidy.bash", whole),
        ("zsh", "packaging/completions/_kernel-tidy", whole),
    ]
    drifted = []
    for kind, name, put in targets:
        generated = subprocess.run([binary, "__cli-docs", kind], check=True,
                                   capture_output=True, text=True).stdout
        path = source / name
        old = path.read_text() if path.exists() else ""
        new = put(old, generated)
        if new == old:
            continue
        if write:
            path.write_text(new)
            print(f"wrote {name}")
        else:
            drifted.append(name)
    for name in drifted:
        print(f"{name} does not match the CLI definition: run "
              f"test/integration/cli-docs.py . build/bin/kernel-tidy --write")
    return 1 if drifted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
