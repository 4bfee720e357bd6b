# tlc_add_kernels(): compile .tl files with tlc at build time and add the
# CUDA and the launcher headers to a target. Installed next to tlcConfig.cmake
# and included by it; see docs/cmake.md.
#
#   tlc_add_kernels(<target> FILES a.tl [b.tl ...]
#                   [TARGET sm_90] [OPTIONS opt ...] [INCLUDE_SCOPE PUBLIC|PRIVATE|INTERFACE])
#
# For each FILE this adds one build rule
#
#   tlc FILE --target=<TARGET> <OPTIONS> -o <bindir>/tlc/<target>/NAME.cu
#            --header=<bindir>/tlc/<target>/include/NAME.h
#
# that re-runs when FILE or the tlc executable changes, adds NAME.cu to
# <target> (a CUDA source, so the project must enable the CUDA language), and
# adds the include directory to <target> so its C, C++ and CUDA sources can
# `#include "NAME.h"`. The directory is per target, so two targets may compile
# the same .tl with different options.
#
# Everything here runs in the consumer's project; it needs only the imported
# executable tlc::tlc that tlcConfig.cmake defines.

include_guard(GLOBAL)

# cmake_language(DEFER) (the architecture check) appeared in CMake 3.19.
if(CMAKE_VERSION VERSION_LESS 3.19)
  message(FATAL_ERROR "tlc_add_kernels needs CMake 3.19 or newer (this is ${CMAKE_VERSION})")
endif()

function(tlc_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 _tlc "" "TARGET;INCLUDE_SCOPE" "FILES;OPTIONS")
  if(_tlc_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tlc_add_kernels(${target}): unknown arguments: ${_tlc_UNPARSED_ARGUMENTS}"
                        " (expected FILES, TARGET, OPTIONS, INCLUDE_SCOPE)")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tlc_add_kernels(${target}): '${target}' is not a target; "
                        "create it first (add_executable or add_library)")
  endif()
  if(NOT _tlc_FILES)
    message(FATAL_ERROR "tlc_add_kernels(${target}): FILES needs at least one .tl file")
  endif()
  if(NOT TARGET tlc::tlc)
    message(FATAL_ERROR "tlc_add_kernels: the imported target tlc::tlc is missing; "
                        "use find_package(tlc) rather than including this file alone")
  endif()
  # tlc's own default, spelled out so the rule and the architecture check
  # below agree on it.
  if(NOT _tlc_TARGET)
    set(_tlc_TARGET sm_90a)
  endif()
  if(NOT _tlc_TARGET MATCHES "^sm_([0-9]+a?)$")
    message(FATAL_ERROR "tlc_add_kernels(${target}): TARGET must look like sm_90, got '${_tlc_TARGET}'")
  endif()
  set(_sm ${CMAKE_MATCH_1})
  get_target_property(_type ${target} TYPE)
  if(_type STREQUAL "INTERFACE_LIBRARY")
    message(FATAL_ERROR "tlc_add_kernels(${target}): an INTERFACE library cannot hold CUDA sources")
  endif()
  if(NOT _tlc_INCLUDE_SCOPE)
    # PUBLIC: a library of kernels hands the headers on to what links it.
    set(_tlc_INCLUDE_SCOPE PUBLIC)
  elseif(NOT _tlc_INCLUDE_SCOPE MATCHES "^(PUBLIC|PRIVATE|INTERFACE)$")
    message(FATAL_ERROR "tlc_add_kernels(${target}): INCLUDE_SCOPE must be PUBLIC, PRIVATE or INTERFACE")
  endif()

  # Every argument is checked before anything is added to the target.
  set(_seen)
  foreach(_file IN LISTS _tlc_FILES)
    # FILES takes every argument up to the next keyword, so a misspelt
    # keyword (ARCH 90) would otherwise surface as a missing file "ARCH".
    if(NOT _file MATCHES "\\.tl$")
      message(FATAL_ERROR "tlc_add_kernels(${target}): '${_file}' in FILES is not a .tl file "
                          "(keywords: FILES, TARGET, OPTIONS, INCLUDE_SCOPE)")
    endif()
    get_filename_component(_abs "${_file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${_abs}")
      message(FATAL_ERROR "tlc_add_kernels(${target}): no such file: ${_abs}")
    endif()
    get_filename_component(_name "${_file}" NAME_WE)
    # Outputs are named after the file, so a.tl in two directories would
    # write the same a.cu and a.h.
    if(_name IN_LIST _seen)
      message(FATAL_ERROR "tlc_add_kernels(${target}): two files named ${_name}.tl; "
                          "their outputs would collide (use a second target)")
    endif()
    list(APPEND _seen ${_name})
  endforeach()

  # The .cu files are CUDA sources: without the language enabled CMake would
  # not know how to compile them, and the error would come much later.
  get_property(_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT "CUDA" IN_LIST _langs)
    message(FATAL_ERROR "tlc_add_kernels(${target}): the CUDA language is not enabled; "
                        "use project(... LANGUAGES C CUDA) or enable_language(CUDA)")
  endif()

  set(_outdir ${CMAKE_CURRENT_BINARY_DIR}/tlc/${target})
  set(_incdir ${_outdir}/include)
  file(MAKE_DIRECTORY ${_incdir})

  # A changed target description changes the code tlc writes, so the rule
  # depends on it too when the installed one is where tlc will look.
  set(_extra_deps)
  if(TLC_TARGETS_DIR AND EXISTS "${TLC_TARGETS_DIR}/${_tlc_TARGET}.yaml")
    list(APPEND _extra_deps "${TLC_TARGETS_DIR}/${_tlc_TARGET}.yaml")
  endif()

  set(_outputs)
  foreach(_file IN LISTS _tlc_FILES)
    get_filename_component(_abs "${_file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(_name "${_file}" NAME_WE)
    set(_cu ${_outdir}/${_name}.cu)
    set(_h ${_incdir}/${_name}.h)
    file(RELATIVE_PATH _rel "${CMAKE_SOURCE_DIR}" "${_abs}")
    add_custom_command(
      OUTPUT ${_cu} ${_h}
      COMMAND tlc::tlc "${_abs}" --target=${_tlc_TARGET} ${_tlc_OPTIONS} -o ${_cu} --header=${_h}
      # The .tl (a .tl file includes nothing else) and the compiler itself:
      # a new tlc may write different code for the same source. The
      # executable's file, named explicitly, is a file-level dependency
      # whatever a CMake version makes of a bare imported target here.
      DEPENDS "${_abs}" "$<TARGET_FILE:tlc::tlc>" ${_extra_deps}
      COMMENT "tlc ${_rel} -> ${_name}.cu, ${_name}.h"
      VERBATIM)
    list(APPEND _outputs ${_cu} ${_h})
  endforeach()

  target_sources(${target} PRIVATE ${_outputs})
  target_include_directories(${target} ${_tlc_INCLUDE_SCOPE} ${_incdir})
  # The header includes <cuda_runtime_api.h>. CUDA sources find it on their
  # own, but C and C++ sources of the target do not.
  if(CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES)
    target_include_directories(${target} SYSTEM ${_tlc_INCLUDE_SCOPE} ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})
  endif()

  # tlc writes sm_XY code (cp.async, mma.sync, and the shared-memory budget
  # of that chip): compiled for an older architecture it fails inside nvcc
  # with a PTX error that does not mention tlc. Checked at the end of the
  # directory, after the project had its chance to set the property.
  # (EVAL, because DEFER would expand the variables only when the call runs.)
  cmake_language(EVAL CODE
    "cmake_language(DEFER CALL _tlc_check_architectures [[${target}]] [[${_sm}]])")
endfunction()

# Warns when every architecture the target compiles for is older than the
# one tlc wrote code for. Symbolic values (native, all, all-major) and
# generator expressions are left alone: they are resolved after configure.
function(_tlc_check_architectures target sm)
  get_target_property(_archs ${target} CUDA_ARCHITECTURES)
  if(NOT _archs OR _archs MATCHES "native|all|\\$<")
    return()
  endif()
  # An arch-specific target (sm_90a: wgmma) needs exactly that architecture.
  string(REGEX MATCH "^[0-9]+" _sm_num "${sm}")
  foreach(_arch IN LISTS _archs)
    if(sm MATCHES "a$")
      if(_arch MATCHES "^${sm}(-real|-virtual)?$")
        return()
      endif()
    elseif(_arch MATCHES "^([0-9]+)" AND CMAKE_MATCH_1 GREATER_EQUAL _sm_num)
      return()
    endif()
  endforeach()
  message(WARNING "tlc_add_kernels(${target}): tlc writes code for sm_${sm}, but the target's "
                  "CUDA_ARCHITECTURES is '${_archs}'; set CMAKE_CUDA_ARCHITECTURES to ${sm} "
                  "(or pass TARGET sm_NN to tlc_add_kernels)")
endfunction()
