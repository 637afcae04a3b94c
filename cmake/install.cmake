# What `cmake --install` puts where. Everything installed carries the MPI's
# name, so the Open MPI and the MPICH build install side by side into one prefix and their
# .debs can be installed together:
#   <libdir>/libmpiguide-<mpi>.so.0...       soname libmpiguide-<mpi>.so.0, link libmpiguide-<mpi>.so
#   <bindir>/mpiguide-<mpi>                  the tool
#   <includedir>/mpiguide-<mpi>/mpiguide.h   one directory per MPI: the header includes that
#                                            MPI's mpi.h, and two packages may not own one file
#   <libdir>/pkgconfig/mpiguide-<mpi>.pc
#   <libdir>/cmake/mpiguide-<mpi>/           CMake package mpiguide-<mpi>: targets mpiguide::mpiguide
#                                            (library) and mpiguide::cli (tool)
# Included after the targets are defined.
set(MPIGUIDE_NAME mpiguide-${MPIGUIDE_MPI})
set(MG_INSTALL_INCLUDEDIR ${CMAKE_INSTALL_INCLUDEDIR}/${MPIGUIDE_NAME})
set(MG_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/${MPIGUIDE_NAME})
if(MPIGUIDE_MPI STREQUAL "openmpi")
  set(MG_MPI_TITLE "Open MPI")
  set(MG_MPI_MACRO OPEN_MPI) # what the MPI's mpi.h defines (the configure check above)
  set(MG_MPI_PKGCONFIG ompi-c)
elseif(MPIGUIDE_MPI STREQUAL "smpi")
  set(MG_MPI_TITLE "SMPI (SimGrid)")
  set(MG_MPI_MACRO SMPI_SAMPLE_LOCAL)
  set(MG_MPI_PKGCONFIG simgrid)
else()
  set(MG_MPI_TITLE "MPICH")
  set(MG_MPI_MACRO MPICH)
  set(MG_MPI_PKGCONFIG mpich)
endif()

# The build tree uses the installed names too; it holds a single MPI, so the short names of the
# documentation (lib/libmpiguide.so for LD_PRELOAD, bin/mpiguide) stay there as links.
file(RELATIVE_PATH mg_bin_to_lib ${CMAKE_INSTALL_FULL_BINDIR} ${CMAKE_INSTALL_FULL_LIBDIR})
set_target_properties(mpiguide PROPERTIES OUTPUT_NAME ${MPIGUIDE_NAME})
set_target_properties(mpiguide_cli PROPERTIES OUTPUT_NAME ${MPIGUIDE_NAME} EXPORT_NAME cli
  INSTALL_RPATH "$ORIGIN/${mg_bin_to_lib}")
add_custom_command(TARGET mpiguide POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E create_symlink $<TARGET_LINKER_FILE_NAME:mpiguide>
          ${CMAKE_LIBRARY_OUTPUT_DIRECTORY}/libmpiguide.so)
add_custom_command(TARGET mpiguide_cli POST_BUILD
  COMMAND ${CMAKE_COMMAND} -E create_symlink $<TARGET_FILE_NAME:mpiguide_cli>
          ${CMAKE_RUNTIME_OUTPUT_DIRECTORY}/mpiguide)

# pkg-config file. With relative install dirs it locates the prefix from its own directory
# (${pcfiledir} plus one `..` per component of <libdir>/pkgconfig), so it stays right for
# `cmake --install --prefix DIR`, DESTDIR staging and a package unpacked anywhere; absolute
# install dirs are written as they are. The MPI's own .pc is required because mpiguide.h
# includes mpi.h.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(MG_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(MG_PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(MG_PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}/${MPIGUIDE_NAME}")
else()
  file(RELATIVE_PATH mg_up /mg/${CMAKE_INSTALL_LIBDIR}/pkgconfig /mg)
  string(REGEX REPLACE "/$" "" mg_up "${mg_up}")
  set(MG_PC_PREFIX "\${pcfiledir}/${mg_up}")
  set(MG_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(MG_PC_INCLUDEDIR "\${prefix}/${MG_INSTALL_INCLUDEDIR}")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/mpiguide.pc.in
  ${CMAKE_BINARY_DIR}/lib/pkgconfig/${MPIGUIDE_NAME}.pc @ONLY)

install(TARGETS mpiguide EXPORT ${MPIGUIDE_NAME}-targets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  INCLUDES DESTINATION ${MG_INSTALL_INCLUDEDIR})
install(TARGETS mpiguide_cli EXPORT ${MPIGUIDE_NAME}-targets
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${CMAKE_SOURCE_DIR}/include/mpiguide.h DESTINATION ${MG_INSTALL_INCLUDEDIR})
install(FILES ${CMAKE_BINARY_DIR}/lib/pkgconfig/${MPIGUIDE_NAME}.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# CMake package mpiguide-<mpi>. The config file finds the matching MPI first (MPI::MPI_C is in
# the library's link interface) and refuses a project that already found the other MPI.
include(CMakePackageConfigHelpers)
set(MG_MPI_C_COMPILER "${MPI_C_COMPILER}")
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/mpiguide-config.cmake.in
  ${CMAKE_BINARY_DIR}/cmake/${MPIGUIDE_NAME}-config.cmake
  INSTALL_DESTINATION ${MG_INSTALL_CMAKEDIR} NO_SET_AND_CHECK_MACRO)
# The soname promises ABI compatibility within a major version; the package promises the same.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/cmake/${MPIGUIDE_NAME}-config-version.cmake
  COMPATIBILITY SameMajorVersion)
install(EXPORT ${MPIGUIDE_NAME}-targets NAMESPACE mpiguide:: DESTINATION ${MG_INSTALL_CMAKEDIR})
install(FILES ${CMAKE_BINARY_DIR}/cmake/${MPIGUIDE_NAME}-config.cmake
  ${CMAKE_BINARY_DIR}/cmake/${MPIGUIDE_NAME}-config-version.cmake
  DESTINATION ${MG_INSTALL_CMAKEDIR})
