# The rules' profitability claims against the committed compiled counts
# (docs/compiled-counts.json, made by compiled_counts.py with LuisaCompute's CUDA
# code generator, NVRTC and ptxas). These tests only read the table: no CUDA, no
# LuisaCompute, a few seconds. docs/compiled-counts.md says how to regenerate it.
set(_cc_dir ${CMAKE_CURRENT_LIST_DIR})
add_test(NAME compiled_counts_claims
  COMMAND python3 -B ${_cc_dir}/check_claims.py
          --counts ${CMAKE_SOURCE_DIR}/docs/compiled-counts.json
          --def ${CMAKE_SOURCE_DIR}/src/dsl/Profitability.def
          --rules-doc ${CMAKE_SOURCE_DIR}/docs/rules
          --cases-cmake ${CMAKE_SOURCE_DIR}/integration/gpu-harness/cases/Cases.cmake)
add_test(NAME compiled_counts_unit_tests
  COMMAND python3 -B -m unittest discover -s ${_cc_dir}/tests -t ${_cc_dir}/tests)
find_program(KERNEL_TIDY_CC_MYPY NAMES mypy)
if(NOT KERNEL_TIDY_CC_MYPY)
  set(KERNEL_TIDY_CC_MYPY mypy) # The test fails, naming it: run scripts/setup.sh.
endif()
add_test(NAME compiled_counts_mypy
  COMMAND ${KERNEL_TIDY_CC_MYPY} --strict --cache-dir ${CMAKE_BINARY_DIR}/mypy-cache-cc
          compiled_counts.py check_claims.py tests/test_compiled_counts.py
  WORKING_DIRECTORY ${_cc_dir})
add_test(NAME compiled_counts_flake8
  COMMAND /usr/bin/python3 -m flake8 --max-line-length 100
          compiled_counts.py check_claims.py tests/test_compiled_counts.py
  WORKING_DIRECTORY ${_cc_dir})
