# Script mode: one family's nvcc -fatbin through a cache directory shared between build trees
# (GPUX_CUDA_FATBIN_CACHE), so that a second build of the same kernels -- .ci/run's linked-in
# build, a developer's second build directory -- copies the fatbin instead of compiling it
# again (nvcc is most of a build's time on 2 cores).
#   cmake -DCACHE=<dir> -DNVCC=<nvcc> -DARGS=<a|b|...> -DSRC=<family.cu> -DHEADERS=<h|h>
#         -DFATBIN=<out> -DKEEP=<keep dir> -DFAM=<family> -DARCH=<last arch> -P nvcc_cache.cmake
# The key is the SHA-256 of nvcc's version text, the arguments, and the text of the source and
# of every kernel header (all of them, not only those the family includes: a stale hit must
# not happen). A hit restores the fatbin and the last arch's cubin that kernel_names.cmake
# reads; a miss runs nvcc as the plain rule does and stores both.
foreach(v CACHE NVCC ARGS SRC FATBIN KEEP FAM ARCH)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "nvcc_cache.cmake: ${v} is required")
  endif()
endforeach()
string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "|" ";" headers "${HEADERS}")

execute_process(COMMAND "${NVCC}" --version OUTPUT_VARIABLE version RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc_cache.cmake: ${NVCC} --version failed (${rc})")
endif()
set(text "${version}\n${ARGS}\n")
list(SORT headers)
foreach(f IN LISTS SRC headers)
  file(SHA256 "${f}" h)
  get_filename_component(n "${f}" NAME)
  string(APPEND text "${n} ${h}\n")
endforeach()
string(SHA256 key "${text}")
set(entry "${CACHE}/${FAM}-${key}")

# nvcc's names for the kept cubin of ARCH (kernel_names.cmake reads the same ones)
set(cubins "${FAM}.compute_${ARCH}.sm_${ARCH}.cubin" "${FAM}.compute_${ARCH}.cubin"
           "${FAM}.sm_${ARCH}.cubin")
file(MAKE_DIRECTORY "${KEEP}")
if(EXISTS "${entry}/fatbin")
  file(GLOB kept "${entry}/*.cubin")
  file(COPY ${kept} DESTINATION "${KEEP}")
  execute_process(COMMAND "${CMAKE_COMMAND}" -E copy "${entry}/fatbin" "${FATBIN}"
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "nvcc_cache.cmake: copying ${entry}/fatbin failed")
  endif()
  message(STATUS "nvcc: ${FAM}.fatbin from the cache (${entry})")
  return()
endif()

execute_process(COMMAND "${NVCC}" ${args} -keep -keep-dir "${KEEP}" -o "${FATBIN}" "${SRC}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "nvcc failed on ${SRC} (${rc})")
endif()
# stored under a temporary name, then renamed: a concurrent build never reads half an entry
string(RANDOM LENGTH 8 tag)
set(tmp "${CACHE}/.tmp-${FAM}-${tag}")
file(MAKE_DIRECTORY "${tmp}")
set(store "${FATBIN}")
foreach(c IN LISTS cubins)
  if(EXISTS "${KEEP}/${c}")
    list(APPEND store "${KEEP}/${c}")
  endif()
endforeach()
file(COPY ${store} DESTINATION "${tmp}")
get_filename_component(fb "${FATBIN}" NAME)
execute_process(COMMAND "${CMAKE_COMMAND}" -E rename "${tmp}/${fb}" "${tmp}/fatbin")
execute_process(COMMAND "${CMAKE_COMMAND}" -E rename "${tmp}" "${entry}" RESULT_VARIABLE rc
                ERROR_QUIET)
if(NOT rc EQUAL 0) # another build stored the same entry first
  file(REMOVE_RECURSE "${tmp}")
endif()
