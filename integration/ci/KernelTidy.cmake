# kernel_tidy_lint(<target> [ARGS <kernel-tidy check options>...])
#
# Adds the target `<target>_kernel_tidy`, which runs `kernel-tidy check` on the
# C++ sources of <target> with its include directories, compile definitions
# and C++ standard, and fails the build on findings (exit code 1), errors (2)
# and findings promoted by --warnings-as-errors (3). Also adds every such
# target to `kernel_tidy_lint_all`.
#
#   include(path/to/integration/ci/KernelTidy.cmake)
#   kernel_tidy_lint(my_kernels ARGS --baseline ${CMAKE_SOURCE_DIR}/.kernel-tidy-baseline.json)
#   cmake --build build --target my_kernels_kernel_tidy
#
# The target's COMPILE_OPTIONS are not passed: they are often GCC-only flags
# that Clang rejects. With CMAKE_EXPORT_COMPILE_COMMANDS, pass
# `ARGS -p ${CMAKE_BINARY_DIR}` to use the exact compile commands instead.
# KERNEL_TIDY_EXECUTABLE names the kernel-tidy binary (found on PATH by default).

find_program(KERNEL_TIDY_EXECUTABLE kernel-tidy DOC "The kernel-tidy executable")

function(kernel_tidy_lint target)
  cmake_parse_arguments(PARSE_ARGV 1 KT "" "" "ARGS")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "kernel_tidy_lint: '${target}' is not a target")
  endif()
  if(NOT KERNEL_TIDY_EXECUTABLE)
    message(FATAL_ERROR "kernel_tidy_lint: kernel-tidy not found; set KERNEL_TIDY_EXECUTABLE")
  endif()
  get_target_property(source_dir ${target} SOURCE_DIR)

  set(prop "$<TARGET_PROPERTY:${target},SOURCES>")
  set(sources "$<FILTER:${prop},INCLUDE,\\.(cpp|cc|cxx)$>")
  set(includes "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
  set(defines "$<TARGET_PROPERTY:${target},COMPILE_DEFINITIONS>")
  set(standard "$<TARGET_PROPERTY:${target},CXX_STANDARD>")
  set(flags
    "$<$<BOOL:${includes}>:-I$<JOIN:${includes},$<SEMICOLON>-I>>"
    "$<$<BOOL:${defines}>:-D$<JOIN:${defines},$<SEMICOLON>-D>>"
    "$<$<BOOL:${standard}>:-std=c++${standard}>")

  add_custom_target(${target}_kernel_tidy
    COMMAND "${KERNEL_TIDY_EXECUTABLE}" check --quiet ${KT_ARGS} ${sources} -- ${flags}
    WORKING_DIRECTORY "${source_dir}"
    COMMAND_EXPAND_LISTS
    VERBATIM
    COMMENT "kernel-tidy: linting ${target}")
  if(NOT TARGET kernel_tidy_lint_all)
    add_custom_target(kernel_tidy_lint_all)
  endif()
  add_dependencies(kernel_tidy_lint_all ${target}_kernel_tidy)
endfunction()
