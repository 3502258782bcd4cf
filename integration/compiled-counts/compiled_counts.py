#!/usr/bin/env python3
"""Every GPU-harness rewrite as the GPU would run it (issue 46).

Records each harness case before and after kernel-tidy's rewrite with
LuisaCompute, turns it into CUDA source with LuisaCompute's own CUDA code
generator (kernel-tidy-cuda-source, this folder), compiles it as LuisaCompute's
CUDA backend does (NVRTC, the backend's options; ptxas -v for registers) for
each target architecture and counts the PTX. No GPU is needed.

    python3 integration/compiled-counts/compiled_counts.py \\
        --lc-prefix /opt/lc-cuda --lc-source /tmp/LuisaCompute-8fda2e02 \\
        --kernel-tidy build/bin/kernel-tidy --work /tmp/cc-work --out docs

writes docs/compiled-counts.json (the table check_claims.py reads) and
docs/compiled-counts.md. docs/compiled-counts.md says what is counted.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Callable

ARCHS = (75, 80, 90, 120)

# The options CUDADevice::create_shader passes to NVRTC (cuda_device.cpp), with
# the version macros of NVRTC 13.0 and the OptiX headers it bundles.
LC_NVRTC_OPTIONS = ("--std=c++17", "-default-device", "-restrict",
                    "-extra-device-vectorization", "-dw", "-w", "-ewp")
LC_OPTIX_VERSION = 90000

# PTX instruction kinds, by opcode prefix (after any predicate guard).
KINDS: tuple[tuple[str, Callable[[str], bool]], ...] = (
    ("shfl", lambda op: op.startswith("shfl.")),
    ("redux", lambda op: op.startswith("redux.")),
    ("vote", lambda op: op.split(".")[0] in ("vote", "match")),
    ("activemask", lambda op: op.startswith("activemask")),
    ("atom_shared", lambda op: bool(re.match(r"(atom|red)\.shared", op))),
    ("atom_global", lambda op: bool(re.match(r"(atom|red)\.global", op))),
    ("atom_generic", lambda op: bool(re.match(r"(atom|red)\.(?!shared|global)", op))),
    ("atom_cas", lambda op: bool(re.match(r"atom\..*\bcas\b", op))),
    ("bar", lambda op: op.startswith("bar.") or op.startswith("barrier.")),
    ("ld_shared", lambda op: op.startswith("ld.shared")),
    ("st_shared", lambda op: op.startswith("st.shared")),
    ("ld_global", lambda op: op.startswith("ld.global")),
    ("st_global", lambda op: op.startswith("st.global")),
    ("ld_st_generic",
     lambda op: bool(re.match(r"(ld|st)\.(?!shared|global|param|local|const)", op))),
    ("branch", lambda op: op.startswith("bra")),
)


def count_ptx(ptx: str) -> dict[str, int]:
    """Static instruction counts of the .entry functions of a PTX module.

    Inline assembly (CUDA's half-precision and shuffle intrinsics) puts several
    instructions on a line inside braces; each statement up to a ';' counts.
    """
    counts = {name: 0 for name, _ in KINDS}
    total = 0
    loops = 0  # branches back to a label above them
    labels: set[str] = set()
    depth = 0
    state = "outside"  # "outside", "header" (before the body's '{'), "body"
    for raw in ptx.splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        if state == "outside":
            if re.match(r"(\.visible\s+|\.weak\s+)?\.entry\b", line):
                state = "header"
            continue
        if state == "header":
            if line == "{":
                state, depth = "body", 1
            continue
        # Vector operands ({%r1,%r2}) open and close on their line.
        depth += line.count("{") - line.count("}")
        for statement in line.split(";"):
            text = statement.strip().lstrip("{}").strip()
            if text.endswith(":"):
                labels.add(text[:-1])
                continue
            if not text or text.startswith(".") or text == "}":
                continue
            if text.startswith("@"):
                text = text.split(None, 1)[1] if " " in text else ""
            op = text.split(None, 1)[0] if text else ""
            if not op or not re.match(r"[a-z]", op):
                continue
            total += 1
            if op.startswith("bra") and text.split()[-1].rstrip(";") in labels:
                loops += 1
            for name, test in KINDS:
                if test(op):
                    counts[name] += 1
        if depth == 0:
            state = "outside"
    counts["total"] = total
    counts["loops"] = loops
    return counts


# Warp communication and synchronisation: what the rules' rewrites trade.
COMMUNICATION = ("shfl", "redux", "vote", "bar", "ld_shared", "st_shared", "atom_shared",
                 "atom_global", "atom_generic")


def communication(counts: dict[str, int]) -> int:
    return sum(counts[k] for k in COMMUNICATION)


def verdict(before: dict[str, int], after: dict[str, int]) -> str:
    """What the static counts say about a rewrite on one architecture.

    "fewer": no more communication instructions (COMMUNICATION) and no more
    instructions in all, one of them clearly fewer; "more": the reverse;
    "same": as many communication instructions and a total within 10% (at
    least 2 instructions); "mixed": one fewer and the other more; "loop": either
    version keeps a loop, whose body counts once whatever its trip count, so the
    counts decide nothing.
    """
    if before["loops"] or after["loops"]:
        return "loop"
    comm_b, comm_a = communication(before), communication(after)
    total_b, total_a = before["total"], after["total"]
    tolerance = max(2, total_b // 10)
    total = 0 if abs(total_a - total_b) <= tolerance else (1 if total_a > total_b else -1)
    comm = (comm_a > comm_b) - (comm_a < comm_b)
    if comm == 0 and total == 0:
        return "same"
    if comm <= 0 and total <= 0:
        return "fewer"
    if comm >= 0 and total >= 0:
        return "more"
    return "mixed"


def parse_ptxas(log: str) -> dict[str, int]:
    """Registers, stack and spills from `ptxas -v`."""
    result = {"registers": 0, "stack": 0, "spill_stores": 0, "spill_loads": 0}
    for key, pattern in (("registers", r"Used (\d+) registers"),
                         ("stack", r"(\d+) bytes stack frame"),
                         ("spill_stores", r"(\d+) bytes spill stores"),
                         ("spill_loads", r"(\d+) bytes spill loads")):
        match = re.search(pattern, log)
        if match:
            result[key] = int(match.group(1))
    return result


class Nvrtc:
    """NVRTC as LuisaCompute's backend runs it: its luisa_nvrtc, else the library."""

    def __init__(self, luisa_nvrtc: Path | None, cuda_home: Path, work: Path) -> None:
        self.luisa_nvrtc = luisa_nvrtc
        self.env = dict(os.environ)
        if luisa_nvrtc is not None:
            # luisa_nvrtc links libcuda.so.1; without a driver the toolkit's stub stands in.
            stub = work / "stub"
            stub.mkdir(parents=True, exist_ok=True)
            link = stub / "libcuda.so.1"
            if not link.exists():
                link.symlink_to(cuda_home / "lib" / "stubs" / "libcuda.so")
            paths = [str(stub), str(cuda_home / "lib"), str(luisa_nvrtc.parent.parent / "lib")]
            self.env["LD_LIBRARY_PATH"] = ":".join(
                paths + [self.env.get("LD_LIBRARY_PATH", "")])
            version = subprocess.run([str(luisa_nvrtc), "--version"], env=self.env,
                                     capture_output=True, text=True, check=True)
            self.version = int(version.stdout.strip())
            self.lib: Any = None
        else:
            self.lib = ctypes.CDLL(str(cuda_home / "lib" / "libnvrtc.so.13"))
            major, minor = ctypes.c_int(), ctypes.c_int()
            self.lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
            self.version = major.value * 10000 + minor.value * 100

    def options(self, arch: int) -> list[str]:
        return [f"-arch=compute_{arch}", f"-DLC_NVRTC_VERSION={self.version}",
                f"-DLC_OPTIX_VERSION={LC_OPTIX_VERSION}", *LC_NVRTC_OPTIONS]

    def compile(self, name: str, source: str, arch: int) -> str:
        if self.luisa_nvrtc is not None:
            payload = b""
            for text in (name, source):
                data = text.encode() + b"\0"
                payload += f"{len(data):016x}".encode() + data
            run = subprocess.run([str(self.luisa_nvrtc), *self.options(arch)], input=payload,
                                 env=self.env, capture_output=True, check=False)
            if run.returncode != 0:
                raise RuntimeError(f"luisa_nvrtc failed on {name} for compute_{arch}:\n"
                                   + run.stderr.decode(errors="replace"))
            return run.stdout.decode()
        lib = self.lib
        program = ctypes.c_void_p()
        check = self._check
        check(lib.nvrtcCreateProgram(ctypes.byref(program), source.encode(), name.encode(),
                                     0, None, None), "nvrtcCreateProgram")
        options = [o.encode() for o in self.options(arch)]
        argv = (ctypes.c_char_p * len(options))(*options)
        result = lib.nvrtcCompileProgram(program, len(options), argv)
        if result != 0:
            size = ctypes.c_size_t()
            lib.nvrtcGetProgramLogSize(program, ctypes.byref(size))
            log = ctypes.create_string_buffer(size.value)
            lib.nvrtcGetProgramLog(program, log)
            raise RuntimeError(f"NVRTC failed on {name} for compute_{arch}:\n"
                               + log.value.decode(errors="replace"))
        size = ctypes.c_size_t()
        check(lib.nvrtcGetPTXSize(program, ctypes.byref(size)), "nvrtcGetPTXSize")
        ptx = ctypes.create_string_buffer(size.value)
        check(lib.nvrtcGetPTX(program, ptx), "nvrtcGetPTX")
        lib.nvrtcDestroyProgram(ctypes.byref(program))
        return ptx.value.decode()

    @staticmethod
    def _check(result: int, what: str) -> None:
        if result != 0:
            raise RuntimeError(f"{what} failed ({result})")


def ptxas(cuda_home: Path, ptx_file: Path, arch: int) -> dict[str, int]:
    cubin = ptx_file.with_suffix(".cubin")
    run = subprocess.run([str(cuda_home / "bin" / "ptxas"), f"-arch=sm_{arch}", "-v",
                          "-o", str(cubin), str(ptx_file)],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise RuntimeError(f"ptxas failed on {ptx_file} for sm_{arch}:\n{run.stderr}")
    return parse_ptxas(run.stderr + run.stdout)


def one_pass(source: str, name: str) -> str:
    """The source with the case's `repeats` argument (its fourth) fixed to 1.

    The cases repeat their pattern `repeats` times for timing; NVRTC unrolls that
    loop by a factor that differs between before and after, so the counts of
    the loop as written would compare different numbers of passes. With the
    argument a constant 1 the counts are one pass of the pattern, as the
    harness's correctness runs execute it.
    """
    entry = source.find('extern "C" __global__ void kernel_main(const Params params) {')
    lines = source[entry:].split("\n")
    params = [i for i, line in enumerate(lines[:8])
              if re.fullmatch(r"\s*(const auto &|auto )\w+ = params\.\w+;", line)]
    if entry < 0 or len(params) != 4:
        raise RuntimeError(f"{name}: no kernel_main with the four case arguments")
    match = re.fullmatch(r"(\s*)(?:const auto &|auto )(\w+) = params\.\w+;", lines[params[3]])
    assert match is not None
    lines[params[3]] = f"{match.group(1)}const auto {match.group(2)} = 1u;"
    return source[:entry] + "\n".join(lines)


def build_sources(args: argparse.Namespace, work: Path) -> Path:
    """Configures, builds and runs kernel-tidy-cuda-source; returns its output folder."""
    here = Path(__file__).resolve().parent
    build = work / "build"
    lc_dir = args.lc_prefix / "lib" / "cmake" / "LuisaCompute"
    subprocess.run(["cmake", "-S", str(here), "-B", str(build), "-G", "Ninja",
                    "-DCMAKE_CXX_COMPILER=clang++-19", f"-DLuisaCompute_DIR={lc_dir}",
                    f"-DLUISACOMPUTE_SOURCE_DIR={args.lc_source}",
                    f"-DKERNEL_TIDY_EXECUTABLE={args.kernel_tidy.resolve()}",
                    f"-DCUDAToolkit_ROOT={args.cuda_home}"], check=True,
                   stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", str(build), "-j", str(args.jobs)], check=True)
    sources = work / "cuda"
    if sources.exists():
        shutil.rmtree(sources)
    subprocess.run([str(build / "kernel-tidy-cuda-source"),
                    str(args.lc_source / "src" / "backends" / "cuda" / "cuda_builtin"),
                    str(sources)], check=True)
    return sources


Job = tuple[Nvrtc, Path, Path, Path, str, int, bool]


def measure_one(job: Job) -> tuple[str, int, dict[str, int]]:
    nvrtc, cuda_home, sources, ptx_dir, file, arch, reuse = job
    ptx_file = ptx_dir / f"{file}.sm_{arch}.ptx"
    if reuse and ptx_file.exists():
        ptx = ptx_file.read_text()
    else:
        ptx = nvrtc.compile(file, one_pass((sources / file).read_text(), file), arch)
        ptx_file.write_text(ptx)
    counts = count_ptx(ptx)
    counts.update(ptxas(cuda_home, ptx_file, arch))
    return file, arch, counts


def measure(args: argparse.Namespace, sources: Path, work: Path) -> dict[str, Any]:
    luisa_nvrtc = args.lc_prefix / "bin" / "luisa_nvrtc"
    nvrtc = Nvrtc(luisa_nvrtc if luisa_nvrtc.exists() and not args.library_nvrtc else None,
                  args.cuda_home, work)
    cases = json.loads((sources / "cases.json").read_text())
    ptx_dir = work / "ptx"
    ptx_dir.mkdir(parents=True, exist_ok=True)
    jobs = [(nvrtc, args.cuda_home, sources, ptx_dir,
             f"{case['case']}_{case['suffix']}.{version}.cu", arch, args.reuse_ptx)
            for case in cases for version in ("before", "after") for arch in ARCHS]
    results: dict[tuple[str, int], dict[str, int]] = {}
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for file, arch, counts in pool.map(measure_one, jobs):
            results[(file, arch)] = counts
    for case in cases:
        stem = f"{case['case']}_{case['suffix']}"
        case["counts"] = {f"sm_{arch}": {version: results[(f"{stem}.{version}.cu", arch)]
                                         for version in ("before", "after")}
                          for arch in ARCHS}
    compiler = "luisa_nvrtc" if nvrtc.luisa_nvrtc is not None else "libnvrtc"
    return {
        "what": "static PTX instruction counts of one pass of each harness case kernel (its "
                "repeats argument fixed to 1; the .entry function), before and after "
                "kernel-tidy's rewrite; registers, stack and spills from ptxas -v. Generated "
                "by integration/compiled-counts/compiled_counts.py; docs/compiled-counts.md "
                "says what is counted.",
        "level": "ptx",
        "nvrtc_version": nvrtc.version,
        "compiler": compiler,
        "nvrtc_options": nvrtc.options(0)[1:],
        "archs": [f"sm_{a}" for a in ARCHS],
        "cases": cases,
    }


COLUMNS = ("total", "loops", "shfl", "redux", "vote", "activemask", "atom_shared", "atom_global",
           "atom_cas", "bar", "ld_shared", "st_shared", "ld_global", "st_global", "registers",
           "spill_stores")


def markdown(table: dict[str, Any]) -> str:
    version = f"{table['nvrtc_version'] // 10000}.{table['nvrtc_version'] // 100 % 100}"
    archs = table["archs"]
    lines = [
        "# Compiled counts of every harness rewrite",
        "",
        "Generated by `integration/compiled-counts/compiled_counts.py` (docs/gpu-harness.md,",
        "\"Compiled counts\", says how to run it); do not edit by hand. Each GPU-harness case",
        "kernel, before and after kernel-tidy's rewrite (the harness's own generated cases), is",
        "recorded by LuisaCompute, turned into CUDA by LuisaCompute's `CUDACodegenAST` with its",
        f"device library, compiled by NVRTC {version} ({table['compiler']}) with the CUDA",
        "backend's options and by ptxas for each architecture. No GPU is involved.",
        "",
        "**The counts are static PTX instructions** of the kernel's `.entry`, not SASS: the",
        "disassembler of CUDA 11.8 (the only one available here) cannot read CUDA 13 cubins. A",
        "loop body counts once, whatever its trip count. `atom_*` include `red.*`; `atom_cas`",
        "counts compare-and-swap instructions (the loop of a float atomic min/max); `loops`",
        "counts branches back to an earlier label; `vote`",
        "includes `match`; `activemask` (LuisaCompute reads the active mask before every",
        "collective) is counted apart and is not communication. Registers and spill stores",
        "(bytes) are ptxas's.",
        "",
        "The verdict (`compiled_counts.verdict`): **fewer** when the rewrite has fewer warp",
        "communication instructions (shfl, redux, vote, bar, shared loads/stores, atomics) and",
        "no more instructions in all; **more** for the reverse; **same** for as many",
        "communication instructions and a total within 10%; **mixed** otherwise; **loop**",
        "when either version keeps a loop (its body counts once, whatever its trip count: the",
        "counts decide nothing, e.g. a loop over the lanes below the current one). Static counts",
        "cannot show contention: an atomic executed by every lane of a warp on one address is",
        "serialised, one executed by one lane per warp is not, and both count as one",
        "instruction here, so the atomic rules' verdicts say nothing about their speed",
        "(the ctest `compiled_counts_claims` checks only their stated lowering facts).",
        "",
        "## Verdicts",
        "",
        "| case | rule | " + " | ".join(archs) + " |",
        "|---|---|" + "---|" * len(archs),
    ]
    for case in table["cases"]:
        cells = [verdict(case["counts"][a]["before"], case["counts"][a]["after"]) for a in archs]
        lines.append(f"| {case['case']}_{case['suffix']} | {case['rule']} | "
                     + " | ".join(cells) + " |")
    lines.append("")
    lines.append("## Counts, before -> after")
    lines.append("")
    for case in table["cases"]:
        lines.append(f"### {case['case']}_{case['suffix']}")
        lines.append("")
        lines.append(f"{case['rule']}, block {case['block'][0]} x {case['block'][1]}.")
        lines.append("")
        lines.append("| arch | " + " | ".join(COLUMNS) + " |")
        lines.append("|---|" + "---|" * len(COLUMNS))
        for arch, counts in case["counts"].items():
            cells = [f"{counts['before'][c]} -> {counts['after'][c]}"
                     if counts["before"][c] != counts["after"][c] else str(counts["before"][c])
                     for c in COLUMNS]
            lines.append(f"| {arch} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lc-prefix", type=Path, required=True,
                        help="LuisaCompute install (with the CUDA backend: bin/luisa_nvrtc)")
    parser.add_argument("--lc-source", type=Path, required=True,
                        help="LuisaCompute's source tree (src/backends/cuda)")
    parser.add_argument("--kernel-tidy", type=Path, required=True)
    parser.add_argument("--cuda-home", type=Path,
                        default=Path(os.environ.get("CUDA_HOME", "/usr/local/cuda")))
    parser.add_argument("--work", type=Path, default=None,
                        help="build and scratch folder (default: a temporary one)")
    parser.add_argument("--out", type=Path, required=True,
                        help="folder for compiled-counts.json and compiled-counts.md")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--sources", type=Path, default=None,
                        help="use kernel-tidy-cuda-source's output in this folder (no build)")
    parser.add_argument("--reuse-ptx", action="store_true",
                        help="count the PTX already in WORK/ptx (made with the same sources)")
    parser.add_argument("--library-nvrtc", action="store_true",
                        help="call libnvrtc directly even where luisa_nvrtc is installed")
    args = parser.parse_args()
    for path, what in ((args.lc_source / "src" / "backends" / "cuda", "--lc-source"),
                       (args.cuda_home / "bin" / "ptxas", "--cuda-home"),
                       (args.kernel_tidy, "--kernel-tidy")):
        if not path.exists():
            print(f"compiled_counts.py: {what}: {path} does not exist", file=sys.stderr)
            return 2
    work = args.work or Path(tempfile.mkdtemp(prefix="kernel-tidy-compiled-counts-"))
    try:
        sources = args.sources or build_sources(args, work)
        table = measure(args, sources, work)
    except (subprocess.CalledProcessError, RuntimeError, OSError) as error:
        print(f"compiled_counts.py: {error}", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "compiled-counts.json").write_text(json.dumps(table, indent=1) + "\n")
    (args.out / "compiled-counts.md").write_text(markdown(table))
    return 0


if __name__ == "__main__":
    sys.exit(main())
