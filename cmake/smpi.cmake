# The SMPI build (SimGrid's simulated MPI; scripts/build.sh smpi configures it with smpicc as
# the compiler and smpirun as the launcher). smpirun runs every rank of a job as a thread of one
# process, smpimain, which loads the program (a shared object: smpicc links everything with
# -shared) and, with its default privatisation, a private copy of it per rank, so that every
# rank has globals of its own. A shared library the program links is NOT copied: its globals
# would be shared by all ranks (docs/workflow.md, "Before you have the cluster: simulate it").
# Included by CMakeLists.txt before the targets.

# Our allocations are the rank's own memory; smpicc's header would route them through SMPI's
# shared-malloc bookkeeping.
add_compile_definitions(SMPI_NO_OVERRIDE_MALLOC)
# After smpicc's forced smpi_helpers.h: keep the C library's exit() (cmake/smpi/port.h).
add_compile_options(-include ${CMAKE_CURRENT_LIST_DIR}/smpi/port.h)
# A program of this build is a shared object; a non-PIE executable or a PIE cannot be loaded.
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
# The dynamic loader of this machine, for the tool's .interp (src/cli/smpi_entry.c).
execute_process(COMMAND sh -c "readelf -l /bin/sh | sed -n 's/.*program interpreter: \\(.*\\)]/\\1/p'"
  OUTPUT_VARIABLE MG_INTERP OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT MG_INTERP)
  message(FATAL_ERROR "smpi: cannot find the dynamic loader (readelf -l /bin/sh)")
endif()

# mg_smpi_program(TARGET): a program of this build that links libmpiguide's objects itself
# (so the per-rank copy privatises them too) and also runs without smpirun (the tool).
function(mg_smpi_program target)
  target_sources(${target} PRIVATE $<TARGET_OBJECTS:mgcore> ${CMAKE_SOURCE_DIR}/src/cli/smpi_entry.c)
  target_compile_definitions(${target} PRIVATE MG_INTERP="${MG_INTERP}")
  target_link_libraries(${target} PRIVATE mgpure MPI::MPI_C)
  target_link_options(${target} PRIVATE LINKER:-e,mg_smpi_entry)
endfunction()

# mg_smpi_archive(): libmpiguide-smpi.a, the library (interception, algorithms, API) for
# applications built with smpicc: linked into the program, it is copied per rank with it.
# The shared libmpiguide-smpi.so needs --cfg=smpi/privatize-libs:ABSOLUTE_PATH instead.
function(mg_smpi_archive)
  add_library(mpiguide_static STATIC $<TARGET_OBJECTS:mgcore> $<TARGET_OBJECTS:mgpure>)
  set_target_properties(mpiguide_static PROPERTIES OUTPUT_NAME mpiguide-smpi)
  install(TARGETS mpiguide_static ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
endfunction()
