# cmake -DWORK=<empty folder> -P FindLuisaComputeTest.cmake: where the SIMT executor
# gets LuisaCompute from (FindLuisaComputeForSimt.cmake), decided on fake shared
# folders: a prebuilt matching its SHA256SUMS is used; a missing or mismatching one is
# built with build.sh (never run here); without build.sh there is none, with the reason.
cmake_minimum_required(VERSION 3.20)
include(${CMAKE_CURRENT_LIST_DIR}/../FindLuisaComputeForSimt.cmake)
file(REMOVE_RECURSE "${WORK}")

set(failures 0)
function(expect case how_expected why_pattern)
  kernel_tidy_simt_plan_luisacompute(how where why)
  if(NOT how STREQUAL how_expected OR NOT why MATCHES "${why_pattern}")
    message(SEND_ERROR "${case}: got ${how} (${where}; ${why}), expected ${how_expected} matching '${why_pattern}'")
  else()
    message(STATUS "${case}: ${how} ${where} ${why}")
  endif()
endfunction()

# A fake shared folder with the given files and a SHA256SUMS that lists the prebuilt's.
function(make_shared dir)
  file(MAKE_DIRECTORY "${dir}")
  foreach(name IN LISTS ARGN)
    file(WRITE "${dir}/${name}" "${name}\n")
  endforeach()
  set(sum 0000)
  if(EXISTS "${dir}/prebuilt-bookworm-x86_64.tar.xz")
    file(SHA256 "${dir}/prebuilt-bookworm-x86_64.tar.xz" sum)
  endif()
  file(WRITE "${dir}/SHA256SUMS" "${sum}  prebuilt-bookworm-x86_64.tar.xz\n1111  luisacompute-src.tar.xz\n")
endfunction()

unset(LuisaCompute_DIR)
set(KERNEL_TIDY_LUISACOMPUTE_SHARED "${WORK}/matching")
make_shared("${WORK}/matching" prebuilt-bookworm-x86_64.tar.xz build.sh luisacompute-src.tar.xz)
expect("a prebuilt that matches its checksum" PREBUILT "^$")

set(KERNEL_TIDY_LUISACOMPUTE_SHARED "${WORK}/mismatch")
make_shared("${WORK}/mismatch" prebuilt-bookworm-x86_64.tar.xz build.sh luisacompute-src.tar.xz)
file(APPEND "${WORK}/mismatch/prebuilt-bookworm-x86_64.tar.xz" "changed\n")
expect("a prebuilt that does not match" BUILD "does not match its SHA256SUMS")
kernel_tidy_simt_find_luisacompute(dir why)
if(dir OR NOT why MATCHES "^BUILD: ")
  message(SEND_ERROR "find with a build plan: got '${dir}' '${why}'")
endif()

set(KERNEL_TIDY_LUISACOMPUTE_SHARED "${WORK}/missing")
make_shared("${WORK}/missing" build.sh luisacompute-src.tar.xz)
expect("no prebuilt" BUILD "no .*prebuilt-bookworm-x86_64.tar.xz")

set(KERNEL_TIDY_LUISACOMPUTE_SHARED "${WORK}/nothing")
make_shared("${WORK}/nothing" luisacompute-src.tar.xz)
expect("no prebuilt and no build.sh" NONE "no LuisaCompute: .*no .*prebuilt.*build.sh")

set(KERNEL_TIDY_LUISACOMPUTE_SHARED "${WORK}/mismatch-no-source")
make_shared("${WORK}/mismatch-no-source" prebuilt-bookworm-x86_64.tar.xz build.sh)
file(APPEND "${WORK}/mismatch-no-source/prebuilt-bookworm-x86_64.tar.xz" "changed\n")
expect("a mismatching prebuilt, no source tarball" NONE "does not match.*build.sh")

file(MAKE_DIRECTORY "${WORK}/config")
file(WRITE "${WORK}/config/LuisaComputeConfig.cmake" "")
set(LuisaCompute_DIR "${WORK}/config")
expect("LuisaCompute_DIR" DIR "^$")
set(LuisaCompute_DIR "${WORK}/nowhere")
expect("a LuisaCompute_DIR without a config" NONE "has no LuisaComputeConfig.cmake")
