# The harness cases and, with a LuisaCompute install, the GPU program.
include(${CMAKE_CURRENT_LIST_DIR}/cases/Cases.cmake)
set(case_list "")
foreach(name IN LISTS KERNEL_TIDY_HARNESS_CASES)
  foreach(suffix IN LISTS KERNEL_TIDY_HARNESS_TYPES_${name})
    list(APPEND case_list "${name}:${suffix}:${KERNEL_TIDY_HARNESS_DSL_TYPE_${suffix}}")
  endforeach()
endforeach()
foreach(name IN LISTS KERNEL_TIDY_HARNESS_HOST_CASES)
  foreach(suffix IN LISTS KERNEL_TIDY_HARNESS_TYPES_${name})
    list(APPEND case_list "${name}:${suffix}:${KERNEL_TIDY_HARNESS_DSL_TYPE_${suffix}}:host")
  endforeach()
endforeach()
# Passed through a command line, where ';' would split the argument.
string(REPLACE ";" "," case_arg "${case_list}")

if(KERNEL_TIDY_BUILD_TESTS)
  find_program(KERNEL_TIDY_CLANGXX NAMES clang++-19 clang++ HINTS ${LLVM_TOOLS_BINARY_DIR} REQUIRED)
  add_test(NAME gpu_harness_cases
    COMMAND ${CMAKE_COMMAND} -DCASES=${case_arg}
            -DCASE_DIR=${CMAKE_CURRENT_SOURCE_DIR}/cases
            -DOUT_DIR=${CMAKE_CURRENT_BINARY_DIR}/cases-check
            -DKERNEL_TIDY=$<TARGET_FILE:kernel-tidy>
            -DCLANGXX=${KERNEL_TIDY_CLANGXX}
            -DMODEL=${CMAKE_SOURCE_DIR}/src/dsl/api-model
            -DHARNESS_DIR=${CMAKE_CURRENT_SOURCE_DIR}
            -P ${CMAKE_CURRENT_SOURCE_DIR}/CheckCases.cmake)
  set_tests_properties(gpu_harness_cases PROPERTIES TIMEOUT 600)
  if(KERNEL_TIDY_SANITIZE)
    # The instrumented kernel-tidy meets Clang's own Sema leak (test/lsan.supp).
    set_tests_properties(gpu_harness_cases PROPERTIES TIMEOUT 1500 ENVIRONMENT
      "LSAN_OPTIONS=suppressions=${CMAKE_SOURCE_DIR}/test/lsan.supp")
  endif()
endif()

option(KERNEL_TIDY_GPU_HARNESS "Build the GPU harness program (needs a LuisaCompute install)" OFF)
if(NOT KERNEL_TIDY_GPU_HARNESS)
  message(STATUS "GPU harness program: not built (-DKERNEL_TIDY_GPU_HARNESS=ON and "
                 "-DLuisaCompute_DIR=<prefix>/lib/cmake/LuisaCompute build it); its CPU parts "
                 "are built and tested")
  return()
endif()
# LuisaCompute installs LuisaComputeTargets.cmake (luisa::compute) without a
# package config file; accept a config file too, should a version ship one.
if(NOT TARGET luisa::compute AND EXISTS "${LuisaCompute_DIR}/LuisaComputeTargets.cmake")
  include("${LuisaCompute_DIR}/LuisaComputeTargets.cmake")
endif()
if(NOT TARGET luisa::compute)
  find_package(LuisaCompute CONFIG QUIET)
endif()
if(NOT TARGET luisa::compute)
  message(WARNING "GPU harness program skipped: no LuisaCompute at LuisaCompute_DIR="
                  "'${LuisaCompute_DIR}'. Build and install LuisaCompute outside this repository "
                  "(docs/gpu-harness.md) and pass -DLuisaCompute_DIR=<prefix>/lib/cmake/LuisaCompute.")
  return()
endif()

set(generated ${CMAKE_CURRENT_BINARY_DIR}/cases)
set(case_sources "")
set(case_templates "")
foreach(entry IN LISTS case_list)
  string(REPLACE ":" ";" parts "${entry}")
  list(GET parts 0 name)
  list(GET parts 1 suffix)
  list(APPEND case_sources ${generated}/before/${name}_${suffix}.cpp ${generated}/after/${name}_${suffix}.cpp)
  set_source_files_properties(${generated}/after/${name}_${suffix}.cpp PROPERTIES
    COMPILE_DEFINITIONS KERNEL_TIDY_CASE_VERSION=after)
  list(APPEND case_templates ${CMAKE_CURRENT_SOURCE_DIR}/cases/${name}.cpp.in)
endforeach()
list(REMOVE_DUPLICATES case_templates)
# The "after" sources are kernel-tidy's own output, made at build time.
add_custom_command(
  OUTPUT ${case_sources} ${generated}/cases.inc ${generated}/dx-only.inc
         ${generated}/reconverging-only.inc
  COMMAND ${CMAKE_COMMAND} -DCASES=${case_arg} -DCASE_DIR=${CMAKE_CURRENT_SOURCE_DIR}/cases
          -DOUT_DIR=${generated} -DKERNEL_TIDY=$<TARGET_FILE:kernel-tidy>
          -P ${CMAKE_CURRENT_SOURCE_DIR}/GenerateCases.cmake
  DEPENDS kernel-tidy ${case_templates} ${CMAKE_CURRENT_SOURCE_DIR}/cases/CaseKernel.h
          ${CMAKE_CURRENT_SOURCE_DIR}/GenerateCases.cmake
  COMMENT "kernel-tidy --fix --unsafe-fixes on the GPU harness cases")

find_package(Git QUIET)
set(commit unknown)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} rev-parse --short HEAD WORKING_DIRECTORY ${CMAKE_SOURCE_DIR}
                  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
endif()
add_executable(kernel-tidy-gpu-harness HarnessMain.cpp Nvml.cpp ${case_sources})
target_include_directories(kernel-tidy-gpu-harness PRIVATE
  ${CMAKE_CURRENT_SOURCE_DIR} ${CMAKE_CURRENT_SOURCE_DIR}/cases ${generated})
target_compile_features(kernel-tidy-gpu-harness PRIVATE cxx_std_20)
target_compile_definitions(kernel-tidy-gpu-harness PRIVATE KERNEL_TIDY_HARNESS_COMMIT="${commit}")
target_link_libraries(kernel-tidy-gpu-harness PRIVATE kernel_tidy_harness_core luisa::compute ${CMAKE_DL_LIBS})
