# The DLPack header (dlpack/dlpack.h, DLPack 1.x: DLManagedTensorVersioned) for gpux's DLPack
# calls (include/gpux/dlpack.h). In order:
#   GPUX_DLPACK_INCLUDE_DIR, when set (a directory holding dlpack/dlpack.h);
#   the system's, when it is 1.x (Debian 12's libdlpack-dev is 0.6: no versioned ABI);
#   DLPack's own header from the apache-tvm-ffi sdist on PyPI (pinned by version and SHA256),
#   downloaded once into GPUX_DEPS_DIR (default: the environment's GPUX_DEPS_DIR, else
#   <build>/_deps; CI shares one between its builds; a machine without network gets the
#   tarball there beforehand).
# GPUX_WITH_DLPACK=OFF builds without it: the DLPack calls then answer GPUX_ERROR_UNSUPPORTED.
# Sets GPUX_HAVE_DLPACK and GPUX_DLPACK_INCLUDE (the directory to add) in the caller's scope.
set(GPUX_WITH_DLPACK AUTO CACHE STRING "DLPack calls: ON, OFF or AUTO (on when a header is found)")
set(GPUX_DLPACK_INCLUDE_DIR "" CACHE PATH "A directory holding dlpack/dlpack.h (DLPack 1.x)")
if(DEFINED ENV{GPUX_DEPS_DIR} AND NOT "$ENV{GPUX_DEPS_DIR}" STREQUAL "")
  set(_gpux_deps_default "$ENV{GPUX_DEPS_DIR}")
else()
  set(_gpux_deps_default "${CMAKE_BINARY_DIR}/_deps")
endif()
set(GPUX_DEPS_DIR "${_gpux_deps_default}" CACHE PATH
    "Where downloaded build inputs go (default: $GPUX_DEPS_DIR, else <build>/_deps); a
     directory that already holds them needs no network")

set(_gpux_dlpack_sdist_version 0.1.15.post2)
set(_gpux_dlpack_sdist_url
    "https://files.pythonhosted.org/packages/a8/8f/2fcd88ce2f43dd2c1945c6613356a9bc1f5fdbe6e37080d34d2b980ad9f6/apache_tvm_ffi-${_gpux_dlpack_sdist_version}.tar.gz")
set(_gpux_dlpack_sdist_sha256 909be9ef5af07726aa9afd38a3111abc4d86cfd5927ebedfa9166232ce7d287b)

# the header's major version, or 0
function(_gpux_dlpack_major dir out)
  set(${out} 0 PARENT_SCOPE)
  if(EXISTS "${dir}/dlpack/dlpack.h")
    file(STRINGS "${dir}/dlpack/dlpack.h" _l REGEX "^#define DLPACK_MAJOR_VERSION [0-9]+")
    if(_l MATCHES "DLPACK_MAJOR_VERSION ([0-9]+)")
      set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
    endif()
  endif()
endfunction()

set(GPUX_HAVE_DLPACK OFF)
set(GPUX_DLPACK_INCLUDE "")
if(NOT GPUX_WITH_DLPACK STREQUAL "OFF")
  set(_cands "")
  if(GPUX_DLPACK_INCLUDE_DIR)
    list(APPEND _cands "${GPUX_DLPACK_INCLUDE_DIR}")
  endif()
  find_path(GPUX_DLPACK_SYSTEM_DIR dlpack/dlpack.h)
  if(GPUX_DLPACK_SYSTEM_DIR)
    list(APPEND _cands "${GPUX_DLPACK_SYSTEM_DIR}")
  endif()
  foreach(_d ${_cands})
    _gpux_dlpack_major("${_d}" _major)
    if(_major GREATER_EQUAL 1 AND NOT GPUX_HAVE_DLPACK)
      set(GPUX_HAVE_DLPACK ON)
      set(GPUX_DLPACK_INCLUDE "${_d}")
    endif()
  endforeach()
  if(NOT GPUX_HAVE_DLPACK)
    set(_dir "${GPUX_DEPS_DIR}/dlpack-tvm-ffi-${_gpux_dlpack_sdist_version}")
    set(_inc "${_dir}/apache_tvm_ffi-${_gpux_dlpack_sdist_version}/3rdparty/dlpack/include")
    if(NOT EXISTS "${_inc}/dlpack/dlpack.h")
      set(_tgz "${GPUX_DEPS_DIR}/apache_tvm_ffi-${_gpux_dlpack_sdist_version}.tar.gz")
      if(NOT EXISTS "${_tgz}")
        message(STATUS "gpux: downloading DLPack's header (apache-tvm-ffi ${_gpux_dlpack_sdist_version} sdist)")
        file(DOWNLOAD "${_gpux_dlpack_sdist_url}" "${_tgz}.part"
             EXPECTED_HASH SHA256=${_gpux_dlpack_sdist_sha256} STATUS _st TIMEOUT 60
             INACTIVITY_TIMEOUT 15)
        list(GET _st 0 _code)
        if(_code EQUAL 0)
          file(RENAME "${_tgz}.part" "${_tgz}")
        else()
          file(REMOVE "${_tgz}.part")
          message(STATUS "gpux: the download failed (${_st})")
        endif()
      endif()
      if(EXISTS "${_tgz}")
        file(ARCHIVE_EXTRACT INPUT "${_tgz}" DESTINATION "${_dir}"
             PATTERNS "*/3rdparty/dlpack/include/dlpack/dlpack.h" "*/3rdparty/dlpack/LICENSE")
      endif()
    endif()
    _gpux_dlpack_major("${_inc}" _major)
    if(_major GREATER_EQUAL 1)
      set(GPUX_HAVE_DLPACK ON)
      set(GPUX_DLPACK_INCLUDE "${_inc}")
    endif()
  endif()
  if(NOT GPUX_HAVE_DLPACK AND GPUX_WITH_DLPACK STREQUAL "ON")
    message(FATAL_ERROR "GPUX_WITH_DLPACK=ON but no DLPack 1.x header was found or downloaded "
                        "(set GPUX_DLPACK_INCLUDE_DIR)")
  endif()
endif()
message(STATUS "gpux: DLPack ${GPUX_HAVE_DLPACK} ${GPUX_DLPACK_INCLUDE}")
