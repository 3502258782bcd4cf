# cmake -P GenerateCases.cmake: makes the "before" and "after" sources of
# harness cases. The "after" form is what kernel-tidy itself writes: the
# "before" file is copied and fixed with `check --fix --unsafe-fixes`, so the
# harness always tests the tool's real output, never a hand-written rewrite.
#
# -DCASES=name:suffix:dsltype[:host],...   cases to make (e.g. butterfly_sum:f32:float;
#                                   ":host" marks a host-side case, CaseKernel.h HostCase)
# -DCASE_DIR=...                    integration/gpu-harness/cases
# -DOUT_DIR=...                     gets before/ and after/
# -DKERNEL_TIDY=...                 the kernel-tidy binary
#
# Fails when kernel-tidy does not rewrite a case, when the rewrite does not
# parse with the bundled DSL model, or when it still has findings.
foreach(var CASES CASE_DIR OUT_DIR KERNEL_TIDY)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "GenerateCases.cmake: -D${var}=... is required")
  endif()
endforeach()

string(REPLACE "," ";" CASES "${CASES}")

foreach(version before after)
  file(MAKE_DIRECTORY ${OUT_DIR}/${version})
  configure_file(${CASE_DIR}/CaseKernel.h ${OUT_DIR}/${version}/CaseKernel.h COPYONLY)
endforeach()

set(files "")
set(fixing "")
foreach(entry IN LISTS CASES)
  string(REPLACE ":" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 SUFFIX)
  list(GET parts 2 T)
  set(file ${name}_${SUFFIX}.cpp)
  list(APPEND files ${file})
  configure_file(${CASE_DIR}/${name}.cpp.in ${OUT_DIR}/before/${file} @ONLY)
  # Fixed under a temporary name and renamed at the end, so that an
  # interrupted build never leaves an unfixed "after" file that looks done.
  configure_file(${CASE_DIR}/${name}.cpp.in ${OUT_DIR}/after/${file}.tmp.cpp @ONLY)
  list(APPEND fixing ${OUT_DIR}/after/${file}.tmp.cpp)
endforeach()

# One run for all files: they share the header parse.
execute_process(
  COMMAND ${KERNEL_TIDY} check --bundled-model --fix --unsafe-fixes --quiet ${fixing}
  RESULT_VARIABLE fix_result OUTPUT_VARIABLE fix_output ERROR_VARIABLE fix_output)
if(fix_result GREATER 1)
  message(FATAL_ERROR "kernel-tidy could not fix the cases (exit ${fix_result}):\n${fix_output}")
endif()
# A case whose rewrite LuisaCompute's CUDA collectives would compute wrongly
# (a float or per-lane reduction under a divergent $if) gets no fix while the
# target allows CUDA. The executor computes the collectives as documented, as
# DirectX's wave operations do: such a case is fixed as for --target=dx.
set(unfixed "")
foreach(file IN LISTS files)
  file(READ ${OUT_DIR}/before/${file} before_text)
  file(READ ${OUT_DIR}/after/${file}.tmp.cpp after_text)
  if(before_text STREQUAL after_text)
    list(APPEND unfixed ${OUT_DIR}/after/${file}.tmp.cpp)
  endif()
endforeach()
if(unfixed)
  execute_process(
    COMMAND ${KERNEL_TIDY} check --bundled-model --target=dx --fix --unsafe-fixes --quiet ${unfixed}
    RESULT_VARIABLE fix_result OUTPUT_VARIABLE dx_output ERROR_VARIABLE dx_output)
  string(APPEND fix_output "--target=dx:\n${dx_output}")
endif()
foreach(file IN LISTS files)
  file(READ ${OUT_DIR}/before/${file} before_text)
  file(READ ${OUT_DIR}/after/${file}.tmp.cpp after_text)
  if(before_text STREQUAL after_text)
    message(FATAL_ERROR "kernel-tidy did not rewrite ${file}:\n${fix_output}")
  endif()
endforeach()
execute_process(
  COMMAND ${KERNEL_TIDY} check --bundled-model ${fixing}
  RESULT_VARIABLE check_result OUTPUT_VARIABLE check_output ERROR_VARIABLE check_output)
if(NOT check_result EQUAL 0)
  message(FATAL_ERROR "a rewritten case does not parse cleanly or still has findings "
                      "(exit ${check_result}):\n${check_output}")
endif()
foreach(file IN LISTS files)
  file(RENAME ${OUT_DIR}/after/${file}.tmp.cpp ${OUT_DIR}/after/${file})
endforeach()

# The list of generated cases, for HarnessMain.cpp.
set(table "")
foreach(entry IN LISTS CASES)
  string(REPLACE ":" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 suffix)
  list(GET parts 2 type)
  list(LENGTH parts count)
  if(count GREATER 3)
    string(APPEND table "KERNEL_TIDY_HOST_CASE(${name}, ${suffix}, ${type})\n")
  else()
    string(APPEND table "KERNEL_TIDY_CASE(${name}, ${suffix}, ${type})\n")
  endif()
endforeach()
# The cases fixed only with --target=dx, for HarnessMain.cpp: their fixes
# claim no CUDA target, so the harness runs them with the documented
# collectives only.
set(dx_only "")
foreach(file IN LISTS unfixed)
  get_filename_component(stem ${file} NAME)
  string(REPLACE ".cpp.tmp.cpp" "" stem "${stem}")
  string(APPEND dx_only "\"${stem}\",\n")
endforeach()
file(WRITE ${OUT_DIR}/dx-only.inc "${dx_only}")
file(WRITE ${OUT_DIR}/cases.inc.tmp "${table}")
file(RENAME ${OUT_DIR}/cases.inc.tmp ${OUT_DIR}/cases.inc)
