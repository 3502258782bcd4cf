#!/usr/bin/env bash
# Sets up a fresh Debian bookworm machine, builds kernel-tidy and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# With the whole GPU harness on the SIMT executor (ctest simt_gpu_harness, docs/simt.md).
# A unity build (eight sources per compiled file, as the sanitized half below): the
# Clang templates the sources share are compiled once per batch, not once per file.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DKERNEL_TIDY_SIMT_HARNESS=ON \
  -DCMAKE_UNITY_BUILD=ON
cmake --build build -j "$(nproc)"
ctest --test-dir build --output-on-failure -j "$(nproc)"
# The same suite under AddressSanitizer and UndefinedBehaviorSanitizer
# (docs/reliability.md).
# KERNEL_TIDY_SKIP_SANITIZERS=1 skips it for a quick local run.
if [ "${KERNEL_TIDY_SKIP_SANITIZERS:-0}" != 1 ]; then
  # -O1 -g1 (line tables) is what ASan's reports need; a rule's file then takes
  # 35 s of CPU instead of 59 s with -O2 -g, and 13 MB instead of 28 MB.
  # One unity file per eight sources (CMAKE_UNITY_BUILD): the instrumented code of
  # the Clang and JSON templates they share is compiled once per batch, not once
  # per file (src/dsl's first batch: 95 s of CPU instead of 206 s).
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DKERNEL_TIDY_SANITIZE=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_UNITY_BUILD=ON
  cmake --build build-asan -j "$(nproc)"
  # Left out here, run in the plain half above: tests that repeat code paths the
  # sanitized suite covers elsewhere, many times over (every fixture through
  # clang-apply-replacements, a 10 MB source, PCH rebuilds with the real-size
  # model, every fixture with the real LuisaCompute headers, the bundled model's
  # parse of 19 real API uses, the examples' documented findings, a fresh checkout's
  # PCH reuse, a 200,000-term expression), and cost minutes each under the
  # sanitizers; and the tests that crash an analysis (a signal, a stack overflow) on
  # purpose to see the run recover (a sanitizer's own SEGV handler and leak check are
  # not what they test).
  ctest --test-dir build-asan --output-on-failure -j "$(nproc)" \
    -E '^(Reliability\.ExportedFixesApplyLikeFix|Reliability\.LargeGeneratedSourceIsAnalysed|SharedHeaderParse\.SameReportAsPlainParse|SharedHeaderParse\.RebuiltWhenAHeaderChanges|RealHeaders\.RuleFixturesGiveTheBundledModelsFindingsAndFixes|BundledModel\.RealProjectsApiUsesParse|examples_as_documented|SharedHeaderParse\.ACrashFailsItsOwnFileOnly|SharedHeaderParse\.ARestoredCacheServesAFreshCheckoutExactly|HostileInput\.A200000TermExpressionIsAnalysed|HostileInput\.AStackOverflowFailsItsOwnFileOnly)$'
fi
