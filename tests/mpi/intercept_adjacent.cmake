# Send and receive buffers that are neighbours in one array (a mock-up once handed
# MPICH an empty receive block whose address was the send buffer's, and MPICH aborts on aliased
# pointers whatever the count). tests/mpi/adjacent.c knows nothing of mpiguide and is preloaded
# with every mock-up in turn: round r forces the r-th mock-up of each collective that has one,
# so a few launches cover every row of algorithms.def; the report proves each one ran.
add_executable(adjacent mpi/adjacent.c)
target_link_libraries(adjacent PRIVATE MPI::MPI_C)

file(STRINGS ${CMAKE_SOURCE_DIR}/src/catalog/algorithms.def MG_ADJ_ROWS REGEX "^MG_ALG\\(")
set(MG_ADJ_COLLS "")
foreach(row ${MG_ADJ_ROWS})
  if(row MATCHES "MG_AF_TESTONLY")
    continue()
  endif()
  string(REGEX REPLACE "^MG_ALG\\(([A-Z_]+), *([a-z0-9_]+),.*" "\\1;\\2" parts "${row}")
  list(GET parts 0 id)
  list(GET parts 1 alg)
  string(TOLOWER ${id} coll)
  if(coll STREQUAL "bcast") # one buffer: nothing to place
    continue()
  endif()
  if(NOT DEFINED MG_ADJ_${coll})
    list(APPEND MG_ADJ_COLLS ${coll})
  endif()
  list(APPEND MG_ADJ_${coll} ${alg})
endforeach()

foreach(round 0 1 2 3)
  set(forced "")
  set(expect "adjacent: [0-9]+ passed, 0 failed")
  foreach(coll ${MG_ADJ_COLLS})
    list(LENGTH MG_ADJ_${coll} n)
    if(round LESS n)
      list(GET MG_ADJ_${coll} ${round} alg)
      list(APPEND forced "${coll}=${alg}")
      string(SUBSTRING ${coll} 0 1 first)
      string(SUBSTRING ${coll} 1 -1 rest)
      string(TOUPPER ${first} first)
      list(APPEND expect "#@mpiguide calls MPI_${first}${rest} total=[0-9]+ mockup=[1-9]")
    endif()
  endforeach()
  if(NOT forced)
    continue()
  endif()
  string(REPLACE ";" "," forced "${forced}")
  foreach(np 2 3)
    ic_test(adjacent_round${round}_np${np} NP ${np}
      RUN env LD_PRELOAD=$<TARGET_FILE:mpiguide> MPIGUIDE_REPORT=1 MPIGUIDE_ALG=${forced}
          $<TARGET_FILE:adjacent>
      EXPECT ${expect} REJECT "mpiguide: (error|warning)")
  endforeach()
endforeach()
