#!/bin/sh
# Every C++ source of the project follows its .clang-format (the folders of DSL
# sources carry one that turns formatting off).
# usage: clang-format.sh SOURCE_DIR CLANG_FORMAT
set -eu
cd "$1"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git ls-files -z -- '*.cpp' '*.h' '*.def' | xargs -0 "$2" --dry-run -Werror
else
  # Not a git checkout (a source tarball): every file but build folders and npm's.
  find . \( -name 'build*' -o -name node_modules -o -name .git \) -prune -o \
    \( -name '*.cpp' -o -name '*.h' -o -name '*.def' \) -print0 |
    xargs -0 "$2" --dry-run -Werror
fi
