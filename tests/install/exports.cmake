# Checks the dynamic symbol table of libmpiguide, in script mode:
#   cmake -DNM=nm -DLIB=libmpiguide-<mpi>.so -DHEADER=include/mpiguide.h -P exports.cmake
# Every defined dynamic symbol must be a function that is an MPI entry point in one of the
# binding's spellings (MPI_Allreduce, MPI_Allreduce_c, MPI_ALLREDUCE, mpi_allreduce_,
# mpi_allreduce_f08_, ...) or part of the public API (mpiguide_*). PMPI_* is not allowed: a
# definition would replace the MPI's own profiling entry, which every wrapper calls. Every
# function the public header declares must be exported, and the interception needs MPI_Init.
cmake_minimum_required(VERSION 3.18)
foreach(var NM LIB HEADER)
  if(NOT ${var})
    message(FATAL_ERROR "exports.cmake: -D${var}=... missing")
  endif()
endforeach()

execute_process(COMMAND ${NM} -D --defined-only ${LIB} RESULT_VARIABLE rc OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIB} failed (${rc}): ${err}")
endif()
string(REGEX REPLACE "\n$" "" out "${out}")
string(REPLACE "\n" ";" lines "${out}")

set(bad "")
set(exported "")
foreach(line ${lines})
  # `ADDRESS TYPE NAME`; a version suffix (@@V) would mean a version node, also not expected
  if(NOT line MATCHES "^[0-9a-f]+ ([A-Za-z]) ([^ ]+)$")
    list(APPEND bad "unparsed nm line `${line}`")
    continue()
  endif()
  set(type "${CMAKE_MATCH_1}")
  set(name "${CMAKE_MATCH_2}")
  list(APPEND exported "${name}")
  if(NOT type MATCHES "^[TW]$")
    list(APPEND bad "${name} (type ${type}: not a function)")
  elseif(NOT (name MATCHES "^MPI_[A-Z][a-z0-9_]*$"      # C binding, incl. the _c large-count form
           OR name MATCHES "^MPI_[A-Z][A-Z0-9_]*$"      # Fortran, upper case
           OR name MATCHES "^mpi_[a-z][a-z0-9_]*$"      # Fortran, lower case, any underscores, _f08
           OR name MATCHES "^mpiguide_[a-z][a-z0-9_]*$")) # the public API
    list(APPEND bad "${name}")
  endif()
endforeach()

# the other direction: the public API and the interception are really there
file(STRINGS ${HEADER} decls REGEX "^[A-Za-z][^/]*[ *]mpiguide_[a-z0-9_]+\\(") # declarations, not comments
set(required MPI_Init MPI_Finalize)
foreach(decl ${decls})
  string(REGEX MATCH "mpiguide_[a-z0-9_]+\\(" fn "${decl}")
  string(REPLACE "(" "" fn "${fn}")
  list(APPEND required ${fn})
endforeach()
set(missing "")
foreach(fn ${required})
  if(NOT fn IN_LIST exported)
    list(APPEND missing ${fn})
  endif()
endforeach()

list(LENGTH exported n)
list(LENGTH bad nbad)
list(LENGTH missing nmissing)
if(nbad OR nmissing)
  string(REPLACE ";" "\n  " bad "${bad}")
  string(REPLACE ";" "\n  " missing "${missing}")
  message(FATAL_ERROR "${LIB}: ${n} exported symbols\n"
    "${nbad} not an MPI entry point or mpiguide_* function:\n  ${bad}\n"
    "${nmissing} required but not exported:\n  ${missing}")
endif()
message(STATUS "${LIB}: ${n} exported symbols, all MPI entry points or mpiguide_* functions")
