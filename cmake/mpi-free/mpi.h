/* The sources in MG_PURE_SOURCES (CMakeLists.txt) are MPI-free: they are compiled with this
 * directory first on the include path, so an include of mpi.h, direct or through another
 * header, ends the build here. Move MPI code out of the list instead of removing this file. */
#error "an MPI-free source (MG_PURE_SOURCES in CMakeLists.txt) includes mpi.h"
