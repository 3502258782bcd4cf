# Where the SIMT executor gets LuisaCompute from (issue 29 item 4). In order:
#   - LuisaCompute_DIR, when given;
#   - the prebuilt CPU-only install in KERNEL_TIDY_LUISACOMPUTE_SHARED (default: the
#     checkout's sibling ../shared/luisacompute, where CI and the developer machines
#     keep it), checked against its SHA256SUMS and extracted into the build tree
#     (never into the source tree: it is third-party code, used as test data);
#   - when that prebuilt is missing or does not match its checksum: the same folder's
#     build.sh, which builds the source tarball (checked by build.sh against the same
#     SHA256SUMS) into the build tree, about 15 minutes of CPU, once per checksum.

# kernel_tidy_simt_plan_luisacompute(<how-var> <where-var> <why-var>): the decision
# alone, without extracting or building anything, so that a test can check it.
#   DIR       <where> = LuisaCompute_DIR
#   PREBUILT  <where> = the prebuilt tarball (it matches its checksum)
#   BUILD     <where> = build.sh; <why> = why the prebuilt is not used
#   NONE      <why> = why there is no LuisaCompute
function(kernel_tidy_simt_plan_luisacompute how_var where_var why_var)
  set(how NONE)
  set(where "")
  set(why "")
  set(shared "${KERNEL_TIDY_LUISACOMPUTE_SHARED}")
  if(NOT shared)
    get_filename_component(shared "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../../../shared/luisacompute" ABSOLUTE)
  endif()
  set(tarball "${shared}/prebuilt-bookworm-x86_64.tar.xz")
  set(source_tarball "${shared}/luisacompute-src.tar.xz")
  if(LuisaCompute_DIR)
    if(EXISTS "${LuisaCompute_DIR}/LuisaComputeConfig.cmake")
      set(how DIR)
      set(where "${LuisaCompute_DIR}")
    else()
      set(why "LuisaCompute_DIR=${LuisaCompute_DIR} has no LuisaComputeConfig.cmake")
    endif()
  else()
    if(NOT EXISTS "${shared}/SHA256SUMS")
      set(why "no ${shared}/SHA256SUMS")
    elseif(NOT EXISTS "${tarball}")
      set(why "no ${tarball}")
    else()
      file(STRINGS "${shared}/SHA256SUMS" sums REGEX "prebuilt-bookworm-x86_64\\.tar\\.xz")
      string(REGEX MATCH "^[0-9a-f]+" expected "${sums}")
      file(SHA256 "${tarball}" actual)
      if(expected AND actual STREQUAL expected)
        set(how PREBUILT)
        set(where "${tarball}")
      else()
        set(why "${tarball} does not match its SHA256SUMS (${actual} != ${expected})")
      endif()
    endif()
    if(how STREQUAL "NONE")
      if(EXISTS "${shared}/build.sh" AND EXISTS "${source_tarball}" AND EXISTS "${shared}/SHA256SUMS")
        set(how BUILD)
        set(where "${shared}/build.sh")
      else()
        string(CONCAT why "no LuisaCompute: neither -DLuisaCompute_DIR, nor a prebuilt that matches its "
               "checksum (${why}), nor ${shared}/build.sh with luisacompute-src.tar.xz to build one")
      endif()
    endif()
  endif()
  set(${how_var} "${how}" PARENT_SCOPE)
  set(${where_var} "${where}" PARENT_SCOPE)
  set(${why_var} "${why}" PARENT_SCOPE)
endfunction()

# kernel_tidy_simt_find_luisacompute(<dir-var> <why-var>): where LuisaComputeConfig.cmake
# is (extracting the prebuilt if that is the plan), or an empty <dir-var> and in
# <why-var> why not. A plan to build LuisaCompute is left to the caller: <dir-var> is
# then empty and <why-var> starts with "BUILD: ".
function(kernel_tidy_simt_find_luisacompute dir_var why_var)
  kernel_tidy_simt_plan_luisacompute(how where why)
  set(${dir_var} "" PARENT_SCOPE)
  if(how STREQUAL "DIR")
    set(${dir_var} "${where}" PARENT_SCOPE)
    return()
  elseif(how STREQUAL "BUILD")
    set(${why_var} "BUILD: ${why}" PARENT_SCOPE)
    return()
  elseif(NOT how STREQUAL "PREBUILT")
    set(${why_var} "${why}" PARENT_SCOPE)
    return()
  endif()
  file(SHA256 "${where}" sum)
  # Extracted once per checksum, so a new tarball replaces the old install.
  set(root "${CMAKE_BINARY_DIR}/luisacompute-prebuilt")
  set(stamp "${root}/${sum}.extracted")
  if(NOT EXISTS "${stamp}")
    file(REMOVE_RECURSE "${root}")
    file(MAKE_DIRECTORY "${root}")
    file(ARCHIVE_EXTRACT INPUT "${where}" DESTINATION "${root}")
    file(TOUCH "${stamp}")
  endif()
  set(config_dir "${root}/luisacompute/lib/cmake/LuisaCompute")
  if(NOT EXISTS "${config_dir}/LuisaComputeConfig.cmake")
    set(${why_var} "${where} has no luisacompute/lib/cmake/LuisaCompute/LuisaComputeConfig.cmake" PARENT_SCOPE)
    return()
  endif()
  set(${dir_var} "${config_dir}" PARENT_SCOPE)
endfunction()
