# The SIMT executor (integration/simt), built from the main build as a separate CMake
# project: it links LuisaCompute, whose prebuilt libraries only work with objects
# compiled by clang++-19, while kernel-tidy builds with the default c++. Its tests run
# from this build's ctest with the label `simt`.
#
# LuisaCompute: -DLuisaCompute_DIR, else the prebuilt install in
# KERNEL_TIDY_LUISACOMPUTE_SHARED (default: ../shared/luisacompute beside the checkout,
# as on CI and the developer machines), checked against its SHA256SUMS and extracted
# into this build tree; when that prebuilt is missing or does not match, built with the
# same folder's build.sh into this build tree. Without any (an outside user's machine)
# the simt tests are reported as skipped, with the reason; with CI=true they fail.
#
# The sanitized build leaves the executor out by default: the subproject is not built
# with the sanitizers, so it would only build and run the same tests a second time.
if(KERNEL_TIDY_SANITIZE)
  set(_simt_default OFF)
else()
  set(_simt_default ON)
endif()
option(KERNEL_TIDY_SIMT "Build and test the SIMT executor of LuisaCompute kernels (needs clang++-19 and LuisaCompute)" ${_simt_default})
if(NOT KERNEL_TIDY_SIMT)
  message(STATUS "SIMT executor: off (KERNEL_TIDY_SIMT=OFF)")
  return()
endif()

# Where LuisaCompute comes from, decided on fake folders (no real build): a prebuilt
# that matches its checksum is used, else build.sh builds one, else the tests skip.
add_test(NAME simt_find_luisacompute
         COMMAND ${CMAKE_COMMAND} -DWORK=${CMAKE_BINARY_DIR}/simt-find-test
                 -P ${CMAKE_CURRENT_LIST_DIR}/test/FindLuisaComputeTest.cmake)
set_tests_properties(simt_find_luisacompute PROPERTIES LABELS simt)

set(KERNEL_TIDY_LUISACOMPUTE_SHARED "${CMAKE_SOURCE_DIR}/../shared/luisacompute"
    CACHE PATH "Folder with LuisaCompute's prebuilt-bookworm-x86_64.tar.xz and SHA256SUMS")
find_program(KERNEL_TIDY_SIMT_CXX NAMES clang++-19 DOC "clang++-19, which the SIMT executor is compiled with")

set(_simt_why "")
if(NOT KERNEL_TIDY_SIMT_CXX)
  set(_simt_why "clang++-19 not found (LuisaCompute's prebuilt libraries need consumers compiled with it; apt-get install clang-19)")
else()
  include(${CMAKE_CURRENT_LIST_DIR}/FindLuisaComputeForSimt.cmake)
  kernel_tidy_simt_find_luisacompute(_simt_lc_dir _simt_why)
endif()

# No usable prebuilt but build.sh beside it: build LuisaCompute into this build tree
# (again when the source tarball or build.sh changes) before the subproject configures.
set(_simt_lc_build "")
if(_simt_why MATCHES "^BUILD: (.*)$")
  kernel_tidy_simt_plan_luisacompute(_simt_how _simt_build_sh _simt_unused)
  set(_simt_lc_prefix ${CMAKE_BINARY_DIR}/luisacompute-built)
  set(_simt_lc_dir ${_simt_lc_prefix}/lib/cmake/LuisaCompute)
  message(STATUS "SIMT executor: the prebuilt LuisaCompute is not used (${CMAKE_MATCH_1}); "
                 "building it with ${_simt_build_sh} into ${_simt_lc_prefix} (about 15 minutes of CPU, once)")
  set(_simt_why "")
  set(_simt_lc_stamp ${_simt_lc_prefix}/lib/cmake/LuisaCompute/LuisaComputeConfig.cmake)
  string(REPLACE "clang++" "clang" _simt_cc "${KERNEL_TIDY_SIMT_CXX}")
  get_filename_component(_simt_shared "${_simt_build_sh}" DIRECTORY)
  add_custom_command(OUTPUT ${_simt_lc_stamp}
    COMMAND ${CMAKE_COMMAND} -E env CC=${_simt_cc} CXX=${KERNEL_TIDY_SIMT_CXX} bash ${_simt_build_sh} ${_simt_lc_prefix}
    DEPENDS ${_simt_shared}/luisacompute-src.tar.xz ${_simt_build_sh}
    COMMENT "Building LuisaCompute with ${_simt_build_sh} (about 15 minutes of CPU)"
    USES_TERMINAL)
  add_custom_target(kernel_tidy_luisacompute DEPENDS ${_simt_lc_stamp})
  set(_simt_lc_build kernel_tidy_luisacompute)
endif()

if(_simt_why)
  message(STATUS "SIMT executor: tests skipped: ${_simt_why}")
  if("$ENV{CI}" STREQUAL "true")
    message(WARNING "CI=true: the simt tests will fail: ${_simt_why}")
  endif()
  # A test that says why, skipped (exit 77) outside CI and failing under CI=true.
  add_test(NAME simt_executor_tests
           COMMAND sh -c "echo \"simt tests skipped: $1\"; if [ \"$CI\" = true ]; then echo 'CI=true: the simt tests must run'; exit 1; fi; exit 77"
                   sh "${_simt_why}")
  set_tests_properties(simt_executor_tests PROPERTIES LABELS simt SKIP_RETURN_CODE 77)
  return()
endif()

message(STATUS "SIMT executor: ${KERNEL_TIDY_SIMT_CXX}, LuisaCompute at ${_simt_lc_dir}")
# The whole GPU harness on the executor: every case before and after (kernel-tidy's own
# rewrite), compiled with clang++-19 into the harness program, run by ctest
# simt_gpu_harness. Off by default: the cases cost about 23 minutes of CPU to build.
option(KERNEL_TIDY_SIMT_HARNESS "Also build the GPU harness for the SIMT executor and run it (ctest simt_gpu_harness)" OFF)
set(_simt_harness_args "")
set(_simt_depends ${_simt_lc_build})
if(KERNEL_TIDY_SIMT_HARNESS)
  set(_simt_harness_args -DKERNEL_TIDY_EXECUTABLE=$<TARGET_FILE:kernel-tidy>)
  list(APPEND _simt_depends kernel-tidy)
endif()
if(_simt_depends)
  list(PREPEND _simt_depends DEPENDS)
endif()
include(ExternalProject)
set(_simt_binary_dir ${CMAKE_BINARY_DIR}/simt)
ExternalProject_Add(kernel_tidy_simt
  SOURCE_DIR ${CMAKE_CURRENT_LIST_DIR}
  BINARY_DIR ${_simt_binary_dir}
  CMAKE_ARGS
    -DCMAKE_CXX_COMPILER=${KERNEL_TIDY_SIMT_CXX}
    -DCMAKE_BUILD_TYPE=${CMAKE_BUILD_TYPE}
    -DLuisaCompute_DIR=${_simt_lc_dir}
    ${_simt_harness_args}
  ${_simt_depends}
  INSTALL_COMMAND ""
  # The subproject's own build decides what is out of date.
  BUILD_ALWAYS ON)
add_test(NAME simt_executor_tests COMMAND ${_simt_binary_dir}/kernel_tidy_simt_tests)
set_tests_properties(simt_executor_tests PROPERTIES LABELS simt)
# The GPU harness's oracle against a wrong rewrite of each class (issue 45 item 7).
add_test(NAME simt_harness_mutations COMMAND ${_simt_binary_dir}/kernel_tidy_harness_mutation_tests)
set_tests_properties(simt_harness_mutations PROPERTIES LABELS simt)
# The differential fuzzer of the rewriting rules (integration/simt/fuzz, issue 30): a
# seeded batch per rule (100 instances, then more until every branch of its generator
# is taken; issue 45 item 6), and the mutation test that proves its oracle can fail
# (12 per rule: enough for each mutation to have instances to change). They share
# the subproject's fuzz-work/ folder, so they never run at the same time.
find_package(Python3 COMPONENTS Interpreter)
if(Python3_FOUND)
  set(_simt_fuzz ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz.py
      --simt-build ${_simt_binary_dir} --kernel-tidy $<TARGET_FILE:kernel-tidy> --seed 1
      # Not cuda-sm70: it found the atomic rules' uint warp sums over gapped lanes wrong
      # below sm_80 (docs/simt.md), now fixed in the rules; a third model costs another run.
      --collectives documented,cuda-sm80)
  add_test(NAME simt_fuzz COMMAND ${_simt_fuzz} --count 100 --cover --no-shrink)
  add_test(NAME simt_fuzz_mutations COMMAND ${_simt_fuzz} --count 12
           --rules butterfly,block-privatized-atomic,shared-tree-reduction,stream-batching,warp-aggregated-atomic,sequential-lane-reads,shuffle-reduction
           --expect-failure
           # With --target=dx the atomic rules rewrite guarded counters too (on CUDA
           # they give no fix over gapped lanes), so each mutation has instances to
           # change; dx's collectives are the documented ones.
           --target dx --collectives documented
           --mutate butterfly-drops-a-lane,group-widened-to-warp,privatized-without-second-barrier,tree-wrong-identity,batching-reorders-a-chain,privatized-without-zeroing,leader-plain-update,privatized-barrier-first-warp-only,tree-reads-unwritten-partial,scan-inclusive-exclusive-swapped,float-zeroed-for-huge-inputs)
  set_tests_properties(simt_fuzz simt_fuzz_mutations PROPERTIES
    LABELS "fuzz;simt" RESOURCE_LOCK simt_fuzz_work TIMEOUT 900)
  # 90 s of CPU, but 1,030 s wall when the 2 cores were shared at a load average near 18.
  set_tests_properties(simt_fuzz PROPERTIES TIMEOUT 1800)
  # Its arguments, each checked before anything runs (seconds; nothing is built).
  add_test(NAME simt_fuzz_arguments
           COMMAND sh ${CMAKE_SOURCE_DIR}/test/integration/fuzz-arguments.sh ${Python3_EXECUTABLE}
                   ${CMAKE_CURRENT_LIST_DIR}/fuzz/fuzz.py ${_simt_binary_dir} $<TARGET_FILE:kernel-tidy>)
  set_tests_properties(simt_fuzz_arguments PROPERTIES LABELS simt TIMEOUT 60)
endif()
# The uniformity property test (integration/simt/fuzz/uniformity.py, issue 30 item 3):
# what kernel-tidy's uniformity and divergence analyses claim about the probes of
# generated kernels (kernel-tidy-classify-probes, a test-only entry point built with
# the bundled model) checked against their runs on the executor.
add_executable(kernel-tidy-classify-probes ${CMAKE_CURRENT_LIST_DIR}/fuzz/ClassifyProbes.cpp)
target_link_libraries(kernel-tidy-classify-probes PRIVATE kernel_tidy_dsl)
target_compile_definitions(kernel-tidy-classify-probes PRIVATE
  KERNEL_TIDY_MODEL_DIR="${CMAKE_SOURCE_DIR}/src/dsl/api-model"
  KERNEL_TIDY_CLANG_RESOURCE_DIR="${KERNEL_TIDY_CLANG_RESOURCE_DIR}")
if(Python3_FOUND)
  add_test(NAME simt_uniformity
           COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_LIST_DIR}/fuzz/uniformity.py
                   --simt-build ${_simt_binary_dir} --classify $<TARGET_FILE:kernel-tidy-classify-probes>
                   --seed 1,2,3 --count 16 --check-oracle)
  # It builds in the subproject's tree too, so never beside the fuzzers. 24 s of CPU,
  # but 780 s wall when the 2 cores were shared at a load average near 17.
  set_tests_properties(simt_uniformity PROPERTIES
    LABELS "fuzz;simt" RESOURCE_LOCK simt_fuzz_work TIMEOUT 1500)
endif()
if(KERNEL_TIDY_SIMT_HARNESS)
  # results.json and results.md stay in build/simt/harness; a rewrite that breaks a
  # correct original fails the test (the program's exit code 1). Every case runs at the
  # widths its fix claims among 32, 8 and 64 lanes (the contention sweep at 32 only).
  # The report puts the executor's cost counters of each fix beside its compiled counts.
  # Widths 8, 32, 64, and the independent schedule at 32 lanes (it passes since the slot
  # rewrites that need the warp to reconverge are withheld, issue 48; about 27 s of CPU).
  # Not CUDA's collectives: rewrites of kernel-tidy fail under them today
  # (docs/gpu-harness.md#variants-widths-schedules-and-cudas-collectives-in-one-run).
  file(MAKE_DIRECTORY ${_simt_binary_dir}/harness)
  add_test(NAME simt_gpu_harness
           COMMAND ${_simt_binary_dir}/kernel-tidy-gpu-harness-simt --backend simt --out ${_simt_binary_dir}/harness
                   --variants 32,8,64,32/independent --compiled-counts ${CMAKE_SOURCE_DIR}/docs/compiled-counts.json)
  set_tests_properties(simt_gpu_harness PROPERTIES LABELS simt TIMEOUT 1200)
  # Its arguments, each checked before anything runs (seconds).
  add_test(NAME simt_gpu_harness_arguments
           COMMAND sh ${CMAKE_SOURCE_DIR}/test/integration/harness-arguments.sh
                   ${_simt_binary_dir}/kernel-tidy-gpu-harness-simt ${_simt_binary_dir}/harness-arguments)
  set_tests_properties(simt_gpu_harness_arguments PROPERTIES LABELS simt TIMEOUT 120)
endif()
