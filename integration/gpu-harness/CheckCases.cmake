# cmake -P CheckCases.cmake: the CPU check of the harness (ctest gpu_harness_cases).
# Makes every case's "before" and "after" sources as the GPU build does
# (GenerateCases.cmake, same -D variables), then type-checks the harness
# program with those cases against the bundled DSL model: the GPU program
# itself cannot be built without LuisaCompute, but it must not rot.
# Extra: -DCLANGXX=clang++-19 -DMODEL=<src/dsl/api-model> -DHARNESS_DIR=<this folder>
include(${CMAKE_CURRENT_LIST_DIR}/GenerateCases.cmake)
execute_process(
  COMMAND ${CLANGXX} -fsyntax-only -std=c++20 -isystem ${MODEL}
          -I${HARNESS_DIR}/core -I${HARNESS_DIR} -I${HARNESS_DIR}/cases -I${OUT_DIR}
          -DKERNEL_TIDY_HARNESS_COMMIT="check"
          ${HARNESS_DIR}/HarnessMain.cpp ${HARNESS_DIR}/Nvml.cpp
  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "the harness program does not compile against the bundled model:\n${output}")
endif()
