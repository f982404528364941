# Script mode: writes OUT, the kernel names of the compiled CUDA kernel set, one per line,
# sorted and unique: the STT_FUNC symbols of GLOBAL binding in the sm_ARCH ELF image.
#   cmake -DOUT=<file> -DARCH=<90> -DFAMILIES=<a;b> -DKEEPDIRS=<dir;dir> -DFATBINS=<f;f>
#         [-DREADELF=<readelf>] [-DCUOBJDUMP=<cuobjdump>] -P kernel_names.cmake
# With readelf, the cubin nvcc kept for ARCH (<family>.compute_ARCH[.sm_ARCH].cubin, or
# <family>.sm_ARCH.cubin when one arch is built) is read;
# otherwise cuobjdump --dump-elf-symbols reads the fatbin.
if(NOT OUT OR NOT ARCH OR NOT FAMILIES)
  message(FATAL_ERROR "kernel_names.cmake: OUT, ARCH and FAMILIES are required")
endif()

set(names "")
list(LENGTH FAMILIES nfam)
math(EXPR last "${nfam} - 1")
foreach(i RANGE ${last})
  list(GET FAMILIES ${i} fam)
  list(GET KEEPDIRS ${i} keep)
  list(GET FATBINS ${i} fatbin)
  set(cubin "")
  if(EXISTS "${keep}/${fam}.compute_${ARCH}.sm_${ARCH}.cubin")
    set(cubin "${keep}/${fam}.compute_${ARCH}.sm_${ARCH}.cubin")
  elseif(EXISTS "${keep}/${fam}.compute_${ARCH}.cubin")
    set(cubin "${keep}/${fam}.compute_${ARCH}.cubin")
  elseif(EXISTS "${keep}/${fam}.sm_${ARCH}.cubin") # nvcc's name when only one arch is built
    set(cubin "${keep}/${fam}.sm_${ARCH}.cubin")
  endif()
  if(READELF AND cubin)
    execute_process(COMMAND "${READELF}" -s -W "${cubin}"
                    OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_VARIABLE err)
    # the size column is decimal, or hex with 0x from 100000 bytes on (large kernels)
    set(pattern
        "^ *[0-9]+: +[0-9a-fA-F]+ +(0x[0-9a-fA-F]+|[0-9]+) +FUNC +GLOBAL .* ([A-Za-z_][A-Za-z0-9_]*)$")
  elseif(CUOBJDUMP)
    execute_process(COMMAND "${CUOBJDUMP}" --dump-elf-symbols -arch sm_${ARCH} "${fatbin}"
                    OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_VARIABLE err)
    set(pattern "STT_FUNC +STB_GLOBAL.*( )([A-Za-z_][A-Za-z0-9_]*)$")
  else()
    message(FATAL_ERROR "kernel_names.cmake: no readelf with a kept cubin "
                        "(${keep}/${fam}.compute_${ARCH}*.cubin) and no cuobjdump")
  endif()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "kernel_names.cmake: reading the ${fam} kernels failed (${rc}): ${err}")
  endif()
  string(REPLACE "\r" "" out "${out}")
  string(REPLACE "\n" ";" lines "${out}")
  set(found 0)
  foreach(line IN LISTS lines)
    if(line MATCHES "${pattern}")
      list(APPEND names "${CMAKE_MATCH_2}") # group 2 in both patterns
      math(EXPR found "${found} + 1")
    endif()
  endforeach()
  if(found EQUAL 0)
    message(FATAL_ERROR "kernel_names.cmake: no kernel symbols found for ${fam} (sm_${ARCH})")
  endif()
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)
string(REPLACE ";" "\n" text "${names}")
get_filename_component(dir "${OUT}" DIRECTORY)
file(MAKE_DIRECTORY "${dir}")
file(WRITE "${OUT}" "${text}\n")
