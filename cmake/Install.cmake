# What `cmake --install` and `cpack -G DEB` ship (the layout is in docs/ci.md):
#   bin/kernel-tidy, bin/kernel-clangd
#   lib/kernel-tidy/clang-tidy-19/libKernelTidyPlugin.so   clang-tidy-19 --load
#   lib/cmake/KernelTidy/                                   find_package(KernelTidy)
#   share/kernel-tidy/api-model, share/kernel-tidy/docs      read at run time
#   share/doc/kernel-tidy/                                  docs/, examples, copyright
#   share/man/man1/kernel-tidy.1.gz, kernel-clangd.1.gz
#   share/bash-completion/completions/kernel-tidy, share/zsh/vendor-completions/_kernel-tidy
# The executables find share/kernel-tidy from their own location, and Clang's
# resource directory at the absolute path of Debian's libclang-common-19-dev.

install(DIRECTORY src/dsl/api-model/luisa DESTINATION ${KERNEL_TIDY_SHARE_SUBDIR}/api-model)
# docs/ twice, each copy whole so that its relative links resolve: the tool's
# own (the rule pages of `kernel-tidy rules ID` and SARIF help, the target of
# the help's links) stays out of share/doc, which Debian lets a system drop;
# share/doc/kernel-tidy is where users look.
install(DIRECTORY docs/ DESTINATION ${KERNEL_TIDY_SHARE_SUBDIR}/docs)
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR})
file(GLOB KERNEL_TIDY_EXAMPLES ${CMAKE_SOURCE_DIR}/examples/*.cpp ${CMAKE_SOURCE_DIR}/examples/README.md)
install(FILES ${KERNEL_TIDY_EXAMPLES} DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples)
install(FILES integration/ci/github-actions.yml integration/ci/pre-commit-config.example.yaml
              integration/ci/pre-commit-hooks.yaml
        DESTINATION ${CMAKE_INSTALL_DOCDIR}/examples/ci)
install(FILES packaging/copyright DESTINATION ${CMAKE_INSTALL_DOCDIR})
# Shell completions, generated from the command line's definition
# (test/integration/cli-docs.py), where bash-completion and Debian's zsh look.
install(FILES packaging/completions/kernel-tidy.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME kernel-tidy)
install(FILES packaging/completions/_kernel-tidy
        DESTINATION ${CMAKE_INSTALL_DATADIR}/zsh/vendor-completions)

# find_package(KernelTidy): imported executables and the plugin, and
# kernel_tidy_lint() from integration/ci/KernelTidy.cmake.
include(CMakePackageConfigHelpers)
set(KERNEL_TIDY_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/KernelTidy)
configure_package_config_file(cmake/KernelTidyConfig.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/KernelTidyConfig.cmake
  INSTALL_DESTINATION ${KERNEL_TIDY_CMAKE_DIR})
# Before 1.0 a minor version may change options and output. The executables
# serve projects of any architecture.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/KernelTidyConfigVersion.cmake
  COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${CMAKE_BINARY_DIR}/cmake/KernelTidyConfig.cmake
              ${CMAKE_BINARY_DIR}/cmake/KernelTidyConfigVersion.cmake
              integration/ci/KernelTidy.cmake
        DESTINATION ${KERNEL_TIDY_CMAKE_DIR})
install(EXPORT KernelTidyTargets NAMESPACE KernelTidy:: DESTINATION ${KERNEL_TIDY_CMAKE_DIR})

# cpack -G DEB (in the build folder): kernel-tidy_<version>_amd64.deb for
# Debian bookworm.
set(KERNEL_TIDY_PACKAGE_MAINTAINER "kernel-tidy developers <kernel-tidy@example.org>"
    CACHE STRING "Maintainer field of the Debian package")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kernel-tidy)
set(CPACK_PACKAGE_VENDOR "kernel-tidy developers")
set(CPACK_PACKAGE_CONTACT "${KERNEL_TIDY_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "linter and optimizer for LuisaCompute DSL and CuTe DSL GPU kernels")
set(CPACK_PACKAGE_DESCRIPTION
"kernel-tidy finds slow or wrong patterns in GPU kernels written in the
LuisaCompute C++ DSL (hand-written warp reductions, shared-memory atomics,
divergent barriers, unbatched stream submissions) and in NVIDIA's CuTe DSL
for Python (hard-coded warp widths, butterfly reductions, divergent
barriers), and rewrites them where the rewrite provably keeps the results.
It is built on Clang 19; the CuTe DSL frontend runs on python3.
.
The package contains kernel-tidy (command line, SARIF and JSON reports,
baselines, shards), kernel-clangd (clangd with the checks), a plugin for
clang-tidy-19, the bundled model of the DSL API, the documentation and the
CMake package KernelTidy (kernel_tidy_lint).")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
# The libraries' packages (libllvm19, libclang-cpp19, ...) come from
# dpkg-shlibdeps. Not linked but needed to parse user code: Clang's resource
# directory (/usr/lib/llvm-19/lib/clang/19) and the C/C++ standard headers
# that the bundled model includes.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# python3 (>= 3.8): the CuTe DSL frontend (frontends/cute) that checks .py files.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libclang-common-19-dev, libstdc++-12-dev | libstdc++-dev, libc6-dev, python3 (>= 3.8)")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "clang-tidy-19")

# Debian wants a changelog in the doc folder of a native package.
string(TIMESTAMP KERNEL_TIDY_PACKAGE_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)
file(WRITE ${CMAKE_BINARY_DIR}/packaging/changelog
"kernel-tidy (${PROJECT_VERSION}) unstable; urgency=medium

  * Built from the kernel-tidy sources; the changes are in its git history.

 -- ${KERNEL_TIDY_PACKAGE_MAINTAINER}  ${KERNEL_TIDY_PACKAGE_DATE}
")
execute_process(COMMAND gzip -9nc INPUT_FILE ${CMAKE_BINARY_DIR}/packaging/changelog
                OUTPUT_FILE ${CMAKE_BINARY_DIR}/packaging/changelog.gz)
install(FILES ${CMAKE_BINARY_DIR}/packaging/changelog.gz DESTINATION ${CMAKE_INSTALL_DOCDIR})
foreach(page kernel-tidy.1 kernel-clangd.1)
  execute_process(COMMAND gzip -9nc INPUT_FILE ${CMAKE_SOURCE_DIR}/packaging/man/${page}
                  OUTPUT_FILE ${CMAKE_BINARY_DIR}/packaging/${page}.gz)
  install(FILES ${CMAKE_BINARY_DIR}/packaging/${page}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endforeach()
# Edits of the man pages reach the next build.
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/packaging/man/kernel-tidy.1 ${CMAKE_SOURCE_DIR}/packaging/man/kernel-clangd.1)
include(CPack)
