# kernel_tidy_lint(<target> [REQUIRED] [ARGS <kernel-tidy check options>...])
#
# Adds the target `<target>_kernel_tidy`, which runs `kernel-tidy check` on the
# C++ sources of <target> with its include directories, compile definitions
# and C++ standard, and fails the build on findings (exit code 1), errors (2)
# and findings promoted by --warnings-as-errors (3). Also adds every such
# target to `kernel_tidy_lint_all`.
#
#   find_package(KernelTidy 0.1)      # the installed package (Debian package or cmake --install)
#   # or: include(path/to/integration/ci/KernelTidy.cmake)
#   kernel_tidy_lint(my_kernels ARGS --baseline ${CMAKE_SOURCE_DIR}/.kernel-tidy-baseline.json)
#   cmake --build build --target my_kernels_kernel_tidy
#
# Without a kernel-tidy, including this file warns and kernel_tidy_lint() adds
# no target, so that a project still configures on machines without it;
# kernel_tidy_lint(... REQUIRED) (or find_package(KernelTidy REQUIRED)) makes
# it a configure error instead.
#
# The target's COMPILE_OPTIONS are not passed: they are often GCC-only flags
# that Clang rejects. With CMAKE_EXPORT_COMPILE_COMMANDS, pass
# `ARGS -p ${CMAKE_BINARY_DIR}` to use the exact compile commands instead.
# KERNEL_TIDY_EXECUTABLE names the kernel-tidy binary (with find_package: the
# package's, else the one on PATH).

if(NOT KERNEL_TIDY_EXECUTABLE)
  find_program(KERNEL_TIDY_EXECUTABLE kernel-tidy DOC "The kernel-tidy executable")
endif()
if(NOT EXISTS "${KERNEL_TIDY_EXECUTABLE}")
  message(WARNING "kernel-tidy not found (KERNEL_TIDY_EXECUTABLE='${KERNEL_TIDY_EXECUTABLE}'): "
                  "kernel_tidy_lint() adds no lint targets. Install kernel-tidy (its Debian "
                  "package or cmake --install) or set KERNEL_TIDY_EXECUTABLE.")
endif()

function(kernel_tidy_lint target)
  cmake_parse_arguments(PARSE_ARGV 1 KT "REQUIRED" "" "ARGS")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "kernel_tidy_lint: '${target}' is not a target")
  endif()
  if(NOT EXISTS "${KERNEL_TIDY_EXECUTABLE}")
    if(KT_REQUIRED)
      message(FATAL_ERROR "kernel_tidy_lint: kernel-tidy not found; set KERNEL_TIDY_EXECUTABLE")
    endif()
    return()
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
