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
# the other backends' wave operations do: such a case is fixed as for
# --target=vulkan. A case whose rewrite also needs the warp to run together
# again after a divergent $if (the warp-slot rewrites) gets no fix on vulkan
# or metal either: it is fixed as for --target=dx, which promises that.
function(unchanged_cases out)
  set(result "")
  foreach(file IN LISTS ARGN)
    get_filename_component(stem ${file} NAME)
    string(REPLACE ".cpp.tmp.cpp" ".cpp" stem "${stem}")
    file(READ ${OUT_DIR}/before/${stem} before_text)
    file(READ ${file} after_text)
    if(before_text STREQUAL after_text)
      list(APPEND result ${file})
    endif()
  endforeach()
  set(${out} "${result}" PARENT_SCOPE)
endfunction()
unchanged_cases(unfixed ${fixing})
set(reconverging "")
foreach(target vulkan dx)
  if(target STREQUAL "dx")
    unchanged_cases(reconverging ${unfixed})
    set(still ${reconverging})
  else()
    set(still ${unfixed})
  endif()
  if(still)
    execute_process(
      COMMAND ${KERNEL_TIDY} check --bundled-model --target=${target} --fix --unsafe-fixes --quiet
              ${still}
      RESULT_VARIABLE fix_result OUTPUT_VARIABLE target_output ERROR_VARIABLE target_output)
    string(APPEND fix_output "--target=${target}:\n${target_output}")
  endif()
endforeach()
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
# The cases fixed only for another target, for HarnessMain.cpp: their fixes
# claim no CUDA target, so the harness runs them with the documented
# collectives only (dx-only.inc, every such case), and those fixed only for
# --target=dx also claim no schedule that leaves a warp split after a
# divergent $if (reconverging-only.inc: not under the independent schedule).
foreach(list_name unfixed reconverging)
  set(text "")
  foreach(file IN LISTS ${list_name})
    get_filename_component(stem ${file} NAME)
    string(REPLACE ".cpp.tmp.cpp" "" stem "${stem}")
    string(APPEND text "\"${stem}\",\n")
  endforeach()
  set(${list_name}_text "${text}")
endforeach()
file(WRITE ${OUT_DIR}/dx-only.inc "${unfixed_text}")
file(WRITE ${OUT_DIR}/reconverging-only.inc "${reconverging_text}")
file(WRITE ${OUT_DIR}/cases.inc.tmp "${table}")
file(RENAME ${OUT_DIR}/cases.inc.tmp ${OUT_DIR}/cases.inc)
