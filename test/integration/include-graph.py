#!/usr/bin/env python3
"""Checks that the product's includes point one way and form no cycle.

Usage: include-graph.py ROOT        check the repository at ROOT
       include-graph.py --self-test check that the checker catches each kind of fault

Layers, highest first: tool/ -> src/driver/ -> rules/ -> src/dsl/. A file may include
its own layer or a lower one. Inside rules/, the framework floor (rules/*.h, *.cpp)
includes no rule family's room, and a room (rules/FAMILY/) includes the floor, its own
files and src/dsl, never another room. Units (a header and its source, named alike)
form no cycle: if a.cpp includes b.h, b.h (or b.cpp) must not lead back to a.h.
"""
import os
import re
import sys
import tempfile
from typing import Dict, List, Optional, Set, Tuple

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)
LAYERS = [('src/dsl/', 0), ('rules/', 1), ('src/driver/', 2), ('tool/', 3)]
SOURCES = ('.h', '.cpp', '.def', '.inc')


def layer_of(path: str) -> Optional[int]:
    for prefix, rank in LAYERS:
        if path.startswith(prefix):
            return rank
    return None


def room_of(path: str) -> Optional[str]:
    """The rule family a rules/ file belongs to ('' for the floor); None outside rules/."""
    if not path.startswith('rules/'):
        return None
    parts = path.split('/')
    return parts[1] if len(parts) > 2 else ''


def unit_of(path: str) -> str:
    return os.path.splitext(path)[0]


def read_graph(root: str) -> Dict[str, List[str]]:
    graph: Dict[str, List[str]] = {}
    for top in ('src', 'rules', 'tool'):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SOURCES):
                    continue
                path = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, '/')
                with open(os.path.join(folder, name), encoding='utf-8', errors='replace') as f:
                    graph[path] = INCLUDE.findall(f.read())
    return graph


def faults(graph: Dict[str, List[str]]) -> List[str]:
    found: List[str] = []
    units: Dict[str, Set[str]] = {}
    for path, includes in sorted(graph.items()):
        rank, room = layer_of(path), room_of(path)
        for target in includes:
            target_rank = layer_of(target)
            if target_rank is None or rank is None:
                continue
            if target_rank > rank:
                found.append(f'{path} includes {target}, a higher layer')
                continue
            target_room = room_of(target)
            if room is not None and target_room and target_room != room:
                where = 'the framework floor' if room == '' else f'room {room}'
                found.append(f'{path} ({where}) includes {target} (room {target_room})')
            if unit_of(target) != unit_of(path) and target in graph:
                units.setdefault(unit_of(path), set()).add(unit_of(target))
    found.extend(cycles(units))
    return found


def cycles(units: Dict[str, Set[str]]) -> List[str]:
    """One message per strongly connected set of more than one unit (Tarjan)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    on_stack: Set[str] = set()
    result: List[str] = []
    counter = [0]

    def visit(start: str) -> None:
        # Iterative, so that a deep graph cannot exhaust Python's stack.
        work: List[Tuple[str, List[str]]] = [(start, sorted(units.get(start, ())))]
        index[start] = low[start] = counter[0]
        counter[0] += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, pending = work[-1]
            if pending:
                nxt = pending.pop(0)
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(units.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    members.append(top)
                    if top == node:
                        break
                if len(members) > 1:
                    result.append('include cycle between units: ' + ', '.join(sorted(members)))

    for unit in sorted(units):
        if unit not in index:
            visit(unit)
    return result


def self_test() -> int:
    cases = {
        'upward': ({'src/dsl/A.h': '#include "rules/RuleBase.h"\n', 'rules/RuleBase.h': ''},
                   'a higher layer'),
        'room to room': ({'rules/warp/X.cpp': '#include "rules/block/Y.h"\n',
                          'rules/block/Y.h': ''}, 'room block'),
        'floor to room': ({'rules/RuleBase.cpp': '#include "rules/warp/X.h"\n',
                           'rules/warp/X.h': ''}, 'the framework floor'),
        'cycle': ({'src/dsl/A.h': '#include "src/dsl/B.h"\n', 'src/dsl/B.h': '',
                   'src/dsl/B.cpp': '#include "src/dsl/B.h"\n#include "src/dsl/A.h"\n'},
                  'include cycle between units: src/dsl/A, src/dsl/B'),
        'clean': ({'rules/warp/X.cpp': '#include "rules/warp/X.h"\n#include "rules/RuleBase.h"\n'
                   '#include "src/dsl/A.h"\n', 'rules/warp/X.h': '', 'rules/RuleBase.h': '',
                   'src/dsl/A.h': ''}, None),
    }
    failed = 0
    for name, (files, expected) in cases.items():
        with tempfile.TemporaryDirectory() as root:
            for path, text in files.items():
                os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
                with open(os.path.join(root, path), 'w', encoding='utf-8') as f:
                    f.write(text)
            found = faults(read_graph(root))
        ok = (not found) if expected is None else any(expected in f for f in found)
        if not ok:
            print(f'self-test {name}: expected {expected!r}, found {found}', file=sys.stderr)
            failed += 1
    return 1 if failed else 0


def main() -> int:
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print(__doc__, file=sys.stderr)
        return 2
    graph = read_graph(sys.argv[1])
    found = faults(graph)
    for message in found:
        print(message, file=sys.stderr)
    if not found:
        print(f'{len(graph)} files: includes point one way, no cycle')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main())
