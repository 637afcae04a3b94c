# CPack: one .deb per MPI build tree, built with `cpack` in the tree (or the
# `package` target). Package mpiguide-<mpi> holds what cmake/install.cmake installs, under /usr;
# its file names never collide with the other MPI's package.
set(MPIGUIDE_PACKAGE_MAINTAINER "mpiguide dev <dev@mpiguide>" CACHE STRING
  "Maintainer field of the .deb")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME ${MPIGUIDE_NAME})
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "${MPIGUIDE_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "MPI performance guidelines: checks and a PMPI tuning library for ${MG_MPI_TITLE}")
# the extended description keeps Debian's line length (CPack indents each line)
string(CONCAT CPACK_PACKAGE_DESCRIPTION
  "mpiguide checks the collectives of an MPI library against performance\n"
  "guidelines (a collective is never slower than an equivalent composition of\n"
  "other collectives) and repairs them at run time through PMPI.\n"
  "Built for ${MG_MPI_TITLE}: library libmpiguide-${MPIGUIDE_MPI}, tool mpiguide-${MPIGUIDE_MPI},\n"
  "header, pkg-config file and CMake package mpiguide-${MPIGUIDE_MPI}.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON) # as Debian ships binaries; the build tree keeps the debug information
# a tree first configured before cmake/installdirs.cmake keeps libdir `lib` in its cache
if(CMAKE_LIBRARY_ARCHITECTURE AND EXISTS /etc/debian_version
   AND NOT CMAKE_INSTALL_LIBDIR STREQUAL "lib/${CMAKE_LIBRARY_ARCHITECTURE}")
  message(WARNING "mpiguide: the .deb will install the library into /usr/${CMAKE_INSTALL_LIBDIR}, "
    "not the multiarch directory; reconfigure with -UCMAKE_INSTALL_LIBDIR to get "
    "lib/${CMAKE_LIBRARY_ARCHITECTURE}")
endif()
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # mpiguide-<mpi>_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# Depends from dpkg-shlibdeps: the MPI runtime the library was linked with (libopenmpi3 or
# libmpich12) and libc, at the versions the binaries need. Building against the package and
# running programs need the MPI's development files and launcher, which LD_PRELOAD alone does not.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
if(MPIGUIDE_MPI STREQUAL "openmpi")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libopenmpi-dev, openmpi-bin")
elseif(MPIGUIDE_MPI STREQUAL "smpi")
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libsimgrid-dev")
else()
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libmpich-dev, mpich")
endif()
# `package_source` must not pack build trees, outputs or the repository
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build/" "/out/")
include(CPack)
