# Install rules and the CMake package (included at the end of the top-level
# CMakeLists.txt): `cmake --install build --prefix P` puts
#
#   P/bin/tlc [P/bin/tlc-verify]          the tools
#   P/share/tlc/targets/*.yaml            the target descriptions
#   P/share/man/man1/tlc.1                the man page
#   P/share/tlc/python/tlc/               the Python package (docs/pytorch.md):
#                                         PYTHONPATH=P/share/tlc/python
#   P/lib/cmake/tlc/                      tlcConfig.cmake, tlcConfigVersion.cmake,
#                                         tlcTargets*.cmake, tlcAddKernels.cmake
#
# so that a project can find_package(tlc) and call tlc_add_kernels().
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# tlc finds its target descriptions at <dir of the tlc binary>/../share/tlc/targets
# (lib/Target/Target.c), so they follow the binary rather than DATADIR; with
# the default layout that is share/tlc/targets.
set(TLC_INSTALL_BINDIR ${CMAKE_INSTALL_BINDIR})
if(CMAKE_INSTALL_BINDIR STREQUAL "bin")
  set(TLC_INSTALL_TARGETSDIR share/tlc/targets)
else()
  set(TLC_INSTALL_TARGETSDIR ${CMAKE_INSTALL_BINDIR}/../share/tlc/targets)
endif()
# lib/cmake/tlc, not ${CMAKE_INSTALL_LIBDIR}: the package holds no library,
# only a build tool, so it does not belong in a multiarch directory.
set(TLC_INSTALL_CMAKEDIR lib/cmake/tlc CACHE STRING "Where the tlc CMake package is installed")

install(TARGETS tlc EXPORT tlcTargets RUNTIME DESTINATION ${TLC_INSTALL_BINDIR})
# tools/tlc-verify defines the target only when libclang was found.
if(TARGET tlc-verify)
  install(TARGETS tlc-verify EXPORT tlcTargets RUNTIME DESTINATION ${TLC_INSTALL_BINDIR})
endif()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/targets/ DESTINATION ${TLC_INSTALL_TARGETSDIR}
        FILES_MATCHING PATTERN "*.yaml")
install(FILES ${CMAKE_SOURCE_DIR}/docs/tlc.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
# The Python package follows the binary like the targets: it finds tlc at
# ../../../../bin/tlc from itself, and `tlc tune` finds it at
# <dir of tlc>/../share/tlc/python (lib/Driver/TuneCommand.c).
install(DIRECTORY ${CMAKE_SOURCE_DIR}/python/tlc DESTINATION ${TLC_INSTALL_TARGETSDIR}/../python
        FILES_MATCHING PATTERN "*.py" PATTERN "*.cu" PATTERN "__pycache__" EXCLUDE)

install(EXPORT tlcTargets NAMESPACE tlc:: DESTINATION ${TLC_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${CMAKE_SOURCE_DIR}/cmake/tlcConfig.cmake.in ${CMAKE_BINARY_DIR}/cmake/tlcConfig.cmake
  INSTALL_DESTINATION ${TLC_INSTALL_CMAKEDIR}
  PATH_VARS TLC_INSTALL_BINDIR TLC_INSTALL_TARGETSDIR)
# 0.x: minor versions may break the .tl language, so only the same minor
# version is compatible. ARCH_INDEPENDENT: tlc is a tool run on the build
# machine, usable from 32- and 64-bit projects alike.
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/cmake/tlcConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion ARCH_INDEPENDENT)
install(FILES ${CMAKE_BINARY_DIR}/cmake/tlcConfig.cmake ${CMAKE_BINARY_DIR}/cmake/tlcConfigVersion.cmake
              ${CMAKE_SOURCE_DIR}/cmake/tlcAddKernels.cmake
        DESTINATION ${TLC_INSTALL_CMAKEDIR})
